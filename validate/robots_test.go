package validate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/rules"
)

// A site on 127.0.0.1 whose robots.txt disallows one URL its sitemap
// lists: validate of the site warns of that one (L-20, Search Console's
// "Submitted URL blocked by robots.txt"), and so does validate of the
// sitemap by its URL (as Search Console checks a submitted sitemap); a
// local copy of the sitemap is not checked against the site's robots.txt.
func TestTreeSiteRobotsDisallowsListedURL(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := srv.URL + "/"
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n\nSitemap: "+site+"sitemap.xml\n")
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
			`<url><loc>`+site+`a</loc></url><url><loc>`+site+`private/b</loc></url><url><loc>`+site+`c</loc></url></urlset>`)
	})
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "sitemap.xml")
	if err := os.WriteFile(local, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+site+`private/b</loc></url></urlset>`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{site, site + "sitemap.xml", local} {
		var got []sitemap.Diagnostic
		_, err := Tree(context.Background(), []string{name}, TreeOptions{
			Input: input.Options{Client: client},
			OnDiagnostic: func(_ *input.Doc, d sitemap.Diagnostic) {
				if d.Rule == rules.L20 {
					got = append(got, d)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if name == local {
			if len(got) != 0 {
				t.Errorf("a local file: %v", got)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != sitemap.SeverityWarning || !strings.Contains(got[0].Message, site+"private/b") {
			t.Errorf("%s: %v", name, got)
		}
	}
}
