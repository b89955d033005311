package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sitemapkit/sitemap/fetch"
)

// Walk starts from a homepage, reads robots.txt, follows its Sitemap:
// lines and the index's children, and hands every URL to the callback.
func ExampleWalk() {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow:\nSitemap: %s/sitemap_index.xml\n", srv.URL)
	})
	mux.HandleFunc("/sitemap_index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/pages.xml</loc></sitemap></sitemapindex>`, srv.URL)
	})
	mux.HandleFunc("/pages.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/</loc></url><url><loc>%[1]s/about</loc></url></urlset>`, srv.URL)
	})

	sum, err := fetch.Walk(context.Background(), srv.URL+"/", fetch.Options{}, func(e fetch.Event) error {
		if e.Kind == fetch.EventURL {
			fmt.Println(strings.TrimPrefix(e.URL.Loc, srv.URL), "from", strings.TrimPrefix(e.URL.Source, srv.URL))
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d sitemaps read, %d URLs\n", sum.Sitemaps, sum.URLs)
	// Output:
	// / from /pages.xml
	// /about from /pages.xml
	// 2 sitemaps read, 2 URLs
}

// WalkNames reads several sitemaps as one tree: each URL once, however
// many of them list it, and the caps over them all.
func ExampleWalkNames() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Both sitemaps list /; a.xml lists /about too.
		other := "/"
		if r.URL.Path == "/a.xml" {
			other = "/about"
		}
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/</loc></url><url><loc>%[1]s%[2]s</loc></url></urlset>`, srv.URL, other)
	}))
	defer srv.Close()
	starts := []string{srv.URL + "/a.xml", srv.URL + "/b.xml"}
	sum, err := fetch.WalkNames(context.Background(), starts, fetch.Options{Concurrency: 1}, func(e fetch.Event) error {
		if e.Kind == fetch.EventURL {
			fmt.Println(strings.TrimPrefix(e.URL.Loc, srv.URL), "from", strings.TrimPrefix(e.URL.Source, srv.URL))
		}
		return nil
	})
	fmt.Println(sum.Sitemaps, "sitemaps,", sum.Entries, "entries,", sum.URLs, "URLs,", err)
	// Output:
	// / from /a.xml
	// /about from /a.xml
	// 2 sitemaps, 4 entries, 2 URLs, <nil>
}

// One Client makes every request of a program: one User-Agent, retries,
// typed errors, robots.txt cached per site.
func ExampleClient() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/sitemap.xml":
			fmt.Fprintf(w, "<!-- for %s -->", r.UserAgent())
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	c, err := fetch.NewClient(fetch.ClientOptions{UserAgent: "example-bot/1.0 (+https://example.com/bot)"})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	resp, err := c.Get(ctx, srv.URL+"/sitemap.xml", fetch.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _, _ := resp.Decoded() // Content-Encoding undone; nothing else
	b, _ := io.ReadAll(body)
	resp.Close()
	fmt.Println(resp.Status, string(b))

	_, err = c.Get(ctx, srv.URL+"/old.xml", fetch.GetOptions{})
	fmt.Println(fetch.KindOf(err), err)

	rb, err := c.Robots(ctx, srv.URL+"/private/page")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("allowed:", rb.File.Allowed("example-bot", "/private/page"))
	// Output:
	// 200 <!-- for example-bot/1.0 (+https://example.com/bot) -->
	// not found HTTP 404 Not Found
	// allowed: false
}

// A service that reads the sitemaps its users name keeps the walk on the
// user's site and out of its own network: a robots.txt Sitemap: line or a
// redirect to another site is not requested, and neither is any address
// that is loopback, private or link-local, whatever name resolves to it.
// This test server is on 127.0.0.1, so even its robots.txt is refused.
func ExampleScope() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "Sitemap: https://www.example.com/sitemap.xml\n")
	}))
	defer srv.Close()
	opts := fetch.Options{Scope: fetch.Scope{SameSite: true, NoPrivate: true}, KnownPaths: fetch.KnownPathsNever}
	_, err := fetch.Walk(context.Background(), srv.URL+"/robots.txt", opts, func(ev fetch.Event) error {
		if ev.Kind == fetch.EventDiagnostic && ev.Diagnostic.Rule == "FETCH-SCOPE" {
			fmt.Println(strings.Contains(ev.Diagnostic.Message, "is out of scope: its host is a loopback address"))
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// true
	// <nil>
}
