package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

func entries(urls ...sitemap.URL) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func date(t testing.TB, s string) sitemap.Date {
	t.Helper()
	var d sitemap.Date
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return d
}

// site is a small site: a home page, a blog with posts in years, a shop
// with products, one news article, one page with hreflang alternates.
func site(t testing.TB) []sitemap.URL {
	return []sitemap.URL{
		{Loc: "https://www.example.com/", LastMod: date(t, "2026-10-01")},
		{Loc: "https://www.example.com/about"},
		{Loc: "https://www.example.com/blog/", LastMod: date(t, "2026-11-01")},
		{Loc: "https://www.example.com/blog/2025/old-post", LastMod: date(t, "2025-03-01"), Images: []sitemap.Image{{Loc: "https://www.example.com/i.jpg"}}},
		{Loc: "https://www.example.com/blog/2026/new-post", LastMod: date(t, "2026-11-02T10:00:00Z"), News: &sitemap.News{Title: "New"}},
		{Loc: "https://www.example.com/blog/2026/second?page=2"},
		{Loc: "https://www.example.com/shop/caf%C3%A9/mug", Videos: []sitemap.Video{{Title: "v"}}},
		{Loc: "https://www.example.com/shop/caf%C3%A9/cup"},
		{Loc: "https://www.example.com/de/", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/"}, {Hreflang: "en", Href: "https://www.example.com/"}}},
		{Loc: "mailto:someone@example.com"},
	}
}

func find(n *Node, path string) *Node {
	var hit *Node
	Walk(n, func(m *Node) {
		if m.Path == path {
			hit = m
		}
	})
	return hit
}

func TestBuildSections(t *testing.T) {
	tr, err := Build(context.Background(), entries(site(t)...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.URLs != 10 || tr.Skipped != 1 || tr.Sections != 7 || tr.Folded != 0 {
		t.Fatalf("URLs %d skipped %d sections %d folded %d; want 10, 1, 7, 0", tr.URLs, tr.Skipped, tr.Sections, tr.Folded)
	}
	root := tr.Root
	if root.Name != "https://www.example.com" || root.Total.Pages != 9 || root.Here != 2 {
		t.Fatalf("root %q pages %d here %d", root.Name, root.Total.Pages, root.Here)
	}
	if root.Total.Newest.String() != "2026-11-02T10:00:00Z" || root.Total.Images != 1 || root.Total.Videos != 1 || root.Total.News != 1 || root.Total.Hreflang != 2 {
		t.Errorf("root totals %+v", root.Total)
	}
	var names []string
	for _, c := range root.Children {
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != "blog de shop" {
		t.Errorf("root's sections %q, want blog de shop (sorted)", names)
	}
	blog := find(root, "https://www.example.com/blog/")
	if blog == nil || blog.Total.Pages != 4 || blog.Here != 1 || blog.Total.Newest.String() != "2026-11-02T10:00:00Z" {
		t.Fatalf("blog: %+v", blog)
	}
	y26 := find(root, "https://www.example.com/blog/2026/")
	if y26 == nil || y26.Here != 2 || len(y26.Pages) != 2 || y26.Pages[1].Loc != "https://www.example.com/blog/2026/second?page=2" || y26.Total.News != 1 {
		t.Fatalf("blog/2026: %+v", y26)
	}
	cafe := find(root, "https://www.example.com/shop/caf%C3%A9/")
	if cafe == nil || cafe.Name != "café" || cafe.Total.Pages != 2 {
		t.Fatalf("the percent-encoded section: %+v", cafe)
	}
}

func TestBuildSeveralSites(t *testing.T) {
	tr, _ := Build(context.Background(), entries(
		sitemap.URL{Loc: "https://a.example/x"}, sitemap.URL{Loc: "http://b.example"}, sitemap.URL{Loc: "https://a.example/y/z"}), Options{})
	if tr.Root.Name != "2 sites" || len(tr.Root.Children) != 2 || tr.Root.Total.Pages != 3 {
		t.Fatalf("root %q, %d children, %d pages", tr.Root.Name, len(tr.Root.Children), tr.Root.Total.Pages)
	}
	if b := tr.Root.Children[0]; b.Name != "http://b.example" || b.Here != 1 {
		t.Fatalf("second site %+v", b)
	}
}

func TestBuildBoundsMemory(t *testing.T) {
	tr := New(Options{MaxSections: 10, MaxDepth: 3, MaxPages: 2})
	for i := 0; i < 1000; i++ {
		tr.Add(&sitemap.URL{Loc: fmt.Sprintf("https://ex.com/p%d/q/r/s/t", i)})
	}
	tr.Seal()
	if tr.Sections != 10 {
		t.Errorf("sections %d, want the cap 10", tr.Sections)
	}
	if tr.Root.Total.Pages != 1000 || tr.Folded != 1000 {
		t.Errorf("pages %d folded %d, want 1000 and 1000 (every URL is deeper than 3 levels or past the cap)", tr.Root.Total.Pages, tr.Folded)
	}
	max := 0
	Walk(tr.Root, func(n *Node) {
		if n.depth > max {
			max = n.depth
		}
		if len(n.Pages) > 2 {
			t.Errorf("%s keeps %d pages, want at most 2", n.Path, len(n.Pages))
		}
	})
	if max != 3 {
		t.Errorf("depth %d, want 3", max)
	}
	// Folded URLs count in the deepest section held: p0/q/r/ here.
	if n := find(tr.Root, "https://ex.com/p0/q/r/"); n == nil || n.Here != 1 {
		t.Errorf("p0/q/r/ %+v", n)
	}
}

func TestLimitAggregates(t *testing.T) {
	tr := New(Options{})
	// 30 sections under the root, section i with i+1 pages and, for the
	// first 5, one subsection each.
	for i := 0; i < 30; i++ {
		for j := 0; j <= i; j++ {
			tr.Add(&sitemap.URL{Loc: fmt.Sprintf("https://ex.com/s%02d/p%d", i, j)})
		}
		if i < 5 {
			tr.Add(&sitemap.URL{Loc: fmt.Sprintf("https://ex.com/s%02d/sub/x", i)})
		}
	}
	tr.Seal()
	full := tr.Limit(1000)
	n := 0
	Walk(full, func(*Node) { n++ })
	if n != 36 {
		t.Fatalf("a limit above the size draws %d nodes, want all 36", n)
	}
	top := tr.Limit(11)
	n = 0
	Walk(top, func(*Node) { n++ })
	if n != 11 || len(top.Children) != 10 {
		t.Fatalf("Limit(11) drew %d nodes with %d children", n, len(top.Children))
	}
	// The 9 largest sections (s21 … s29, in name order) and one "+21 more".
	if top.Children[0].Name != "s21" || top.Children[8].Name != "s29" {
		t.Errorf("kept %q … %q, want the largest", top.Children[0].Name, top.Children[8].Name)
	}
	m := top.Children[9]
	pages := 0
	for i := 0; i < 21; i++ {
		pages += i + 1
	}
	if m.More != 21 || m.Name != "+21 more" || m.Total.Pages != pages+5 || m.Hidden != 5 {
		t.Errorf("aggregate %q more %d pages %d hidden %d; want +21 more, 21, %d, 5", m.Name, m.More, m.Total.Pages, pages+5, m.Hidden)
	}
	// The tree itself is unchanged.
	if len(tr.Root.Children) != 30 {
		t.Errorf("Limit changed the tree: %d children", len(tr.Root.Children))
	}
	if one := tr.Limit(1); len(one.Children) != 0 || one.Hidden != 35 {
		t.Errorf("Limit(1): %d children, hidden %d; want the root alone hiding 35", len(one.Children), one.Hidden)
	}
}

func TestSplitURL(t *testing.T) {
	for _, c := range []struct{ in, site, path string }{
		{"https://ex.com", "https://ex.com", "/"},
		{"https://ex.com/a/b?c=/d#e", "https://ex.com", "/a/b"},
		{"HTTP://ex.com:8080/x/", "HTTP://ex.com:8080", "/x/"},
		{"https://ex.com?q", "https://ex.com", "/"},
		{"ftp://ex.com/a", "", ""},
		{"https:///a", "", ""},
		{"https://", "", ""},
	} {
		site, path, _ := splitURL(c.in)
		if site != c.site || path != c.path {
			t.Errorf("splitURL(%q) = %q, %q; want %q, %q", c.in, site, path, c.site, c.path)
		}
	}
}

func TestBuildKeepsAtMostMaxKeptPages(t *testing.T) {
	tr := New(Options{MaxPages: 3, MaxKept: 10})
	for i := 0; i < 100; i++ {
		tr.Add(&sitemap.URL{Loc: fmt.Sprintf("https://ex.com/s%d/p%d", i%20, i)})
	}
	kept := 0
	Walk(tr.Root, func(n *Node) { kept += len(n.Pages) })
	if kept != 10 || tr.Root.Total.Pages != 100 {
		t.Errorf("kept %d pages of %d, want 10 of 100", kept, tr.Root.Total.Pages)
	}
}

func TestSectionsInNaturalOrder(t *testing.T) {
	var urls []sitemap.URL
	for _, s := range []string{"section-10", "section-2", "section-1", "b", "a", "section-02", "v1.10", "v1.9"} {
		urls = append(urls, sitemap.URL{Loc: "https://www.example.com/" + s + "/p"})
	}
	tr, err := Build(context.Background(), entries(urls...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Root.Children {
		got = append(got, c.Name)
	}
	if g := strings.Join(got, " "); g != "a b section-1 section-02 section-2 section-10 v1.9 v1.10" {
		t.Errorf("sections in the order %s", g)
	}
	for _, c := range []struct{ a, b string }{{"x", "x1"}, {"x01", "x1"}, {"a9", "a10"}, {"9", "a"}, {"", "0"}} {
		if !natLess(c.a, c.b) || natLess(c.b, c.a) {
			t.Errorf("natLess(%q, %q) = %v, natLess(%q, %q) = %v", c.a, c.b, natLess(c.a, c.b), c.b, c.a, natLess(c.b, c.a))
		}
	}
}

// An entry's title (a CSV or JSONL title column) labels its page in the
// drawing, as a crawl's titles do (the HTML map lists them).
func TestBuildKeepsEntryTitles(t *testing.T) {
	tr := New(Options{})
	tr.Add(&sitemap.URL{Loc: "https://ex.com/faq?x=1", Title: "Frequently asked questions"})
	var got []Page
	Walk(tr.Root, func(n *Node) { got = append(got, n.Pages...) })
	if len(got) != 1 || got[0].Title != "Frequently asked questions" {
		t.Errorf("pages %+v", got)
	}
	for _, format := range []string{"html"} { // the pages of a section are in the HTML map
		var b strings.Builder
		if err := Draw(context.Background(), &b, tr, format, DrawOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "Frequently asked questions") {
			t.Errorf("%s lacks the title:\n%s", format, b.String())
		}
	}
}
