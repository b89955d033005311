package crawl

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/state"
)

// TestLinkGraph checks the link graph the crawl records on the synthetic
// site: every kind of edge, inlink counts (links and redirects count;
// canonical and hreflang annotations and sitemaps do not) and titles.
func TestLinkGraph(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	c, st := crawled(t, site.URL+"/")
	rel := func(s string) string { return strings.TrimPrefix(s, site.URL) }

	edges := map[string]bool{}
	var prev state.CrawlEdge
	n := 0
	if err := c.Links(ctx, func(e state.CrawlEdge) error {
		if n > 0 && !(prev.From < e.From || prev.From == e.From && (prev.To < e.To || prev.To == e.To && prev.Kind < e.Kind)) {
			t.Errorf("links out of order: %v then %v", prev, e)
		}
		if e.From == e.To {
			t.Errorf("self link kept: %v", e)
		}
		k := rel(e.From) + " " + e.Kind.String() + " " + rel(e.To)
		if edges[k] {
			t.Errorf("link recorded twice: %s", k)
		}
		edges[k] = true
		prev, n = e, n+1
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/ link /a",
		"/ link /b",
		"/ nofollow /hidden",
		"/ link https://other.example/x",
		"/old redirect /older",
		"/older redirect /new",
		"/dup canonical /canon-target",
		"/hdr-canon canonical /a",
		"/en/page alternate /de/page",
		"/en/page link /de/page",
		"/meta-nofollow nofollow /behind-nofollow",
		"/a link /",
	} {
		if !edges[want] {
			t.Errorf("missing link %q", want)
		}
	}
	for _, not := range []string{"/ link /", "/a link /a", "/en/page alternate /en/page"} {
		if edges[not] {
			t.Errorf("unexpected link %q", not)
		}
	}

	out := map[string]Outcome{}
	if err := c.Outcomes(ctx, func(o Outcome) error { out[rel(o.URL)] = o; return nil }); err != nil {
		t.Fatal(err)
	}
	for loc, want := range map[string]int{
		"/":             5, // /a, /b, /new, /canon-target, /from-sitemap
		"/a":            1, // from /; /hdr-canon's canonical does not count
		"/new":          1, // the redirect of /older
		"/canon-target": 0, // named only as a canonical
		"/from-sitemap": 0, // listed only in the sitemap: an orphan
		"/hidden":       1, // a nofollow link is still a link
	} {
		if got := out[loc].Inlinks; got != want {
			t.Errorf("%s: inlinks %d, want %d", loc, got, want)
		}
	}
	for loc, want := range map[string]int{
		"/":             0,
		"/a":            1,
		"/new":          3, // / -> /old -> /older -> /new
		"/via-noindex":  2, // through a noindex page, still a link
		"/canon-target": -1,
		"/from-sitemap": -1,
	} {
		if got := out[loc].Clicks; got != want {
			t.Errorf("%s: clicks %d, want %d", loc, got, want)
		}
	}
	if got := out["/a"].Title; got != "/a" {
		t.Errorf("/a: title %q, want %q", got, "/a")
	}
	if got := out["/file.pdf"].Title; got != "" {
		t.Errorf("/file.pdf: title %q, want none", got)
	}

	// The same read from the state file alone, without a crawl (what
	// `sitemap graph --state` does), through the listed pages.
	rows, err := st.Crawl().Listed(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		if rel(r.Loc) == "/from-sitemap" {
			found = true
			if r.Inlinks != 0 || r.Title != "/from-sitemap" || r.Depth != 0 || r.Clicks != -1 {
				t.Errorf("/from-sitemap listed as %+v", r)
			}
		}
	}
	if !found {
		t.Error("/from-sitemap not listed")
	}
}

func TestCleanTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  Hello \n\t world  ":         "Hello world",
		"a\x00b\x1bc\u2028d":           "abc d",
		"":                             "",
		" \n ":                         "",
		"bad \xff byte":                "bad \ufffd byte",
		strings.Repeat("é", 300):       strings.Repeat("é", 256),
		strings.Repeat("x", 600):       strings.Repeat("x", 512),
		"x" + strings.Repeat("€", 200): "x" + strings.Repeat("€", 170),
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
