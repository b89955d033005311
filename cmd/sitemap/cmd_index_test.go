package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/s3test"
	"github.com/sitemapkit/sitemap/internal/xmllint"
)

// decodeLocs returns the locs of one sitemap or index (gzip or not).
func decodeLocs(t *testing.T, name string, data []byte) []string {
	t.Helper()
	var r io.Reader = bytes.NewReader(data)
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r = zr
	}
	d := sitemap.NewDecoder(r, sitemap.DecoderOptions{Name: name})
	var locs []string
	for {
		it, err := d.Next()
		if err == io.EOF {
			return locs
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if it.Kind == sitemap.ItemIndex {
			locs = append(locs, it.Index.Loc)
		} else {
			locs = append(locs, it.URL.Loc)
		}
	}
}

// shardInput writes n URLs (with some repeated) to a file and returns its
// path and the distinct URLs.
func shardInput(t *testing.T, n int) (string, []string) {
	var b strings.Builder
	var want []string
	for i := range n {
		u := fmt.Sprintf("https://www.example.com/item/%d", i)
		fmt.Fprintln(&b, u)
		if i%50 == 0 {
			fmt.Fprintln(&b, u) // a duplicate: still one URL in one shard
		}
		want = append(want, u)
	}
	in := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	return in, want
}

// checkMerged checks a published set: NAME.xml lists every child of every
// shard, every child and the index are XSD-valid, and the children hold
// exactly want, each URL once.
func checkMerged(t *testing.T, files map[string][]byte, shards int, want []string) {
	t.Helper()
	idx, ok := files["sitemap.xml"]
	if !ok {
		t.Fatal("no sitemap.xml")
	}
	listed := decodeLocs(t, "sitemap.xml", idx)
	var got []string
	dir := t.TempDir()
	var children []string
	for _, loc := range listed {
		name := strings.TrimPrefix(loc, genBase)
		data, ok := files[name]
		if !ok {
			t.Fatalf("the index lists %s, which is not published", name)
		}
		got = append(got, decodeLocs(t, name, data)...)
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		children = append(children, p)
	}
	for k := 1; k <= shards; k++ {
		n := 0
		for _, loc := range listed {
			if strings.HasPrefix(loc, genBase+fmt.Sprintf("sitemap-%d-", k)) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("the index lists no sitemap of shard %d", k)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("the shards hold %d URLs, want the %d of one run (first differences: %v)", len(got), len(want), firstDiff(got, want))
	}
	os.WriteFile(filepath.Join(dir, "sitemap.xml"), idx, 0o644)
	xmllint.Validate(t, filepath.Join(dir, "sitemap.xml"), xmllint.SiteIndex)
	xmllint.ValidateFiles(t, xmllint.Sitemap, children...)
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " vs " + b[i]
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// Three `generate --shard K/3` runs over the same input and `index`
// publish the URL set of one run, each URL once, under one index; a
// missing or incomplete shard is refused with nothing published.
func TestGenerateShardsIndex(t *testing.T) {
	in, want := shardInput(t, 1200)
	out := filepath.Join(t.TempDir(), "public")
	gen := func(k int) {
		t.Helper()
		code, _, stderr := runCLI(t, "", "generate", "--shard", fmt.Sprintf("%d/3", k), "--base-url", genBase, "--out", out, "--max-urls", "100", in)
		if code != exitOK {
			t.Fatalf("generate --shard %d/3: exit %d\n%s", k, code, stderr)
		}
	}
	index := func() (int, string) {
		code, _, stderr := runCLI(t, "", "index", "--shards", "3", "--base-url", genBase, "--out", out)
		return code, stderr
	}
	gen(1)
	gen(3)
	if code, stderr := index(); code != exitUsage || !strings.Contains(stderr, "shard 2 of 3") {
		t.Fatalf("index with shard 2 missing: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Fatal("index published sitemap.xml with a shard missing")
	}
	gen(2)
	if code, stderr := index(); code != exitOK {
		t.Fatalf("index: exit %d\n%s", code, stderr)
	}
	files := map[string][]byte{}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		files[e.Name()], _ = os.ReadFile(filepath.Join(out, e.Name()))
	}
	checkMerged(t, files, 3, want)

	// Another base URL than the shards': refused, the index kept (it
	// listed the children at the other URL, where they are not served).
	before := files["sitemap.xml"]
	code, _, stderr := runCLI(t, "", "index", "--shards", "3", "--base-url", "https://cdn.example.com/maps/", "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "lists its sitemaps at "+genBase+", but the base URL given here is https://cdn.example.com/maps/") {
		t.Fatalf("index with another --base-url: exit %d\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "sitemap.xml")); !bytes.Equal(after, before) {
		t.Fatal("index with another --base-url changed sitemap.xml")
	}

	// A child of shard 2 gone: the shard is incomplete.
	m, _ := filepath.Glob(filepath.Join(out, "sitemap-2-1-*.xml"))
	if len(m) != 1 {
		t.Fatalf("children of shard 2: %v", m)
	}
	os.Remove(m[0])
	if code, stderr := index(); code != exitUsage || !strings.Contains(stderr, "incomplete") {
		t.Fatalf("index with a child of shard 2 gone: exit %d\n%s", code, stderr)
	}
}

// The same into an S3 bucket: shards and index through s3://.
func TestGenerateShardsIndexS3(t *testing.T) {
	in, want := shardInput(t, 900)
	loc := s3test.Env(t) + "/maps"
	for k := 1; k <= 3; k++ {
		code, _, stderr := runCLI(t, "", "generate", "--shard", fmt.Sprintf("%d/3", k), "--base-url", genBase, "--out", loc, "--max-urls", "100", "--gzip", in)
		if code != exitOK {
			t.Fatalf("generate --shard %d/3: exit %d\n%s", k, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "index", "--shards", "3", "--base-url", genBase, "--out", loc); code != exitOK {
		t.Fatalf("index: exit %d\n%s", code, stderr)
	}
	files := map[string][]byte{}
	for n, body := range s3Objects(t, loc) {
		files[n] = []byte(body)
	}
	checkMerged(t, files, 3, want)
}

// index reads what shard runs wrote: an --out that does not exist is an
// error that says so, and is not created (it was made, empty, and left);
// a negative --shards is named as it is, not as missing.
func TestIndexFlagsAndMissingOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	code, _, errb := runCLI(t, "", "index", "--shards", "2", "--base-url", "https://www.example.com/", "--out", out)
	if code != exitUsage || !strings.Contains(errb, "--out "+out+": no such directory") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--out was created: %v", err)
	}
	code, _, errb = runCLI(t, "", "index", "--shards", "-1", "--base-url", "https://www.example.com/", "--out", dir)
	if code != exitUsage || !strings.Contains(errb, "--shards -1: give N, 1 or more") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
	// --out - is not standard output here (it said "no such directory"):
	// the shards are read in --out and the index written beside them.
	code, stdout, errb := runCLI(t, "", "index", "--shards", "2", "--base-url", "https://www.example.com/", "--out", "-")
	if code != exitUsage || stdout != "" || !strings.HasPrefix(errb, "sitemap: --out -: index reads the shards in --out") || !strings.Contains(errb, "not standard output") {
		t.Errorf("--out -: exit %d, stdout %q, stderr %q", code, stdout, errb)
	}
}
