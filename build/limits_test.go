package build

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

// The summary line counts in English: "1 URL", not "1 URLs".
func TestWriteTableSingular(t *testing.T) {
	for _, tc := range []struct {
		sum  Summary
		want string
	}{
		{Summary{URLs: 1, Files: []FileSummary{{Name: "sitemap.xml", URLs: 1}}}, "1 URL in 1 sitemap, 0 skipped"},
		{Summary{URLs: 2, Skipped: 1, Files: []FileSummary{{Name: "sitemap.xml", URLs: 2}}}, "2 URLs in 1 sitemap, 1 skipped"},
		{Summary{URLs: 1234, Files: []FileSummary{{Name: "sitemap.xml", URLs: 1234}}}, "1,234 URLs in 1 sitemap"},
	} {
		var buf bytes.Buffer
		if err := tc.sum.WriteTable(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("table lacks %q:\n%s", tc.want, buf.String())
		}
	}
}

// Options.MaxBytes lowers the limit of the sitemaps (S-02); the index has
// its own limit, S-03's 50 MiB, and a small per-sitemap limit must not make
// the index fail.
func TestSmallMaxBytesIndex(t *testing.T) {
	st := store.Memory()
	sum := run(t, st, Options{MaxBytes: 300}, pages(40))
	if sum.Index == nil || len(sum.Files) < 10 {
		t.Fatalf("files %v", names(sum))
	}
	if sum.Index.Bytes <= 300 {
		t.Fatalf("index is %d bytes; the test needs one over the per-sitemap limit", sum.Index.Bytes)
	}
	for _, f := range sum.Files {
		if f.Bytes > 300 {
			t.Errorf("%s is %d bytes, over MaxBytes 300 (S-02)", f.Name, f.Bytes)
		}
	}
}

// An entry too large for an empty sitemap (S-02) says how large the
// smallest file holding it would be and which limit to raise.
func TestEntryTooLargeMessage(t *testing.T) {
	ctx := context.Background()
	b, err := New(store.Memory(), Options{BaseURL: base, MaxBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	err = b.Add(ctx, page(1))
	var ee *sitemap.EntryError
	if !errors.As(err, &ee) || ee.Rule != "S-02" {
		t.Fatalf("Add = %v, want an S-02 EntryError", err)
	}
	for _, want := range []string{"header and closing tag", "at most 100 bytes", "raise the byte limit"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
