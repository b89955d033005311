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

func names(sum Summary) []string {
	var n []string
	for _, f := range sum.Files {
		n = append(n, f.Name)
	}
	if sum.Index != nil {
		n = append(n, sum.Index.Name+" (index)")
	}
	return n
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
			name := tc.o.Name
			if name == "" {
				name = "sitemap"
			}
			want = append(want, name+".manifest.json")
			slices.Sort(want)
			if got := listed(t, st); !slices.Equal(got, want) {
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
				}
			}
			if st.Pending() != 0 {
				t.Fatalf("%d files left unpublished", st.Pending())
			}
		})
	}
}

// S-01, S-07: split exactly at a lowered URL count; every URL lands once,
// in order.
func TestSplitURLCount(t *testing.T) {
	st := store.Memory()
	sum := run(t, st, Options{MaxURLs: 3}, pages(7))
	var all []string
	for i, want := range []int{3, 3, 1} {
		f := sum.Files[i]
		l := locs(t, content(t, st, f.Name))
		if len(l) != want || f.URLs != want {
			t.Fatalf("%s holds %d URLs (summary %d), want %d", f.Name, len(l), f.URLs, want)
		}
		all = append(all, l...)
	}
	for i, l := range all {
		if l != page(i+1).Loc {
			t.Fatalf("URL %d is %s", i, l)
		}
	}
	if sum.URLs != 7 || sum.Index.URLs != 3 {
		t.Fatalf("summary URLs %d, index entries %d", sum.URLs, sum.Index.URLs)
	}
}

// heavy returns an entry with n hreflang alternates (H-03).
func heavy(i, n int) *sitemap.URL {
	u := page(i)
	langs := []string{"en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv"}
	regions := []string{"", "-GB", "-US", "-DE", "-FR"}
	for k := range n {
		lang := langs[k%len(langs)] + regions[k/len(langs)%len(regions)]
		u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: lang, Href: fmt.Sprintf("https://www.example.com/%s/page/%d", lang, i)})
	}
	return u
}

// S-02, S-07, EX-05: the byte limit counts the declaration, the root tag
// with exactly the namespaces the file declares, and the closing tag. A
// file may land exactly on the limit; one byte less rolls the last entry
// over, and the first file then no longer declares the xhtml namespace
// only that entry needed.
func TestSplitBytesExact(t *testing.T) {
	urls := []*sitemap.URL{page(1), page(2), heavy(3, 20)}
	st := store.Memory()
	sum := run(t, st, Options{}, urls)
	exact := sum.Files[0].Bytes
	data := content(t, st, "sitemap.xml")
	if int64(len(data)) != exact {
		t.Fatalf("summary says %d bytes, file has %d", exact, len(data))
	}
	if !bytes.Contains(data, []byte(`xmlns:xhtml=`)) {
		t.Fatalf("file with hreflang does not declare xhtml (EX-05):\n%s", data)
	}

	// Exactly at the limit: one file of exactly MaxBytes bytes.
	st = store.Memory()
	sum = run(t, st, Options{MaxBytes: int(exact)}, urls)
	if len(sum.Files) != 1 || sum.Index != nil || int64(len(content(t, st, "sitemap.xml"))) != exact {
		t.Fatalf("at MaxBytes=%d: %v, want one file of exactly %d bytes", exact, names(sum), exact)
	}

	// One byte less: the heavy entry rolls over.
	st = store.Memory()
	sum = run(t, st, Options{MaxBytes: int(exact) - 1}, urls)
	if got := names(sum); len(got) != 3 {
		t.Fatalf("at MaxBytes=%d: %v, want two children and an index", exact-1, got)
	}
	first := content(t, st, "sitemap-1.xml")
	if n := len(locs(t, first)); n != 2 {
		t.Fatalf("first file holds %d URLs, want 2", n)
	}
	if bytes.Contains(first, []byte("xmlns:xhtml")) {
		t.Fatalf("first file declares xhtml without using it (EX-05):\n%s", first)
	}
	if second := content(t, st, "sitemap-2.xml"); !bytes.Contains(second, []byte("xmlns:xhtml")) {
		t.Fatalf("second file lacks the xhtml namespace:\n%s", second)
	}
	validateAll(t, st, sum)
}

