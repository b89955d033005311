package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

// TestSharedClient: with Options.HTTP every request of the crawl (robots.txt,
// seed sitemap, pages) goes through that client, with its User-Agent, whose
// product token picks the robots.txt group; its robots.txt stays cached for
// the client's other callers.
func TestSharedClient(t *testing.T) {
	var mu sync.Mutex
	agents, paths := map[string]int{}, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.UserAgent()]++
		paths[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /y\n\nUser-agent: shared-bot\nDisallow: /x\n\nSitemap: http://%s/sitemap.xml\n", r.Host)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s/seed</loc></url></urlset>`, r.Host)
		case "/", "/seed", "/x", "/y":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/x">x</a><a href="/y">y</a>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	hc, err := fetch.NewClient(fetch.ClientOptions{UserAgent: "shared-bot/2.0 (+https://example.com)"})
	if err != nil {
		t.Fatal(err)
	}
	c, st, err := openCrawler(context.Background(), filepath.Join(t.TempDir(), "s.db"), srv.URL, Options{HTTP: hc, UserAgent: "ignored/1.0", Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := hc.Robots(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(agents) != 1 || agents["shared-bot/2.0 (+https://example.com)"] == 0 {
		t.Errorf("User-Agents %v; want only the shared client's", agents)
	}
	if paths["/x"] != 0 || paths["/y"] == 0 || paths["/seed"] == 0 || paths["/robots.txt"] != 1 {
		t.Errorf("requests %v; want /x disallowed for shared-bot, /y and the seed fetched, robots.txt once", paths)
	}
}
