package build

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// A store.Writer takes one file, and its bytes reach the writer as they
// are written: a run whose entries need an index fails before it writes
// anything there (a first sitemap followed by an error used to go to the
// writer, 2.5 MB of it for 50,001 URLs), saying the store takes one file,
// and IndexAlways is refused by New.
func TestWriterStoreOneFile(t *testing.T) {
	var out bytes.Buffer
	_, err := tryRun(store.Writer(&out), Options{MaxURLs: 3}, pages(7))
	var need *NeedIndexError
	if !errors.As(err, &need) || need.Sitemaps != 3 || need.URLs != 7 || !need.OneFile {
		t.Fatalf("auto, 7 URLs of 3 a file into a writer: %v (%+v)", err, need)
	}
	if msg := err.Error(); !strings.Contains(msg, "store.Writer") || strings.Contains(msg, "index mode auto") {
		t.Errorf("message does not say the store takes one file: %s", msg)
	}
	if out.Len() != 0 {
		t.Errorf("the writer got %d bytes of a run that failed:\n%.300s", out.Len(), out.String())
	}

	if _, err := New(store.Writer(&out), Options{BaseURL: base, Index: IndexAlways}); err == nil || !strings.Contains(err.Error(), "store.Writer") {
		t.Errorf("IndexAlways into a writer: %v", err)
	}

	// What fits one sitemap is that sitemap, under IndexAuto as before.
	sum := run(t, store.Writer(&out), Options{MaxURLs: 3}, pages(3))
	if sum.Index != nil || len(sum.Files) != 1 || strings.Count(out.String(), "<loc>") != 3 {
		t.Errorf("3 URLs into a writer: files %v, output:\n%s", names(sum), out.String())
	}
	// A dry run writes nothing, so the mode is what it was asked for.
	if _, err := New(store.Writer(&out), Options{BaseURL: base, Index: IndexAlways, DryRun: true}); err != nil {
		t.Errorf("dry run: %v", err)
	}
}
