package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedSitemapWarningOneSeverity: a seed sitemap with an error is a
// warning of the crawl (the crawl goes on); its line carries no second
// severity ("warning: seed sitemap: …: error F-04: …" read as both), but
// the place, the text and the rule in parentheses.
func TestSeedSitemapWarningOneSeverity(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\nSitemap: http://" + r.Host + "/sitemap.xml\n"))
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://` + r.Host + `/a</loc></url>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>x</p>`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", siteOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range sum.Warnings {
		if !strings.HasPrefix(w, "seed sitemap") {
			continue
		}
		found = true
		if strings.Contains(w, "error ") || strings.Contains(w, "warning ") {
			t.Errorf("warning %q names a severity of its own; the crawl prints it as a warning", w)
		}
		if !strings.Contains(w, srv.URL+"/sitemap.xml") || !strings.HasSuffix(w, "(XML-01)") {
			t.Errorf("warning %q: want the sitemap's URL and the rule in parentheses", w)
		}
	}
	if !found {
		t.Fatalf("no seed sitemap warning in %q", sum.Warnings)
	}
}
