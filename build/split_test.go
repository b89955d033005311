package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

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
	first := content(t, st, child(t, sum, 1))
	if n := len(locs(t, first)); n != 2 {
		t.Fatalf("first file holds %d URLs, want 2", n)
	}
	if bytes.Contains(first, []byte("xmlns:xhtml")) {
		t.Fatalf("first file declares xhtml without using it (EX-05):\n%s", first)
	}
	if second := content(t, st, child(t, sum, 2)); !bytes.Contains(second, []byte("xmlns:xhtml")) {
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
