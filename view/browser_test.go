package view

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
