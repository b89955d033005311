package generate

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// XSL into a store.Writer, which takes one file, is refused before
// anything is written: the stylesheet used to go to the writer, followed
// by an error for the sitemap. With entries that need an index the writer
// gets nothing either (build treats IndexAuto as IndexNever there).
func TestRunWriterStore(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	_, err := Run(ctx, text(base+"a"), Options{Out: store.Writer(&out), XSL: true})
	var se *StageError
	if !errors.As(err, &se) || se.Stage != StageOpen || !strings.Contains(err.Error(), "store.Writer") {
		t.Errorf("XSL into a writer: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("the writer got %d bytes:\n%.200s", out.Len(), out.String())
	}

	o := Options{Out: store.Writer(&out), Build: build.Options{BaseURL: base, MaxURLs: 1}}
	_, err = Run(ctx, text(base+"a", base+"b"), o)
	var need *build.NeedIndexError
	if !errors.As(err, &need) || need.Sitemaps != 2 || out.Len() != 0 {
		t.Errorf("two sitemaps into a writer: %v, %d bytes written", err, out.Len())
	}

	// A dry run writes nothing: XSL is allowed.
	if _, err := Run(ctx, text(base+"a"), Options{Out: store.Writer(&out), XSL: true, Build: build.Options{DryRun: true}}); err != nil {
		t.Errorf("dry run: %v", err)
	}
}

// A nil Source is an error of Run, not a panic in its reading goroutine
// (which no caller can recover).
func TestRunNilSource(t *testing.T) {
	if _, err := Run(context.Background(), nil, opts(store.Memory(), nil)); err == nil || !strings.Contains(err.Error(), "nil Source") {
		t.Errorf("nil source: %v", err)
	}
}

// A nil stream given to Entries or Concat, or a nil entry from a stream,
// is an error of Run, not a panic in its reading goroutine.
func TestRunNilStreams(t *testing.T) {
	ctx := context.Background()
	nilEntry := func(ctx context.Context, y func(*sitemap.URL) error) error { return y(nil) }
	for i, src := range []Source{Entries(nil), Entries(nilEntry), Concat(text(base+"a"), nil)} {
		if _, err := Run(ctx, src, opts(store.Memory(), nil)); err == nil || !strings.Contains(err.Error(), "nil") {
			t.Errorf("case %d: %v", i, err)
		}
	}
}
