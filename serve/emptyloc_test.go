package serve

import (
	"context"
	"iter"
	"strings"
	"sync"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestEmptyLocLeftOut: an entry with an empty loc (a NULL or an empty string in the
// loc column) is left out of its page and told to Options.Skipped; it
// was resolved against the base URL into the home page, listed once per
// such row with that row's lastmod.
func TestEmptyLocLeftOut(t *testing.T) {
	seq := iter.Seq2[*sitemap.URL, error](func(yield func(*sitemap.URL, error) bool) {
		for _, u := range []sitemap.URL{
			{Loc: "", LastMod: sitemap.Date{}},
			{Loc: "/a"},
			{Loc: "https://www.example.com/b"},
		} {
			if !yield(&u, nil) {
				return
			}
		}
	})
	var mu sync.Mutex
	var skipped []string
	for _, base := range []string{"https://www.example.com/", ""} {
		skipped = nil
		h, err := NewHandler(Seq(seq, func(context.Context) (string, error) { return "1", nil }), Options{BaseURL: base, Hosts: []string{"www.example.com"}, Skipped: func(loc string, err error) {
			mu.Lock()
			skipped = append(skipped, loc)
			mu.Unlock()
		}})
		if err != nil {
			t.Fatal(err)
		}
		doc := body(t, get(t, h, "GET", "/sitemap-1.xml"))
		if strings.Count(doc, "<url>") != 2 || strings.Contains(doc, "<loc>https://www.example.com/</loc>") {
			t.Errorf("base %q: page lists the empty loc as the home page, or lacks an entry:\n%s", base, doc)
		}
		if len(skipped) != 1 || skipped[0] != "" {
			t.Errorf("base %q: Skipped told %q; want the one empty loc", base, skipped)
		}
	}
}