// S-02, S-07 with many heavy entries: every file is at or under the limit
// and no file could have taken the next entry.
func TestSplitBytesHeavy(t *testing.T) {
	var urls []*sitemap.URL
	for i := range 300 {
		urls = append(urls, heavy(i+1, 1+i%40))
	}
	const limit = 20000
	st := store.Memory()
	sum := run(t, st, Options{MaxBytes: limit, Gzip: true}, urls)
	if len(sum.Files) < 10 {
		t.Fatalf("only %d files", len(sum.Files))
	}
	enc := sitemap.EncoderOptions{Extensions: allExt}
	next := 0
	for i, f := range sum.Files {
		data := content(t, st, f.Name)
		if int64(len(data)) != f.Bytes || len(data) > limit {
			t.Fatalf("%s: %d bytes (summary %d), limit %d", f.Name, len(data), f.Bytes, limit)
		}
		next += f.URLs
		if i == len(sum.Files)-1 {
			break
		}
		// The next entry would not have fitted.
		entry, err := enc.AppendURL(nil, urls[next])
		if err != nil {
			t.Fatal(err)
		}
		if len(data)+len(entry) <= limit {
			t.Fatalf("%s: %d bytes, yet the next %d-byte entry was rolled over", f.Name, len(data), len(entry))
		}
	}
	if next != len(urls) {
		t.Fatalf("%d URLs written, want %d", next, len(urls))
	}
	validateAll(t, st, sum)
}

