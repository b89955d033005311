package graph

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/xmllint"
	"github.com/sitemapkit/sitemap/state"
)

const ex = "https://www.example.com"

// plantedCrawl records a finished crawl of a small site: the start page
// links to blog/, blog/a and docs/x; blog/ links to blog/a; docs/x links
// to docs/y, a page the sitemap below lacks (the planted missing page);
// blog/orphan came from a seed sitemap and nothing links to it (the
// planted orphan); old answered 404; draft is noindex; private/x, linked
// from the start page, is disallowed by robots.txt; blog/ links to
// shop/x, outside the crawl's scope (neither is fetched).
func plantedCrawl(t testing.TB) state.CrawlLog {
	return plantedCrawlIn(t, filepath.Join(t.TempDir(), "crawl.db"))
}

// plantedCrawlIn is plantedCrawl in the SQLite file path.
func plantedCrawlIn(t testing.TB, path string) state.CrawlLog {
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	log := st.Crawl()
	if _, err := log.Begin(ctx, ex+"/", time.Now()); err != nil {
		t.Fatal(err)
	}
	type page struct {
		loc, ref, title string
		depth, status   int
		reason          string
		links           []string
	}
	pages := []page{
		{loc: "/", title: "Home", status: 200, links: []string{"/blog/", "/blog/a", "/docs/x", "/old", "/draft", "/private/x"}},
		{loc: "/blog/", ref: "/", depth: 1, title: "Blog", status: 200, links: []string{"/blog/a", "/shop/x"}},
		{loc: "/blog/a", ref: "/", depth: 1, title: "Post A", status: 200},
		{loc: "/docs/x", ref: "/", depth: 1, title: "Doc X", status: 200, links: []string{"/docs/y"}},
		{loc: "/docs/y", ref: "/docs/x", depth: 2, title: "Doc Y", status: 200},
		{loc: "/blog/orphan", ref: "/sitemap.xml", depth: 0, title: "Lonely post", status: 200},
		{loc: "/old", ref: "/", depth: 1, status: 404, reason: "status:404"},
		{loc: "/draft", ref: "/", depth: 1, title: "Draft", status: 200, reason: "noindex"},
		{loc: "/private/x", ref: "/", depth: 1, reason: "robots"},
		{loc: "/shop/x", ref: "/blog/", depth: 2, reason: "scope"},
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for _, p := range pages {
			ref := ""
			if p.ref != "" {
				ref = ex + p.ref
			}
			if err := tx.Enqueue(ctx, state.CrawlLink{Loc: ex + p.loc, Depth: p.depth, Referrer: ref}); err != nil {
				return err
			}
		}
		for _, p := range pages {
			r := state.CrawlResult{Loc: ex + p.loc, Status: p.status, Title: p.title, Reason: p.reason}
			if p.reason == "" {
				r.Entry = &sitemap.URL{Loc: ex + p.loc}
			}
			if err := tx.Record(ctx, r); err != nil {
				return err
			}
			for _, l := range p.links {
				if err := tx.Link(ctx, state.CrawlEdge{From: ex + p.loc, To: ex + l, Kind: state.LinkFollow}); err != nil {
					return err
				}
			}
		}
		return tx.Finish(ctx, "")
	})
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// plantedSitemap is the site's sitemap: it lacks docs/y and lists
// gone/page, which the crawl never reached.
func plantedSitemap() sitemap.Entries {
	var urls []sitemap.URL
	for _, p := range []string{"/", "/blog/", "/blog/a", "/blog/orphan", "/docs/x", "/gone/page"} {
		urls = append(urls, sitemap.URL{Loc: ex + p})
	}
	return entries(urls...)
}

func marks(n *Node) string {
	var s []string
	Walk(n, func(m *Node) {
		for _, k := range m.Marks {
			s = append(s, strings.TrimPrefix(k.Loc, ex)+"="+k.Kind)
		}
	})
	return strings.Join(s, " ")
}

func TestLinksMarksOrphansAndMissing(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lt.Start != ex+"/" {
		t.Errorf("start %q", lt.Start)
	}
	if got := marks(lt.Root); got != "/draft=left /old=left /blog/orphan=orphan /docs/y=missing /gone/page=orphan /private/x=left" {
		t.Errorf("marks: %s", got)
	}
	l := lt.Root.Link
	if l == nil || l.Orphans != 2 || l.Missing != 1 || l.Left != 3 || l.Depth != 0 {
		t.Fatalf("root link stats %+v", l)
	}
	blog := find(lt.Root, ex+"/blog/")
	if blog.Link.Inlinks != 3 || blog.Link.Depth != 1 || blog.Total.Pages != 3 {
		t.Errorf("blog/: %+v, %d pages", blog.Link, blog.Total.Pages)
	}
	if blog.Pages[1].Title != "Post A" {
		t.Errorf("title of blog/a: %q", blog.Pages[1].Title)
	}
	// docs/y is drawn in docs/ but not counted among the sitemap's pages.
	if docs := find(lt.Root, ex+"/docs/"); docs.Total.Pages != 1 || docs.Link.Missing != 1 {
		t.Errorf("docs/: %d pages, %+v", docs.Total.Pages, docs.Link)
	}
	var edges []string
	for _, e := range lt.Edges {
		edges = append(edges, strings.TrimPrefix(e.From.Path, ex)+">"+strings.TrimPrefix(e.To.Path, ex)+"="+itoa(e.Links))
	}
	// Root (/) -> blog/ twice (blog/, blog/a), -> docs/ once, -> / twice
	// (old, draft), -> private/ once (drawn for its page left out);
	// blog/ -> blog/ once; docs/ -> docs/ once. The link to shop/x, a
	// URL of no section, counts nowhere (not as blog/ -> /).
	if got := strings.Join(edges, " "); got != "/>/=2 />/blog/=2 />/docs/=1 />/private/=1 /blog/>/blog/=1 /docs/>/docs/=1" {
		t.Errorf("edges: %s", got)
	}
}

