package diff

import (
	"context"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// A name in Options.Ignore that is not a field is an error before either
// side is read, as `sitemap diff --ignore` says: a typo ("lastmdo") was
// ignored in silence and every lastmod change still reported.
func TestIgnoreUnknownField(t *testing.T) {
	read := false
	side := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		read = true
		return nil
	}
	_, err := Diff(context.Background(), side, side, Options{Ignore: []string{"lastmod", "lastmdo"}}, func(Change) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `"lastmdo"`) || !strings.Contains(err.Error(), "content_hash") {
		t.Errorf("Ignore lastmdo: %v", err)
	}
	if read {
		t.Error("a side was read before the options were checked")
	}
	// Every field of Fields is accepted.
	if _, err := Diff(context.Background(), side, side, Options{Ignore: Fields}, func(Change) error { return nil }); err != nil {
		t.Errorf("Ignore Fields: %v", err)
	}
}

// A nil side, a nil emit or a nil entry from a side is an error, not a
// panic.
func TestDiffNilArguments(t *testing.T) {
	ctx := context.Background()
	nilEntry := func(ctx context.Context, yield func(*sitemap.URL) error) error { return yield(nil) }
	emit := func(Change) error { return nil }
	for i, c := range []struct {
		old, new Entries
		emit     func(Change) error
	}{{nilEntry, nilEntry, emit}, {nil, nilEntry, emit}, {nilEntry, nil, emit}, {nilEntry, nilEntry, nil}} {
		if _, err := Diff(ctx, c.old, c.new, Options{}, c.emit); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
}
