package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/sitemapkit/sitemap/fetch"
)

// Run is `sitemap fetch` as one call: every URL of a site's sitemaps
// printed once, with the sitemap that listed it, as it is read; the
// diagnostics and the summary go to the second writer.
func ExampleRun() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/</loc></url><url><loc>%[1]s/about</loc></url><url><loc>%[1]s/</loc></url></urlset>`, srv.URL)
	}))
	defer srv.Close()

	var out strings.Builder
	sum, err := fetch.Run(context.Background(), srv.URL+"/sitemap.xml", fetch.RunOptions{Format: "csv"}, &out, io.Discard)
	fmt.Print(strings.ReplaceAll(out.String(), srv.URL, "https://www.example.com"))
	fmt.Println(sum.URLs, "URLs,", sum.Duplicates, "duplicate,", err)
	// Output:
	// loc,lastmod,changefreq,priority,source
	// https://www.example.com/,,,,https://www.example.com/sitemap.xml
	// https://www.example.com/about,,,,https://www.example.com/sitemap.xml
	// 2 URLs, 1 duplicate, <nil>
}

// A Tree collects the events of a walk and writes the documents read,
// children under their index in its order, with their counts and
// problems.
func ExampleTree() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/b.xml</loc></sitemap><sitemap><loc>%[1]s/a.xml</loc></sitemap></sitemapindex>`, srv.URL)
		case "/a.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc></url></urlset>`, srv.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	tree, err := fetch.NewTree(fetch.TreeOptions{URLs: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tree.Close()
	fetch.Walk(context.Background(), srv.URL+"/index.xml", fetch.Options{Attempts: 1}, func(ev fetch.Event) error {
		tree.Event(ev)
		return nil
	})
	var b strings.Builder
	tree.WriteText(&b)
	fmt.Print(strings.ReplaceAll(b.String(), srv.URL, "https://www.example.com"))
	// Output:
	// https://www.example.com/index.xml  [sitemapindex, 2 sitemaps]
	//     https://www.example.com/b.xml  [sitemap, 0 URLs, FAILED: HTTP 404 Not Found, 1 error]
	//         ! error FETCH-HTTP: HTTP 404 Not Found
	//     https://www.example.com/a.xml  [urlset, 1 URL]
	//         https://www.example.com/a
}

// WriteJSON writes the same tree as one JSON object for programs.
func ExampleTree_WriteJSON() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc></url></urlset>`, srv.URL)
	}))
	defer srv.Close()

	tree, _ := fetch.NewTree(fetch.TreeOptions{})
	fetch.Walk(context.Background(), srv.URL+"/sitemap.xml", fetch.Options{}, func(ev fetch.Event) error {
		tree.Event(ev)
		return nil
	})
	var b strings.Builder
	tree.WriteJSON(&b)
	os.Stdout.WriteString(strings.ReplaceAll(b.String(), srv.URL, "https://www.example.com"))
	// Output:
	// {
	//   "url": "https://www.example.com/sitemap.xml",
	//   "kind": "sitemap",
	//   "format": "urlset",
	//   "status": 200,
	//   "urls": 1,
	//   "sitemaps": 0,
	//   "errors": 0,
	//   "warnings": 0
	// }
}

// Check refuses an output that does not fit: here, the URLs of the
// tree asked for without the tree.
func ExampleRunOptions_Check() {
	fmt.Println(fetch.RunOptions{Tree: true, Format: "json"}.Check())
	fmt.Println(fetch.RunOptions{TreeURLs: true}.Check())
	// Output:
	// <nil>
	// --urls lists each sitemap's URLs in the --tree; give --tree too (without it every URL is printed once, with its sitemap in --format jsonl's or csv's source)
}