// S-02: an entry too large for an empty file is skipped with an
// EntryError; the run goes on.
func TestEntryTooLarge(t *testing.T) {
	ctx := context.Background()
	b, err := New(store.Memory(), Options{BaseURL: base, MaxBytes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ctx, page(1)); err != nil {
		t.Fatal(err)
	}
	err = b.Add(ctx, heavy(2, 40))
	var ee *sitemap.EntryError
	if !errors.As(err, &ee) || ee.Rule != "S-02" {
		t.Fatalf("Add(huge) = %v, want an S-02 EntryError", err)
	}
	if err := b.Add(ctx, page(3)); err != nil {
		t.Fatal(err)
	}
	sum, err := b.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 2 || sum.Skipped != 1 || len(sum.Files) != 1 {
		t.Fatalf("URLs %d skipped %d files %d", sum.URLs, sum.Skipped, len(sum.Files))
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

// N-10: at most 1,000 news entries per file; plain entries do not count.
func TestNewsRollover(t *testing.T) {
	var urls []*sitemap.URL
	pub := sitemap.Date{Time: time.Date(2026, 1, 2, 8, 0, 0, 0, time.UTC), Precision: sitemap.PrecisionSecond}
	for i := range 2600 {
		u := page(i + 1)
		if i%13 != 0 {
			u.News = &sitemap.News{Publication: sitemap.Publication{Name: "The Daily", Language: "en"}, PublicationDate: pub, Title: fmt.Sprintf("Story %d", i)}
		}
		urls = append(urls, u)
	}
	st := store.Memory()
	sum := run(t, st, Options{}, urls)
	total := 0
	for i, f := range sum.Files {
		if f.News > 1000 {
			t.Fatalf("%s has %d news entries (N-10)", f.Name, f.News)
		}
		if i < len(sum.Files)-1 && f.News != 1000 {
			t.Fatalf("%s has %d news entries, want exactly 1000 before rolling over", f.Name, f.News)
		}
		if got := bytes.Count(content(t, st, f.Name), []byte("<news:news>")); got != f.News {
			t.Fatalf("%s: %d <news:news> in the file, summary says %d", f.Name, got, f.News)
		}
		total += f.URLs
	}
	if len(sum.Files) != 3 || total != 2600 {
		t.Fatalf("%d files, %d URLs", len(sum.Files), total)
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
	run(t, st, Options{MaxURLs: 2}, urls)
	one, two := content(t, st, "sitemap-1.xml"), content(t, st, "sitemap-2.xml")
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
	if !slices.Equal(la, lb) || len(la) != 7 {
		t.Fatalf("%v vs %v", la, lb)
	}
	for _, n := range la {
		if !bytes.Equal(a.Bytes(n), b.Bytes(n)) {
			t.Fatalf("%s differs between runs", n)
		}
	}
}

// A dry run writes nothing and reports what a real run writes.
func TestDryRun(t *testing.T) {
	urls := pages(25)
	st := store.Memory()
	dry := run(t, st, Options{MaxURLs: 10, Gzip: true, DryRun: true}, urls)
	if got := listed(t, st); len(got) != 0 {
		t.Fatalf("dry run wrote %v", got)
	}
	real := run(t, st, Options{MaxURLs: 10, Gzip: true}, urls)
	if !dry.DryRun || !slices.EqualFunc(dry.Files, real.Files, func(a, b FileSummary) bool { return a == b }) || *dry.Index != *real.Index {
		t.Fatalf("dry run %+v\nreal run %+v", dry, real)
	}
	// A dry run over a published set reports what would be removed.
	dry = run(t, st, Options{Gzip: true, DryRun: true}, pages(3))
	if !slices.Equal(dry.Removed, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap.xml"}) {
		t.Fatalf("dry run would remove %v", dry.Removed)
	}
	if len(listed(t, st)) != 5 {
		t.Fatalf("dry run changed the store: %v", listed(t, st))
	}
	if _, err := New(nil, Options{DryRun: true}); err != nil {
		t.Fatalf("dry run without a store: %v", err)
	}
}

// Files of a previous run that this run no longer writes are removed after
// the new index is in place; nothing else is touched.
func TestOrphans(t *testing.T) {
	st := store.Memory()
	f, _ := st.Create(context.Background(), "sitemap-extra.xml") // not ours: kept
	f.Commit()
	st.Publish(context.Background(), store.Publication{Journal: "j", Files: []store.File{f}})

	run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(7))
	want := []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap-4.xml.gz", "sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}
	if got := listed(t, st); !slices.Equal(got, want) {
		t.Fatalf("after run 1: %v", got)
	}
	sum := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(3))
	if !slices.Equal(sum.Removed, []string{"sitemap-3.xml.gz", "sitemap-4.xml.gz"}) {
		t.Fatalf("removed %v", sum.Removed)
	}
	want = []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}
	if got := listed(t, st); !slices.Equal(got, want) {
		t.Fatalf("after run 2: %v", got)
	}
	sum = run(t, st, Options{}, pages(3))
	if !slices.Equal(sum.Removed, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz"}) {
		t.Fatalf("removed %v", sum.Removed)
	}
	if got := listed(t, st); !slices.Equal(got, []string{"sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}) {
		t.Fatalf("after run 3: %v", got)
	}
	// A manifest naming files that are not ours never removes them.
	mf, _ := st.Create(context.Background(), "sitemap.manifest.json")
	mf.Write([]byte(`{"name":"sitemap","files":[{"name":"sitemap-extra.xml"},{"name":"robots.txt"}]}`))
	mf.Commit()
	st.Publish(context.Background(), store.Publication{Journal: "j", Files: []store.File{mf}})
	if sum = run(t, st, Options{}, pages(3)); len(sum.Removed) != 0 {
		t.Fatalf("removed %v from a foreign manifest", sum.Removed)
	}
}

func TestManifest(t *testing.T) {
	st := store.Memory()
	sum := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(3))
	var m Manifest
	if err := json.Unmarshal(st.Bytes("sitemap.manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 2 || m.Index == nil || m.Index.Name != "sitemap.xml" || m.Files[0].SHA256 != sum.Files[0].SHA256 || m.Files[0].SHA256 == "" {
		t.Fatalf("manifest %+v", m)
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

// S-03: more than 50,000 sitemaps is a clear error.
func TestTooManyFiles(t *testing.T) {
	b, err := New(nil, Options{BaseURL: base, MaxURLs: 1, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	b.parts = sitemap.MaxURLs // as if 50,000 files were written
	ctx := context.Background()
	b.Add(ctx, page(1))
	if err := b.Add(ctx, page(2)); err == nil || !strings.Contains(err.Error(), "S-03") {
		t.Fatalf("Add past 50,000 files: %v", err)
	}
	b.Abort()
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

// failStore fails Create of the nth file.
type failStore struct {
	store.Store
	n, calls int
}

func (f *failStore) Create(ctx context.Context, name string) (store.File, error) {
	if f.calls++; f.calls == f.n {
		return nil, errors.New("disk full")
	}
	return f.Store.Create(ctx, name)
}

// A run that fails part-way leaves the previous files as they were and no
// temporary files.
func TestFailureKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	ds, _ := store.Dir(dir)
	run(t, ds, Options{MaxURLs: 2, Gzip: true}, pages(5))
	before := snapshot(t, dir)
	for n := 1; n <= 5; n++ {
		fs := &failStore{Store: ds, n: n}
		if _, err := tryRun(fs, Options{MaxURLs: 3, Gzip: true}, pages(8)); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("failing Create %d: %v", n, err)
		}
		if after := snapshot(t, dir); !maps(before, after) {
			t.Fatalf("failing Create %d changed the directory: %v", n, keys(after))
		}
	}
}

// snapshot returns every entry of dir (hidden ones included) and its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
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
	for _, want := range []string{"FILE", "sitemap-1.xml.gz", "2026-11-02", "sitemap.xml (index)", "total", "5 URLs in 2 sitemaps and an index, 0 skipped, 1.00s (5 URLs/s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	js, err := json.Marshal(sum)
	if err != nil || !bytes.Contains(js, []byte(`"urls_per_second":5`)) {
		t.Fatalf("JSON %s, %v", js, err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 52428800: "50 MiB", 1536: "1.5 KiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOwns(t *testing.T) {
	r, _ := Options{Name: "sitemap"}.resolve()
	for n, want := range map[string]bool{
		"sitemap.xml": true, "sitemap.xml.gz": true, "sitemap-1.xml": true, "sitemap-12.xml.gz": true, "sitemap.manifest.json": true,
		"sitemap-0.xml": false, "sitemap-01.xml": false, "sitemap-a.xml": false, "sitemap-.xml": false, "sitemap_news.xml": false,
		"sitemap-extra.xml": false, "robots.txt": false, "sitemap.txt": false, "sitemap.publish-journal": false,
	} {
		if got := r.owns(n); got != want {
			t.Errorf("owns(%q) = %v", n, got)
		}
	}
}

// Two runs on the same names in one directory: the second fails at once
// (store.ErrLocked) instead of taking the first one's files for stale
// ones; after Commit the lock is free again.
func TestConcurrentRunsLocked(t *testing.T) {
	ctx := context.Background()
	ds, _ := store.Dir(t.TempDir())
	first, err := New(ds, Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(ds, Options{BaseURL: base}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second run: %v, want store.ErrLocked", err)
	}
	if _, err := New(ds, Options{BaseURL: base, DryRun: true}); err != nil {
		t.Fatalf("dry run while locked: %v", err)
	}
	if _, err := New(ds, Options{BaseURL: base, Name: "other"}); err != nil {
		t.Fatalf("run on other names: %v", err)
	}
	first.Add(ctx, page(1))
	if _, err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := New(ds, Options{BaseURL: base})
	if err != nil {
		t.Fatalf("after Commit: %v", err)
	}
	b.Abort()
	if b, err = New(ds, Options{BaseURL: base}); err != nil {
		t.Fatalf("after Abort: %v", err)
	}
	b.Abort()
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
	if !slices.Equal(names, listed(t, got)) || len(names) != 5 {
		t.Fatalf("%v vs %v", names, listed(t, got))
	}
	for _, n := range names {
		if !bytes.Equal(want.Bytes(n), got.Bytes(n)) {
			t.Fatalf("%s differs when spilled", n)
		}
	}
}

// recordStore records the publications it is asked for.
type recordStore struct {
	store.Store
	pubs []store.Publication
}

func (r *recordStore) Publish(ctx context.Context, p store.Publication) error {
	r.pubs = append(r.pubs, p)
	return r.Store.Publish(ctx, p)
}

// One publication per run: children in order, then the index (I-09: the
// index last, after every file it names), then the manifest; orphans are
// removed after that, under the journal NAME.publish-journal.
func TestPublishOrder(t *testing.T) {
	rs := &recordStore{Store: store.Memory()}
	run(t, rs, Options{MaxURLs: 2}, pages(5))
	run(t, rs, Options{MaxURLs: 2}, pages(3))
	if len(rs.pubs) != 2 {
		t.Fatalf("%d publications", len(rs.pubs))
	}
	var got []string
	for _, f := range rs.pubs[0].Files {
		got = append(got, f.Name())
	}
	if want := []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml", "sitemap.manifest.json"}; !slices.Equal(got, want) {
		t.Fatalf("publication order %v, want %v", got, want)
	}
	if p := rs.pubs[1]; p.Journal != "sitemap.publish-journal" || !slices.Equal(p.Remove, []string{"sitemap-3.xml"}) {
		t.Fatalf("second publication: journal %q, remove %v", p.Journal, p.Remove)
	}
}

// The real protocol limits (S-01, S-02, S-07), without lowering: 50,001
// URLs make a file of exactly 50,000 and one of 1; heavy entries past
// 52,428,800 bytes make a first file at most that large that could not
// take the next entry.
func TestProtocolLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	sum := run(t, nil, Options{DryRun: true}, pages(sitemap.MaxURLs+1))
	if len(sum.Files) != 2 || sum.Files[0].URLs != sitemap.MaxURLs || sum.Files[1].URLs != 1 {
		t.Fatalf("50,001 URLs: %+v", sum.Files)
	}

	u := heavy(1, 40)
	entry, err := sitemap.EncoderOptions{Extensions: allExt}.AppendURL(nil, u)
	if err != nil {
		t.Fatal(err)
	}
	n := sitemap.MaxBytes/len(entry) + 10
	urls := make([]*sitemap.URL, n)
	for i := range urls {
		urls[i] = u // the same entry: every one encodes to len(entry) bytes
	}
	sum = run(t, nil, Options{DryRun: true}, urls)
	if len(sum.Files) != 2 {
		t.Fatalf("%d files", len(sum.Files))
	}
	f := sum.Files[0]
	if f.Bytes > sitemap.MaxBytes || f.Bytes+int64(len(entry)) <= sitemap.MaxBytes {
		t.Fatalf("first file %d bytes with %d-byte entries: not a tight split at %d", f.Bytes, len(entry), sitemap.MaxBytes)
	}
}

// writeFailStore fails every Write to files whose name has suffix.
type writeFailStore struct {
	store.Store
	suffix string
}

func (f *writeFailStore) Create(ctx context.Context, name string) (store.File, error) {
	sf, err := f.Store.Create(ctx, name)
	if err != nil || !strings.HasSuffix(name, f.suffix) {
		return sf, err
	}
	return writeFailFile{sf}, nil
}

type writeFailFile struct{ store.File }

func (writeFailFile) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A manifest that cannot be written fails the run at once, naming the
// manifest, and publishes nothing (the write error used to be dropped and
// surfaced later as "file not committed").
func TestManifestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	ds, _ := store.Dir(dir)
	run(t, ds, Options{MaxURLs: 2}, pages(5))
	before := snapshot(t, dir)
	_, err := tryRun(&writeFailStore{Store: ds, suffix: ".manifest.json"}, Options{MaxURLs: 3}, pages(8))
	if err == nil || !strings.Contains(err.Error(), "writing manifest: no space left on device") {
		t.Fatalf("got %v, want the manifest's write error", err)
	}
	if after := snapshot(t, dir); !maps(before, after) {
		t.Fatalf("a failed manifest write changed the directory: %v", keys(after))
	}
}
