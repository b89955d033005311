package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var xmlLink = regexp.MustCompile(`<a href="([^"]*)">The XML</a>`)

// The HTML view's link to "the XML" gets the XML when a browser follows it:
// the plain URL would answer the navigation with the same HTML page again.
func TestHTMLViewLinksToTheXML(t *testing.T) {
	browser := []string{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Sec-Fetch-Dest", "document"}
	src, _ := sqliteBackend.open(t, testRows(25))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, HTML: HTMLView})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`), 0o644); err != nil {
		t.Fatal(err)
	}
	dh, err := Dir(dir, DirOptions{HTML: HTMLView})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
		path string
	}{{"index", h, "/sitemap.xml"}, {"page", h, "/sitemap-2.xml"}, {"directory", dh, "/sitemap.xml"}} {
		res := get(t, c.h, "GET", c.path, browser...)
		m := xmlLink.FindStringSubmatch(body(t, res))
		if res.Header.Get("Content-Type") != "text/html; charset=utf-8" || m == nil {
			t.Errorf("%s: %s, no link to the XML", c.name, res.Header.Get("Content-Type"))
			continue
		}
		link := strings.ReplaceAll(m[1], "&amp;", "&")
		link = strings.TrimPrefix(strings.TrimPrefix(link, "https://www.example.com"), "http://www.example.com")
		res = get(t, c.h, "GET", link, browser...)
		if ct := res.Header.Get("Content-Type"); ct != "application/xml; charset=utf-8" || !strings.HasPrefix(body(t, res), "<?xml") {
			t.Errorf("%s: a browser following the link %q gets %q", c.name, m[1], ct)
		}
	}
}
