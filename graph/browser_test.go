package graph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// labels returns the names of the sections drawn, in order.
func labels(tab *browsertest.Tab) string {
	return browsertest.Eval[string](tab, `[...document.querySelectorAll("#nodes g.node tspan.l")].map(t => t.textContent).join(" ")`)
}

func TestHTMLMapInBrowser(t *testing.T) {
	var b bytes.Buffer
	if err := siteTree(t).HTML(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("http://")) && !bytes.Contains(b.Bytes(), []byte("http://www.w3.org/2000/svg")) {
		t.Error("the map refers to an http:// resource")
	}
	tab := browsertest.New(t)
	tab.LoadFile(writeFile(t, "map.html", b.Bytes()))
	tab.WaitVisible(`body[data-ready="1"]`)
	tab.NoErrors()

	// The sections and their counts: a small site shows whole.
	if got := labels(tab); got != "https://www.example.com blog/ 2025/ 2026/ de/ shop/ café/" {
		t.Errorf("sections drawn: %q", got)
	}
	if got := tab.Text(`g.node[data-id="1"] tspan.c`); got != "4" {
		t.Errorf("blog/ shows %q pages, want 4", got)
	}
	if got := tab.Text("#summary"); got != "9 URLs in 7 sections" {
		t.Errorf("summary %q", got)
	}

	// Search narrows the view to the matches and the sections above them,
	// and highlights the matches.
	tab.Type("#q", "new-post")
	tab.WaitVisible("g.node.hit")
	if got := labels(tab); got != "https://www.example.com blog/ 2026/" {
		t.Errorf("after searching new-post: %q", got)
	}
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("g.node.hit tspan.l")].map(t => t.textContent).join(" ")`); got != "2026/" {
		t.Errorf("highlighted: %q", got)
	}
	if got := tab.Text("#hits"); got != "1 section" {
		t.Errorf("hits %q", got)
	}
	// A click on the match lists its pages, the matching text marked.
	tab.Click(`g.node[data-id="3"] text`)
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("#pbody mark")].map(m => m.textContent).join(" ")`); got != "new-post" {
		t.Errorf("marked in the pages of 2026/: %q", got)
	}
	tab.Screenshot("search")
	browsertest.Eval[bool](tab, `(() => { const q = document.getElementById("q"); q.value = ""; q.dispatchEvent(new Event("input")); return true; })()`)
	tab.WaitVisible(`g.node[data-id="6"]`)

	// Collapse all, then a click on blog/ opens it and lists its pages.
	tab.Click("#collapse")
	if got := labels(tab); got != "https://www.example.com blog/ de/ shop/" {
		t.Errorf("collapsed: %q", got)
	}
	tab.Click(`g.node[data-id="1"] circle`)
	if got := labels(tab); got != "https://www.example.com blog/ 2025/ 2026/ de/ shop/" {
		t.Errorf("after a click on blog/: %q", got)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector('g.node[data-id="1"]').getAttribute("aria-expanded")`); got != "true" {
		t.Errorf("blog/ aria-expanded=%q", got)
	}
	if got := tab.Text("#ptitle"); got != "https://www.example.com/blog/" {
		t.Errorf("panel title %q", got)
	}
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("#pbody ul.pages a")].map(a => a.href).join(" ")`); got != "https://www.example.com/blog/" {
		t.Errorf("pages listed: %q", got)
	}

	// Zoom changes the scale; the page is accessible.
	before := browsertest.Eval[float64](tab, `sitemapMap.view.k`)
	tab.Click("#zoomin")
	if after := browsertest.Eval[float64](tab, `sitemapMap.view.k`); after <= before {
		t.Errorf("zoom in: scale %v -> %v", before, after)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("the map:\n%s", strings.Join(v, "\n"))
	}
	tab.Click("#fit")
	tab.Screenshot("map")
	tab.NoErrors()
}

