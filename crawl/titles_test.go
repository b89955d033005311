package crawl

import (
	"context"
	"strings"
	"testing"
)

// Titles finds the title of every page the crawl fetched, and "" for a
// URL it did not see, one that sorts just before or after a crawled one
// included.
func TestTitles(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	c, st := crawled(t, site.URL+"/")
	title := Titles(st.Crawl())
	n := 0
	c.Outcomes(ctx, func(o Outcome) error {
		got, err := title(ctx, o.URL)
		if err != nil || got != o.Title {
			t.Errorf("%s: %q, %v; want %q", o.URL, got, err, o.Title)
		}
		if o.Title != "" {
			n++
		}
		for _, near := range []string{o.URL + "x", strings.TrimSuffix(o.URL, o.URL[len(o.URL)-1:])} {
			if got, _ := title(ctx, near); got != "" && near != o.URL {
				// near may be a crawled URL of its own
				var found bool
				c.Outcomes(ctx, func(p Outcome) error { found = found || p.URL == near; return nil })
				if !found {
					t.Errorf("%s (not crawled): %q", near, got)
				}
			}
		}
		return nil
	})
	if n == 0 {
		t.Fatal("no page has a title: the test site changed")
	}
	if got, err := title(ctx, ""); got != "" || err != nil {
		t.Errorf("empty URL: %q, %v", got, err)
	}
}
