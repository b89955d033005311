package view

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

func writePage(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDocumentViewsInBrowser(t *testing.T) {
	tab := browsertest.New(t)
	var b bytes.Buffer
	if err := URLSet(context.Background(), &b, list(sampleURLs(t)...), Options{Self: "https://www.example.com/sitemap.xml", Next: "?page=2"}); err != nil {
		t.Fatal(err)
	}
	tab.LoadFile(writePage(t, "urlset.html", b.Bytes()))
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("tbody tr").length`); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}
	if got := tab.Text("tbody tr:first-child td.loc a"); got != "https://www.example.com/a?x=1&y=<2>" {
		t.Errorf("first link text %q", got)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("urlset view:\n%s", strings.Join(v, "\n"))
	}
	tab.Screenshot("urlset")
	tab.NoErrors()

	b.Reset()
	kids := []sitemap.IndexEntry{{Loc: "https://www.example.com/s-1.xml"}, {Loc: "https://www.example.com/s-2.xml"}}
	if err := Index(context.Background(), &b, IndexList(kids), Options{}); err != nil {
		t.Fatal(err)
	}
	tab.LoadFile(writePage(t, "index.html", b.Bytes()))
	if got := tab.Text("footer"); got != "2 sitemaps." {
		t.Errorf("footer %q", got)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("index view:\n%s", strings.Join(v, "\n"))
	}
	tab.Screenshot("index")
}

func TestVisitorPagesInBrowser(t *testing.T) {
	dir := t.TempDir()
	create := func(name string) (io.WriteCloser, error) { return os.Create(filepath.Join(dir, name)) }
	urls := visitorSite()
	for i := 0; i < 30; i++ {
		urls = append(urls, sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/docs/guide-%02d", i)})
	}
	if _, err := Pages(context.Background(), list(urls...), create, PageOptions{PerPage: 20, Title: "Example site map"}); err != nil {
		t.Fatal(err)
	}
	tab := browsertest.New(t)
	tab.LoadFile(filepath.Join(dir, "index.html"))
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("main h2")].map(h => h.textContent).join(" | ")`); got != "Home | Blog | Blog › 2025 | Blog › 2026 | Docs" {
		t.Errorf("headings: %q", got)
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll("main li a").length`); n != 20 {
		t.Errorf("%d links on page 1, want 20", n)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("page 1:\n%s", strings.Join(v, "\n"))
	}
	// The pager links every page by number (a few around this one past
	// seven) and says which one this is.
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("nav.pager li")].map(l => (l.querySelector("[aria-current=page]") ? "*" : "") + l.textContent).join(" ")`); got != "*1 2 Next page" {
		t.Errorf("pager of page 1: %q", got)
	}
	if got := tab.Text("p.lead"); !strings.HasSuffix(got, " of 37 (site map page 1 of 2).") {
		t.Errorf("lead of page 1: %q", got)
	}
	tab.Screenshot("page-1")
	tab.Click(`a[rel="next"]`)
	tab.WaitVisible(`a[rel="prev"]`)
	if got := browsertest.Eval[string](tab, `[...document.querySelectorAll("main h2")].map(h => h.textContent).join(" | ")`); got != "Docs (continued) | Shop › Café" {
		t.Errorf("page 2 headings: %q", got)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("main a[href*=mug]").textContent`); got != "Mug (color=red)" {
		t.Errorf("readable link text %q", got)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("page 2:\n%s", strings.Join(v, "\n"))
	}
	tab.NoErrors()
}