func TestLinksCountsFlaggedPagesPastMaxPages(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{MaxPages: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The root's own: draft and old left out, one kept to list.
	if len(lt.Root.Marks) != 1 || lt.Root.Flagged != 2 {
		t.Errorf("root: %d marks kept, %d flagged; want 1 and 2", len(lt.Root.Marks), lt.Root.Flagged)
	}
	var b bytes.Buffer
	if err := lt.JSON(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n  \"flagged\": 2,\n") {
		t.Errorf("the JSON does not say the root has 2 flagged pages:\n%s", b.String())
	}
}

func TestLinksWithoutSitemapUsesTheCrawlsOwn(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The crawl listed docs/y itself, so nothing is missing; blog/orphan
	// is still linked from nowhere.
	if got := marks(lt.Root); got != "/draft=left /old=left /blog/orphan=orphan /private/x=left" {
		t.Errorf("marks: %s", got)
	}
	if lt.Root.Total.Pages != 6 {
		t.Errorf("%d pages, want the 6 the crawl listed", lt.Root.Total.Pages)
	}
}

func itoa(n int) string { return progress.Group(int64(n)) }

func TestLinksJSONGolden(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lt.JSON(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "links.json", b.Bytes())
}

func TestLinksDOTGolden(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lt.DOT(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "links.dot", b.Bytes())
}

func TestLinksSVG(t *testing.T) {
	xmllint.Require(t)
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lt.SVG(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "links.svg")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("xmllint", "--noout", p).CombinedOutput(); err != nil {
		t.Fatalf("xmllint --noout: %v\n%s", err, out)
	}
	svg := b.String()
	for _, want := range []string{
		`<title id="title">Links of https://www.example.com</title>`,
		`<desc id="desc">6 sitemap URLs in 5 sections; 8 internal links; 2 orphans, 1 page missing from the sitemap, 3 pages left out</desc>`,
		`<title>https://www.example.com/ → https://www.example.com/blog/: 2 links</title>`,
		`<g class="flag"><title>https://www.example.com/blog/: 3 pages; 3 inlinks, click depth 1, 1 orphan, 0 missing, 0 left out</title>`,
		`<g><title>https://www.example.com/private/: 0 pages; 0 inlinks, 0 orphans, 0 missing, 1 left out</title>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the link SVG lacks %s", want)
		}
	}
	if n := strings.Count(svg, `<path class="k"`); n != 3 {
		t.Errorf("%d link arcs, want 3 (/ to blog/, docs/ and private/)", n)
	}
	if n := strings.Count(svg, `<g class="flag">`); n != 4 {
		t.Errorf("%d sections ringed, want 4 (the root, blog/, docs/, gone/)", n)
	}
}

func TestLinksArcsCapped(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lt.SVG(context.Background(), &b, DrawOptions{MaxLinks: 1}); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if n := strings.Count(svg, `<path class="k"`); n != 1 || !strings.Contains(svg, "(the 1 heaviest links between sections drawn, 2 more left out)</desc>") ||
		!strings.Contains(svg, "https://www.example.com/ → https://www.example.com/blog/: 2 links") {
		t.Errorf("SVG with MaxLinks 1: %d arcs\n%s", n, svg)
	}
	b.Reset()
	if err := lt.DOT(context.Background(), &b, DrawOptions{MaxLinks: 1}); err != nil {
		t.Fatal(err)
	}
	dot := b.String()
	if n := strings.Count(dot, "style=dashed"); n != 1 || !strings.Contains(dot, "// the 1 heaviest links between sections; 2 more left out") {
		t.Errorf("DOT with MaxLinks 1: %d links\n%s", n, dot)
	}
}

// TestLinkTreeWarnings: a sitemap of another host than the crawl's is
// said (every URL drawn as an orphan), a sitemap of the site crawled is
// not, nor is a finished crawl.
func TestLinkTreeWarnings(t *testing.T) {
	ctx := context.Background()
	log := plantedCrawl(t)
	for _, tc := range []struct {
		name   string
		listed sitemap.Entries
		want   string
	}{
		{"same site", plantedSitemap(), ""},
		{"other host", entries(sitemap.URL{Loc: "https://other.example.net/a"}, sitemap.URL{Loc: "https://other.example.net/b"}),
			"the crawl of " + ex + "/ reached none of the 2 URLs of other.xml: every one is drawn as an orphan"},
	} {
		lt, err := Links(ctx, log, tc.listed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(lt.Warnings(ctx, log, "crawl.db", []string{"other.xml"}), "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.want)
		}
	}
}
