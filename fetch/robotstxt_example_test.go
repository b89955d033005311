package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/sitemapkit/sitemap/fetch"
)

// RobotsTxt reads a site's robots.txt from its homepage URL, as
// `sitemap robots list URL` does, and lists its sitemaps.
func ExampleClient_RobotsTxt() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow:\n\nSitemap: https://www.example.com/sitemap.xml\n")
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	c, _ := fetch.NewClient(fetch.ClientOptions{})
	r, err := c.RobotsTxt(context.Background(), srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	sitemaps, _ := r.File.Sitemaps(nil)
	fmt.Println(r.Status, sitemaps)
	// Output: 200 [https://www.example.com/sitemap.xml]
}

// Disallows says whether a site's robots.txt forbids a URL to the
// Client's user agent (its product token, RobotsToken): what audit and
// validate of a site check every listed URL against.
func ExampleRobots_Disallows() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	c, _ := fetch.NewClient(fetch.ClientOptions{UserAgent: "mybot/1.0"})
	r, err := c.Robots(context.Background(), srv.URL+"/")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.RobotsToken(), r.Disallows(c.RobotsToken(), srv.URL+"/private/a"), r.Disallows(c.RobotsToken(), srv.URL+"/a"))
	// Output: mybot true false
}