func TestLinkViewInBrowser(t *testing.T) {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lt.HTML(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	tab := browsertest.New(t)
	tab.LoadFile(writeFile(t, "links.html", b.Bytes()))
	tab.WaitVisible(`body[data-ready="1"]`)
	if got := tab.Text("#summary"); got != "6 sitemap URLs in 5 sections; 8 internal links; 2 orphans, 1 page missing from the sitemap, 3 pages left out" {
		t.Errorf("summary %q", got)
	}
	// Links between sections are drawn (self-links of a section are not).
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("#links path.k").length`); n != 3 {
		t.Errorf("%d link arcs, want 3 (/ to blog/, docs/ and private/)", n)
	}
	flagged := browsertest.Eval[string](tab, `[...document.querySelectorAll("g.node.flag tspan.l")].map(t => t.textContent).join(" ")`)
	if flagged != "https://www.example.com blog/ docs/ gone/" {
		t.Errorf("sections ringed: %q", flagged)
	}
	// The planted orphan, in blog/.
	id := browsertest.Eval[int](tab, `+[...document.querySelectorAll("g.node")].find(g => g.querySelector("tspan.l").textContent === "blog/").dataset.id`)
	tab.Click(`g.node[data-id="` + itoa(id) + `"] text`)
	if got := tab.Text("#pbody ul.flagged"); got != "Lonely post orphan: no page links here" {
		t.Errorf("blog/'s flagged pages: %q", got)
	}
	if got := tab.Text("#pbody p.meta"); !strings.Contains(got, "3 internal links in · click depth 1 · 1 orphan") {
		t.Errorf("blog/'s counts: %q", got)
	}
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("#pbody h3")].map(h => h.textContent).join(" | ")`); got != "Flagged pages | Pages" {
		t.Errorf("blog/'s panel headings: %q", got)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector('g.node[data-id="`+itoa(id)+`"] title').textContent`); got != "https://www.example.com/blog/: 3 pages, 3 inlinks, click depth 1, 1 orphan" {
		t.Errorf("blog/'s tooltip: %q", got)
	}
	// The page robots.txt disallows, in private/: flagged, nothing else.
	id = browsertest.Eval[int](tab, `+[...document.querySelectorAll("g.node")].find(g => g.querySelector("tspan.l").textContent === "private/").dataset.id`)
	tab.Click(`g.node[data-id="` + itoa(id) + `"] text`)
	if got := tab.Text("#pbody"); !strings.HasSuffix(got, "https://www.example.com/private/x left out: robots") {
		t.Errorf("private/'s panel: %q", got)
	}
	// The planted missing page, in docs/.
	id = browsertest.Eval[int](tab, `+[...document.querySelectorAll("g.node")].find(g => g.querySelector("tspan.l").textContent === "docs/").dataset.id`)
	tab.Click(`g.node[data-id="` + itoa(id) + `"] text`)
	if got := tab.Text("#pbody ul.flagged"); got != "Doc Y missing: linked and indexable, not in the sitemap" {
		t.Errorf("docs/'s flagged pages: %q", got)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("#pbody ul.flagged .mark").className`); got != "mark missing" {
		t.Errorf("mark class %q", got)
	}
	// A link from a section to one a column deeper leaves from the end of
	// its label (not across it) and reaches the other's dot.
	if got := browsertest.Eval[string](tab, `(() => {
		const g = [...document.querySelectorAll("g.node")], root = g.find(n => n.querySelector("tspan.l").textContent === "https://www.example.com");
		const r = root.querySelector("text").getBoundingClientRect(), out = [];
		for (const p of document.querySelectorAll("#links path.k")) {
			const a = p.getPointAtLength(0), m = p.getScreenCTM(), x = a.x * m.a + m.e, y = a.y * m.d + m.f;
			if (x < r.right - 1 && y > r.top && y < r.bottom) out.push(p.querySelector("title").textContent);
		}
		return out.join("; "); })()`); got != "" {
		t.Errorf("link arcs leaving across the root's label: %s", got)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("the link view:\n%s", strings.Join(v, "\n"))
	}
	tab.Screenshot("links")
	tab.NoErrors()

	// With one flagged page kept per section, the panel says how many
	// more there are.
	lt, err = Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{MaxPages: 1})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := lt.HTML(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	tab.LoadFile(writeFile(t, "links-1.html", b.Bytes()))
	tab.WaitVisible(`body[data-ready="1"]`)
	tab.Click(`g.node[data-id="0"] text`)
	if got := tab.Text("#pbody ul.flagged + p.meta"); got != "and 1 more flagged page in this section." {
		t.Errorf("the root's flagged pages past the first: %q", got)
	}
	tab.NoErrors()
}

// TestSVGInBrowser draws the SVG in Chromium and checks that every text
// (the heading line and each label) lies inside the picture: a label cut
// at the edge is unreadable at the default size.
func TestSVGInBrowser(t *testing.T) {
	for _, c := range []struct {
		name  string
		tree  *Tree
		links *LinkTree
	}{{"site", siteTree(t), nil}, {"one-section", oneSection(t), nil}, {"links", nil, plantedLinks(t)}} {
		var b bytes.Buffer
		var err error
		if c.links != nil {
			err = c.links.SVG(context.Background(), &b, DrawOptions{})
		} else {
			err = c.tree.SVG(context.Background(), &b, DrawOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
		tab := browsertest.New(t)
		tab.LoadFile(writeFile(t, c.name+".svg", b.Bytes()))
		out := browsertest.Eval[[]string](tab, `(() => {
			const svg = document.documentElement, w = svg.viewBox.baseVal.width, h = svg.viewBox.baseVal.height, out = [];
			for (const t of svg.querySelectorAll("text")) {
				const r = t.getBBox();
				if (r.x < 0 || r.y < 0 || r.x + r.width > w + 0.5 || r.y + r.height > h + 0.5)
					out.push(JSON.stringify(t.textContent) + " at " + [r.x, r.y, r.width, r.height].map(Math.round) + " outside " + [w, h]);
			}
			return out; })()`)
		for _, o := range out {
			t.Errorf("%s: %s", c.name, o)
		}
		// Counts and the heading's summary are grey, beside black names.
		if got := browsertest.Eval[string](tab, `[...new Set([...document.querySelectorAll("tspan.c")].map(t => getComputedStyle(t).fill))].join(" ")`); got != "rgb(89, 99, 110)" {
			t.Errorf("%s: the counts are filled %q, want rgb(89, 99, 110)", c.name, got)
		}
		tab.Screenshot(c.name + "-svg")
		tab.NoErrors()
	}
}

func plantedLinks(t *testing.T) *LinkTree {
	lt, err := Links(context.Background(), plantedCrawl(t), plantedSitemap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// oneSection is a tree narrower than its heading line: a long site name
// and one section.
func oneSection(t *testing.T) *Tree {
	tr, err := Build(context.Background(), entries(
		sitemap.URL{Loc: "https://a-rather-long-host-name.example.com/"},
		sitemap.URL{Loc: "https://a-rather-long-host-name.example.com/p/x"},
	), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
