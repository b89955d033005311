package diff

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
)

// TestOpenSite: a side given as a homepage is read through discovery
// (robots.txt's Sitemap: line, an index, its child); a homepage where
// nothing is found is ErrNoSitemap, a problem found, not an empty side.
func TestOpenSite(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := srv.URL
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("Sitemap: " + site + "/index.xml\n"))
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` + site + `/s.xml</loc></sitemap></sitemapindex>`))
	})
	mux.HandleFunc("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + site + `/p</loc></url></urlset>`))
	})
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = Open(site+"/", OpenOptions{Client: client})(context.Background(), func(u *sitemap.URL) error {
		got = append(got, u.Loc)
		return nil
	})
	if err != nil || len(got) != 1 || got[0] != site+"/p" {
		t.Errorf("homepage: %q, %v; want [%s/p]", got, err, site)
	}

	empty := httptest.NewServer(http.NotFoundHandler())
	defer empty.Close()
	err = Open(empty.URL+"/", OpenOptions{Client: client})(context.Background(), func(*sitemap.URL) error { return nil })
	if !errors.Is(err, ErrNoSitemap) {
		t.Errorf("a site without sitemaps: %v, want ErrNoSitemap", err)
	}
}
