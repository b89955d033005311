package graph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	return browsertest.Eval[string](tab, `[...document.querySelectorAll("#nodes g.node text.l")].map(t => t.textContent).join(" ")`)
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
	if got := tab.Text(`g.node[data-id="1"] text.c`); got != "4" {
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
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("g.node.hit text.l")].map(t => t.textContent).join(" ")`); got != "2026/" {
		t.Errorf("highlighted: %q", got)
	}
	if got := tab.Text("#hits"); got != "1 section" {
		t.Errorf("hits %q", got)
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
