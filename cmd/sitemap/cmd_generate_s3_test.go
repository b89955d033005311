package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemap/internal/s3test"
	"github.com/sitemapkit/sitemap/store"
)

// s3Objects lists the objects of loc (s3://bucket/prefix) by name, with
// their bodies.
func s3Objects(t *testing.T, loc string) map[string]string {
	t.Helper()
	st, err := store.S3(loc, store.S3Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	names, err := st.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		r, err := st.Open(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[n] = string(b)
	}
	return out
}

// generate --out s3://bucket/prefix publishes children and an index into
// the bucket (credentials and endpoint from the AWS_* environment); a
// second run with fewer URLs removes the children the new index no longer
// lists; parse reads the published index back through s3://.
func TestGenerateToS3(t *testing.T) {
	loc := s3test.Env(t) + "/maps"
	in := filepath.Join(t.TempDir(), "urls.txt")
	lines := func(n int) {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "https://www.example.com/p/%d\n", i)
		}
		if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines(25)
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", loc, "--max-urls", "10", "--gzip", in)
	if code != exitOK {
		t.Fatalf("generate --out %s: exit %d\n%s", loc, code, stderr)
	}
	objs := s3Objects(t, loc)
	var children []string
	for n := range objs {
		if n != "sitemap.xml" {
			children = append(children, n)
		}
	}
	slices.Sort(children)
	if len(children) != 3 || objs["sitemap.xml"] == "" {
		t.Fatalf("bucket holds %d objects (children %v), want sitemap.xml and 3 children", len(objs), children)
	}
	for _, c := range children {
		if !strings.Contains(objs["sitemap.xml"], "<loc>"+genBase+c+"</loc>") {
			t.Errorf("the index does not list %s:\n%s", c, objs["sitemap.xml"])
		}
	}
	code, out, stderr := runCLI(t, "", "parse", "--format", "jsonl", loc+"/sitemap.xml")
	if code != exitOK || strings.Count(out, "\n") != 3 {
		t.Fatalf("parse %s/sitemap.xml: exit %d, %d records\n%s%s", loc, code, strings.Count(out, "\n"), out, stderr)
	}

	// One sitemap: the old children stay one run for the readers of the
	// old index (grace), and go with the run after.
	lines(5)
	for run := 2; run <= 3; run++ {
		if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", loc, "--max-urls", "10", "--gzip", in); code != exitOK {
			t.Fatalf("generate run %d: exit %d\n%s", run, code, stderr)
		}
	}
	objs = s3Objects(t, loc)
	if _, ok := objs["sitemap.xml.gz"]; !ok || len(objs) != 1 {
		t.Fatalf("after the third run the bucket holds %d objects, want sitemap.xml.gz alone", len(objs))
	}
}

// crawl --out s3://bucket/prefix publishes the crawl's sitemap into the
// bucket; its state is kept locally (one file per --out, as for a
// directory).
func TestCrawlToS3(t *testing.T) {
	srv := crawlTestSite(t)
	loc := s3test.Env(t) + "/site"
	code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", loc, "--rate", "0")
	if code != exitProblems { // the site links a 404
		t.Fatalf("crawl --out %s: exit %d\n%s", loc, code, stderr)
	}
	objs := s3Objects(t, loc)
	doc, ok := objs["sitemap.xml"]
	if !ok || len(objs) != 1 {
		t.Fatalf("bucket holds %d objects, want sitemap.xml", len(objs))
	}
	if !strings.Contains(doc, "<loc>"+srv.URL+"/a</loc>") {
		t.Errorf("sitemap lacks /a:\n%s", doc)
	}
}

// The requests to an S3 service go through the one HTTP client too: a
// recording proxy in front of the test service sees only the command's
// --user-agent from generate, index and parse s3://.
func TestS3UserAgent(t *testing.T) {
	loc, o := s3test.Bucket(t)
	target, err := url.Parse(o.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	agents := map[string]int{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.UserAgent()]++
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	o.Endpoint = srv.URL
	s3test.SetEnv(t, o)
	in := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(in, []byte("https://www.example.com/a\nhttps://www.example.com/b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const ua = "probe-bot/2.0 (+https://example.com/bot)"
	for _, args := range [][]string{
		{"generate", "--user-agent", ua, "--base-url", genBase, "--out", loc + "/maps", "--name", "shard", "--shard", "1/1", in},
		{"index", "--user-agent", ua, "--shards", "1", "--name", "shard", "--base-url", genBase, "--out", loc + "/maps"},
		{"parse", "--user-agent", ua, loc + "/maps/shard.xml"},
	} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d\n%s%s", args, code, out, stderr)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(agents) != 1 || agents[ua] == 0 {
		t.Errorf("the S3 service saw User-Agents %v; want only %q", agents, ua)
	}
}
