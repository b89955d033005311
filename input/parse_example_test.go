package input_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// Parse prints the entries of a local index and of its children
// (Follow) as text, one URL a line; the child on another site is not
// read (I-05), and its diagnostic goes to the second writer.
func ExampleParse() {
	sum, err := input.Parse(context.Background(), []string{"testdata/site/sitemap_index.xml"}, input.ParseOptions{
		Options: input.Options{Base: "https://www.example.com/", Follow: true},
		Format:  "txt",
	}, os.Stdout, os.Stdout)
	fmt.Println(sum.Entries, "entries,", sum.Errors, "error,", err)
	// Output:
	// testdata/site/sitemap_index.xml:10:5: error I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); an index may point only to sitemaps on its own site; not followed (--allow-off-site follows it)
	// https://www.example.com/sub/a
	// https://www.example.com/sub/b
	// https://www.example.com/sub/c
	// 3 entries, 1 error, <nil>
}

// DiscoverAll replaces a site's homepage by the sitemaps its robots.txt
// lists; the other names stay as they are.
func ExampleDiscoverAll() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "Sitemap: %s/sitemap.xml\n", srv.URL)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	names, err := input.DiscoverAll(context.Background(), []string{"local.xml", srv.URL + "/"}, input.Options{Client: client})
	fmt.Println(names[0], names[1] == srv.URL+"/sitemap.xml", err)
	// Output:
	// local.xml true <nil>
}
