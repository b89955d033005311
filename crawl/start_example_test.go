package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/state"
)

// Start runs a crawl alone in a state file (a killed run resumes when
// started again with the same START-URL) and returns what to publish.
func ExampleStart() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Home</title></head><body><a href="/a">a</a></body></html>`)
	}))
	defer site.Close()
	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.Open(ctx, filepath.Join(dir, "crawl.db"), state.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	cr, sum, publish, err := crawl.Start(ctx, st, site.URL+"/", crawl.Options{Rate: -1, NoSitemaps: true},
		crawl.StartOptions{Mode: crawl.Alone, Shown: "crawl.db", Note: func(m string) { fmt.Println("note:", m) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("publish:", publish, "fetched:", sum.Fetched)
	cr.Entries(ctx, func(u *sitemap.URL) error { fmt.Println(u.Loc[len(site.URL):]); return nil })
	// Output:
	// publish: true fetched: 2
	// /
	// /a
}

// SharedStart tells a --finish run which crawl a PostgreSQL state holds;
// here a state file's log stands in, holding no crawl.
func ExampleSharedStart() {
	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.Open(ctx, filepath.Join(dir, "crawl.db"), state.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	if log, ok := st.Crawl().(state.SharedCrawlLog); ok {
		_, err = crawl.SharedStart(ctx, log, "", "crawl.db")
		fmt.Println(err)
	} else {
		fmt.Println("a state file's crawl is one process's")
	}
	// Output:
	// a state file's crawl is one process's
}
