package build

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	stdgzip "compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/xmllint"
	"github.com/sitemapkit/sitemap/store"
)

const base = "https://www.example.com/"

func page(i int) *sitemap.URL {
	return &sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/page/%d", i)}
}

func pages(n int) []*sitemap.URL {
	us := make([]*sitemap.URL, n)
	for i := range us {
		us[i] = page(i + 1)
	}
	return us
}

// run builds urls into st and fails the test on any error other than an
// *EntryError from Add.
func run(t *testing.T, st store.Store, o Options, urls []*sitemap.URL) Summary {
	t.Helper()
	sum, err := tryRun(st, o, urls)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func tryRun(st store.Store, o Options, urls []*sitemap.URL) (Summary, error) {
	ctx := context.Background()
	if o.BaseURL == "" {
		o.BaseURL = base
	}
	b, err := New(st, o)
	if err != nil {
		return Summary{}, err
	}
	for _, u := range urls {
		if err := b.Add(ctx, u); err != nil {
			var ee *sitemap.EntryError
			if !errors.As(err, &ee) {
				b.Abort()
				return Summary{}, err
			}
		}
	}
	return b.Commit(ctx)
}

// names lists the files of sum, children without the content hash of
// their names (see unhash), the index marked.
func names(sum Summary) []string {
	var n []string
	for _, f := range sum.Files {
		n = append(n, unhash(f.Name))
	}
	if sum.Index != nil {
		n = append(n, sum.Index.Name+" (index)")
	}
	return n
}

// hashRE is the content hash of a child's name (NAME-N-HASH.xml).
var hashRE = regexp.MustCompile(`^(.*-[1-9][0-9]*)-[0-9a-f]{12}(\.xml(\.gz)?)$`)

// unhash drops the content hash from a child's name: sitemap-1.xml.gz for
// sitemap-1-0123456789ab.xml.gz.
func unhash(name string) string { return hashRE.ReplaceAllString(name, "$1$2") }

// child returns the name of the n-th child (1-based) of the index of sum.
func child(t *testing.T, sum Summary, n int) string {
	t.Helper()
	if sum.Index == nil || len(sum.Files) < n {
		t.Fatalf("no child %d in %v", n, names(sum))
	}
	return sum.Files[n-1].Name
}

func listed(t *testing.T, st store.Store) []string {
	t.Helper()
	n, err := st.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// content returns the uncompressed bytes of a published file.
func content(t *testing.T, st store.Store, name string) []byte {
	t.Helper()
	r, err := st.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := stdgzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return b
}

type xmlURLSet struct {
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

type xmlIndex struct {
	Sitemaps []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	} `xml:"sitemap"`
}

func locs(t *testing.T, data []byte) []string {
	t.Helper()
	var s xmlURLSet
	if err := xml.Unmarshal(data, &s); err != nil {
		t.Fatalf("urlset does not parse: %v\n%s", err, data)
	}
	var l []string
	for _, u := range s.URLs {
		l = append(l, u.Loc)
	}
	return l
}

// Naming per docs/CONVENTIONS.md and the index modes.
func TestNaming(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		n    int
		want []string
	}{
		{"auto single", Options{}, 3, []string{"sitemap.xml"}},
		{"auto single gzip", Options{Gzip: true}, 3, []string{"sitemap.xml.gz"}},
		{"auto split", Options{MaxURLs: 2}, 3, []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap.xml (index)"}},
		{"auto split gzip", Options{MaxURLs: 2, Gzip: true}, 5, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap.xml (index)"}},
		{"gzip index", Options{MaxURLs: 2, Gzip: true, GzipIndex: true}, 3, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap.xml.gz (index)"}},
		{"always one child", Options{Index: IndexAlways}, 3, []string{"sitemap-1.xml", "sitemap.xml (index)"}},
		{"never fits", Options{Index: IndexNever}, 3, []string{"sitemap.xml"}},
		{"custom name", Options{Name: "news", MaxURLs: 2, Gzip: true}, 3, []string{"news-1.xml.gz", "news-2.xml.gz", "news.xml (index)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := store.Memory()
			sum := run(t, st, tc.o, pages(tc.n))
			if got := names(sum); !slices.Equal(got, tc.want) {
				t.Fatalf("files %v, want %v", got, tc.want)
			}
			var want []string
			for _, n := range tc.want {
				want = append(want, strings.TrimSuffix(n, " (index)"))
			}
			slices.Sort(want)
			var got []string
			for _, n := range listed(t, st) {
				got = append(got, unhash(n))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("store holds %v, want %v", got, want)
			}
			if sum.Index != nil {
				var idx xmlIndex
				if err := xml.Unmarshal(content(t, st, sum.Index.Name), &idx); err != nil {
					t.Fatal(err)
				}
				for i, s := range idx.Sitemaps {
					if want := base + sum.Files[i].Name; s.Loc != want {
						t.Errorf("index loc %d = %q, want %q", i, s.Loc, want)
					}
					// A child's name carries its content's hash.
					if f := sum.Files[i]; !strings.Contains(f.Name, "-"+f.SHA256[:12]+".xml") {
						t.Errorf("child %s is not named by its SHA-256 %s", f.Name, f.SHA256)
					}
				}
			}
			if st.Pending() != 0 {
				t.Fatalf("%d files left unpublished", st.Pending())
			}
		})
	}
}

// An invalid entry is skipped with *sitemap.EntryError and the run goes on
// (L-01, L-09).
func TestInvalidEntrySkipped(t *testing.T) {
	ctx := context.Background()
	st := store.Memory()
	b, err := New(st, Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		u  *sitemap.URL
		ok bool
	}{
		{page(1), true},
		{&sitemap.URL{Loc: "/relative/path"}, false},
		{&sitemap.URL{Loc: "https://other.example.org/x"}, false}, // out of scope (L-09)
		{page(2), true},
	} {
		err := b.Add(ctx, tc.u)
		var ee *sitemap.EntryError
		if tc.ok && err != nil || !tc.ok && !errors.As(err, &ee) {
			t.Fatalf("Add(%q) = %v", tc.u.Loc, err)
		}
	}
	sum, err := b.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 2 || sum.Skipped != 2 {
		t.Fatalf("URLs %d, skipped %d; want 2, 2", sum.URLs, sum.Skipped)
	}
	if got := locs(t, content(t, st, "sitemap.xml")); !slices.Equal(got, []string{page(1).Loc, page(2).Loc}) {
		t.Fatalf("locs %v", got)
	}
}

// I-09: an index lastmod is the newest lastmod of the child's URLs, kept
// at its precision, and absent when no URL of the child has one; never
// the time of the run.
func TestIndexLastMod(t *testing.T) {
	d := func(s string) sitemap.Date {
		v, err := sitemap.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	urls := pages(6)
	urls[0].LastMod = d("2024-03-01")
	urls[1].LastMod = d("2024-03-05T10:00:00+02:00") // newest of child 1
	// child 2 (urls 2, 3): no lastmod
	urls[4].LastMod = d("2023-01-01T00:00:00Z")
	urls[5].LastMod = d("2023-06-30") // newest of child 3
	st := store.Memory()
	sum := run(t, st, Options{MaxURLs: 2, Now: func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }}, urls)
	var idx xmlIndex
	data := content(t, st, "sitemap.xml")
	if err := xml.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	want := []string{"2024-03-05T10:00:00+02:00", "", "2023-06-30"}
	for i, s := range idx.Sitemaps {
		if s.LastMod != want[i] {
			t.Errorf("child %d lastmod %q, want %q", i+1, s.LastMod, want[i])
		}
	}
	if bytes.Contains(data, []byte("2030")) {
		t.Fatalf("index carries the run's time:\n%s", data)
	}
	if !sum.Files[1].LastMod.IsZero() {
		t.Fatalf("summary lastmod of child 2 = %v, want none", sum.Files[1].LastMod)
	}
	validateAll(t, st, sum)
}

// N-11: with NewsMaxAge, old news loses its news block, the entry stays.
func TestNewsAge(t *testing.T) {
	now := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	mk := func(i int, age time.Duration) *sitemap.URL {
		u := page(i)
		u.News = &sitemap.News{Publication: sitemap.Publication{Name: "The Daily", Language: "en"}, PublicationDate: sitemap.DateOf(now.Add(-age)), Title: "t"}
		return u
	}
	urls := []*sitemap.URL{mk(1, time.Hour), mk(2, 72*time.Hour)}
	st := store.Memory()
	sum := run(t, st, Options{NewsMaxAge: 48 * time.Hour, Now: func() time.Time { return now }}, urls)
	if sum.NewsStripped != 1 || sum.Files[0].News != 1 || sum.URLs != 2 {
		t.Fatalf("stripped %d, news %d, URLs %d", sum.NewsStripped, sum.Files[0].News, sum.URLs)
	}
	if urls[1].News == nil {
		t.Fatal("the caller's entry was modified")
	}
}

// EX-05: a file declares only the namespaces its entries use.
func TestNamespacesPerFile(t *testing.T) {
	img := page(3)
	img.Images = []sitemap.Image{{Loc: "https://www.example.com/a.jpg"}}
	urls := []*sitemap.URL{page(1), page(2), img, page(4)}
	st := store.Memory()
	sum := run(t, st, Options{MaxURLs: 2}, urls)
	one, two := content(t, st, child(t, sum, 1)), content(t, st, child(t, sum, 2))
	for _, ns := range []string{"xmlns:image", "xmlns:video", "xmlns:news", "xmlns:xhtml"} {
		if bytes.Contains(one, []byte(ns)) {
			t.Errorf("sitemap-1.xml declares %s without using it", ns)
		}
		if want := ns == "xmlns:image"; bytes.Contains(two, []byte(ns)) != want {
			t.Errorf("sitemap-2.xml: %s declared = %v, want %v", ns, !want, want)
		}
	}
}

// gzip round trip: the decompressed children equal the uncompressed run's
// files byte for byte, and the sizes in the summary are the real ones.
func TestGzipRoundTrip(t *testing.T) {
	urls := pages(25)
	plain, zipped := store.Memory(), store.Memory()
	ps := run(t, plain, Options{MaxURLs: 10}, urls)
	zs := run(t, zipped, Options{MaxURLs: 10, Gzip: true, GzipLevel: 9}, urls)
	for i := range ps.Files {
		p, z := ps.Files[i], zs.Files[i]
		if !bytes.Equal(content(t, plain, p.Name), content(t, zipped, z.Name)) {
			t.Fatalf("%s and %s differ after decompression", p.Name, z.Name)
		}
		if raw := zipped.Bytes(z.Name); int64(len(raw)) != z.CompressedBytes || z.Bytes != p.Bytes || z.SHA256 == p.SHA256 {
			t.Fatalf("%s: %d stored bytes, summary %+v", z.Name, len(raw), z)
		}
		if p.CompressedBytes != 0 {
			t.Fatalf("%s uncompressed but CompressedBytes = %d", p.Name, p.CompressedBytes)
		}
	}
}

// Same input and options, byte-identical output (docs/CONVENTIONS.md).
func TestDeterministic(t *testing.T) {
	var urls []*sitemap.URL
	for i := range 500 {
		urls = append(urls, heavy(i+1, i%5+1))
	}
	a, b := store.Memory(), store.Memory()
	o := Options{MaxURLs: 120, Gzip: true}
	run(t, a, o, urls)
	run(t, b, o, urls)
	la, lb := listed(t, a), listed(t, b)
	if !slices.Equal(la, lb) || len(la) != 6 {
		t.Fatalf("%v vs %v", la, lb)
	}
	for _, n := range la {
		if !bytes.Equal(a.Bytes(n), b.Bytes(n)) {
			t.Fatalf("%s differs between runs", n)
		}
	}
}

func TestIndexModes(t *testing.T) {
	st := store.Memory()
	run(t, st, Options{}, pages(2))
	before := st.Bytes("sitemap.xml")

	_, err := tryRun(st, Options{MaxURLs: 2, Index: IndexNever}, pages(3))
	if err == nil || !strings.Contains(err.Error(), "index mode is never") {
		t.Fatalf("never with 2 files: %v", err)
	}
	if !bytes.Equal(st.Bytes("sitemap.xml"), before) || st.Pending() != 0 {
		t.Fatal("failed run changed the published files or left files behind")
	}
	b, err := New(st, Options{MaxURLs: 2}) // no base URL
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var addErr error
	for _, u := range pages(3) {
		if addErr = b.Add(ctx, u); addErr != nil {
			break
		}
	}
	if addErr == nil || !strings.Contains(addErr.Error(), "base URL") {
		t.Fatalf("split without a base URL: %v", addErr)
	}
	if _, err := b.Commit(ctx); err == nil {
		t.Fatal("Commit after a fatal Add error succeeded")
	}
	if _, err := New(st, Options{Index: IndexAlways}); err == nil {
		t.Fatal("IndexAlways without a base URL accepted")
	}
	if _, err := tryRun(st, Options{}, nil); !errors.Is(err, ErrNoEntries) {
		t.Fatalf("empty run: %v", err)
	}
	if !bytes.Equal(st.Bytes("sitemap.xml"), before) || st.Pending() != 0 {
		t.Fatal("failed run changed the published files or left files behind")
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []Options{
		{Name: "a/b"}, {Name: ".x"}, {Name: "my sitemap"}, {Name: "ü"}, {BaseURL: "https://www.example.com/a b/"}, {GzipLevel: 10}, {MaxURLs: 50001}, {MaxBytes: sitemap.MaxBytes + 1},
		{MaxNews: 1001}, {BaseURL: "example.com"}, {BaseURL: "https://example.com/?q"}, {SiteURL: "ftp://x/"}, {Index: 7},
	} {
		if _, err := New(store.Memory(), o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

// Every file a run produces is valid against the XSDs (testdata/xsd): urlsets with
// all extensions against sitemap-all.xsd, the index against siteindex.xsd.
func TestXSD(t *testing.T) {
	xmllint.Require(t)
	var urls []*sitemap.URL
	pub := sitemap.Date{Time: time.Date(2026, 1, 2, 8, 0, 0, 0, time.UTC), Precision: sitemap.PrecisionSecond}
	for i := range 60 {
		u := page(i + 1)
		u.LastMod = sitemap.DayOf(time.Date(2025, 1, 1+i%28, 0, 0, 0, 0, time.UTC))
		switch i % 5 {
		case 1:
			u.Images = []sitemap.Image{{Loc: fmt.Sprintf("https://www.example.com/i/%d.jpg?a=1&b=2", i)}}
		case 2:
			u.Alternates = []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/" + fmt.Sprint(i)}, {Hreflang: "x-default", Href: u.Loc}}
		case 3:
			u.News = &sitemap.News{Publication: sitemap.Publication{Name: "The <Daily> & Co", Language: "en"}, PublicationDate: pub, Title: "Story"}
		case 4:
			u.Videos = []sitemap.Video{{ThumbnailLoc: "https://www.example.com/t.jpg", Title: "V", Description: "D", ContentLoc: "https://www.example.com/v.mp4"}}
		}
		urls = append(urls, u)
	}
	for _, o := range []Options{{MaxURLs: 7, Gzip: true}, {MaxBytes: 4000}, {}} {
		dir := t.TempDir()
		ds, _ := store.Dir(dir)
		sum := run(t, ds, o, urls)
		var files []string
		for _, f := range sum.Files {
			files = append(files, filepath.Join(dir, f.Name))
		}
		xmllint.ValidateFiles(t, xmllint.All, files...)
		if sum.Index != nil {
			xmllint.Validate(t, filepath.Join(dir, sum.Index.Name), xmllint.SiteIndex)
		}
	}
}

// validateAll checks every file of sum against the XSDs (testdata/xsd) with
// xmllint: urlsets against sitemap-all.xsd, the index against
// siteindex.xsd. Files are copied out of the memory store as stored
// (compressed ones stay compressed; xmllint reads gzip).
func validateAll(t *testing.T, st *store.MemStore, sum Summary) {
	t.Helper()
	xmllint.Require(t)
	dir := t.TempDir()
	var files []string
	for _, f := range sum.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, st.Bytes(f.Name), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	xmllint.ValidateFiles(t, xmllint.All, files...)
	if sum.Index != nil {
		p := filepath.Join(dir, sum.Index.Name)
		if err := os.WriteFile(p, st.Bytes(sum.Index.Name), 0o644); err != nil {
			t.Fatal(err)
		}
		xmllint.Validate(t, p, xmllint.SiteIndex)
	}
}

func TestWriteTable(t *testing.T) {
	st := store.Memory()
	urls := pages(5)
	urls[0].LastMod = sitemap.DayOf(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	sum := run(t, st, Options{MaxURLs: 3, Gzip: true, Now: now}, urls)
	var buf bytes.Buffer
	if err := sum.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "FILE  ") || !strings.HasPrefix(lines[3], "sitemap.xml (index)  ") {
		t.Fatalf("table layout:\n%s", out)
	}
	for _, l := range lines {
		if strings.TrimRight(l, " ") != l {
			t.Errorf("trailing blanks in %q", l)
		}
	}
	for _, want := range []string{"FILE", sum.Files[0].Name, "2026-11-02", "sitemap.xml (index)", "total", "5 URLs in 2 sitemaps and an index, 0 skipped, 1.00s (5 URLs/s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	js, err := json.Marshal(sum)
	if err != nil || !bytes.Contains(js, []byte(`"urls_per_second":5`)) {
		t.Fatalf("JSON %s, %v", js, err)
	}
}

func TestOwns(t *testing.T) {
	r, _ := Options{Name: "sitemap"}.resolve()
	for n, want := range map[string]bool{
		"sitemap.xml": true, "sitemap.xml.gz": true, "sitemap-1.xml": true, "sitemap-12.xml.gz": true, "sitemap.manifest.json": true,
		"sitemap-1-0123456789ab.xml": true, "sitemap-50000-0123456789ab.xml.gz": true,
		"sitemap-0.xml": false, "sitemap-01.xml": false, "sitemap-a.xml": false, "sitemap-.xml": false, "sitemap_news.xml": false,
		"sitemap-123456.xml": false, "sitemap-1-0123456789AB.xml": false, "sitemap-1-0123456789a.xml": false, "sitemap-1-2-0123456789ab.xml": false,
		"sitemap-extra.xml": false, "robots.txt": false, "sitemap.txt": false, "sitemap.publish-journal": false,
	} {
		if got := r.owns(n); got != want {
			t.Errorf("owns(%q) = %v", n, got)
		}
	}
}

// Bodies beyond the in-memory share go to a spill file; the output is the
// same byte for byte, and the spill files leave nothing in TempDir.
func TestSpill(t *testing.T) {
	ctx := context.Background()
	var urls []*sitemap.URL
	for i := range 400 {
		urls = append(urls, heavy(i+1, i%7))
	}
	o := Options{BaseURL: base, MaxURLs: 150, Gzip: true}
	want := store.Memory()
	run(t, want, o, urls)

	tmp := t.TempDir()
	got := store.Memory()
	o.TempDir = tmp
	b, err := New(got, o)
	if err != nil {
		t.Fatal(err)
	}
	b.memLimit = 1000
	for _, u := range urls {
		if err := b.Add(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Fatalf("spill files visible in TempDir: %v", ents)
	}
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	names := listed(t, want)
	if !slices.Equal(names, listed(t, got)) || len(names) != 4 {
		t.Fatalf("%v vs %v", names, listed(t, got))
	}
	for _, n := range names {
		if !bytes.Equal(want.Bytes(n), got.Bytes(n)) {
			t.Fatalf("%s differs when spilled", n)
		}
	}
}
