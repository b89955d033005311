package input_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// Read a local index and its children through the one walk of sitemap
// trees. The children are in sub/, found through Base (the URL the
// index's directory is served at); the child on another host is not
// followed (I-05).
func Example() {
	sum, err := input.Walk(context.Background(), []string{"testdata/site/sitemap_index.xml"}, input.Options{
		Base:  "https://www.example.com/",
		Stdin: os.Stdin,
	}, func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventURL:
			fmt.Println(ev.URL.Loc, "from", ev.URL.Source)
		case fetch.EventDiagnostic:
			d := ev.Diagnostic
			fmt.Printf("%s %s %s\n", d.Severity, d.Rule, d.Message)
		}
		return nil
	})
	if err != nil {
		fmt.Println(err) // could not run
		return
	}
	if sum.StartErr != nil {
		fmt.Println(sum.StartErr) // the named input could not be read
	}
	fmt.Println(sum.Sitemaps, "sitemaps,", sum.URLs, "URLs")
	// Output:
	// error I-05 child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); an index may point only to sitemaps on its own site; not followed (--allow-off-site follows it)
	// https://www.example.com/sub/a from testdata/site/sub/child-1.xml
	// https://www.example.com/sub/b from testdata/site/sub/child-1.xml
	// https://www.example.com/sub/c from testdata/site/sub/child-2.xml.gz
	// 3 sitemaps, 3 URLs
}

// The entries of an index's children as one stream, each URL once.
func ExampleEntries() {
	entries := input.Entries([]string{"testdata/site/sitemap_index.xml"}, input.Options{
		Base: "https://www.example.com/", Follow: true, SkipDuplicates: true,
	})
	err := entries(context.Background(), func(u *sitemap.URL) error {
		fmt.Println(u.Loc)
		return nil
	})
	fmt.Println(err)
	// Output:
	// https://www.example.com/sub/a
	// https://www.example.com/sub/b
	// https://www.example.com/sub/c
	// <nil>
}

// A walk of fetch reads local files through input's Getter: the same
// walk sitemap fetch makes of a site, here of a directory.
func ExampleNewGetter() {
	g := input.NewGetter(input.Options{Base: "https://www.example.com/"})
	sum, err := fetch.Walk(context.Background(), "testdata/site/sub/child-1.xml", fetch.Options{Getter: g}, func(ev fetch.Event) error { return nil })
	fmt.Println(sum.Sitemaps, sum.URLs, err)
	// Output:
	// 1 2 <nil>
}

// Map an index entry to the document to read.
func ExampleChild() {
	index := &input.Doc{Name: "public/sitemap.xml", Path: "public/sitemap.xml", URL: "https://www.example.com/sitemap.xml"}
	for _, loc := range []string{
		"https://www.example.com/sub/child-1.xml",
		"https://www.example.com/child-2.xml.gz",
		"https://cdn.example.net/child-3.xml",
	} {
		c, err := input.Child(index, loc, false)
		if err != nil {
			fmt.Println("not followed:", err)
			continue
		}
		fmt.Println(c.Path)
	}
	// Output:
	// public/sub/child-1.xml
	// public/child-2.xml.gz
	// not followed: child sitemap https://cdn.example.net/child-3.xml is on another site than the index (https://www.example.com); an index may point only to sitemaps on its own site; not followed (--allow-off-site follows it)
}

// Find the sitemaps of a site from its homepage (here a server on this
// machine whose robots.txt names two), then read them as any other input.
func ExampleDiscover() {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow:\n\nSitemap: %[1]s/sitemap.xml\nSitemap: %[1]s/news.xml\n", srv.URL)
	})
	client, err := fetch.NewClient(fetch.ClientOptions{UserAgent: "example-bot/1.0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	start := srv.URL + "/"
	fmt.Println(input.IsSiteStart(start), input.IsSiteStart(srv.URL+"/sitemap.xml"))
	found, err := input.Discover(context.Background(), start, input.Options{Client: client}, nil)
	if err != nil {
		fmt.Println(err) // nothing answered there
		return
	}
	for _, u := range found {
		fmt.Println(strings.TrimPrefix(u, srv.URL))
	}
	// Output:
	// true false
	// /sitemap.xml
	// /news.xml
}
