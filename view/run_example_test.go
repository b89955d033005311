package view_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/view"
)

// Run is `sitemap html`: the site map pages of an index and its
// children, the problems read as they come, then (not Quiet) one line
// saying what was written.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "view-run")
	defer os.RemoveAll(dir)
	s := view.Settings{Output: dir, PerPage: view.DefaultPerPage}
	in := input.Options{Base: "https://www.example.com/"}
	sum, err := view.Run(context.Background(), []string{"../input/testdata/site/sitemap_index.xml"}, view.RunOptions{Settings: s, Input: in, Quiet: true}, os.Stdout, os.Stdout)
	fmt.Println(sum.Pages, "page,", sum.Links, "links,", sum.Errors, "error,", err)
	// Output:
	// ../input/testdata/site/sitemap_index.xml:10:5: error I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); an index may point only to sitemaps on its own site; not followed (--allow-off-site follows it)
	// 1 page, 3 links, 1 error, <nil>
}

// Check refuses what cannot work before anything is read.
func ExampleSettings_Check() {
	s := view.Settings{Output: "view.html", PerPage: 200, Document: true}
	fmt.Println(s.Check([]string{"a.xml", "b.xml"}))
	// Output: --document writes the view of one INPUT; it takes no --template or --state
}

func ExampleRunSummary_String() {
	fmt.Println(view.RunSummary{Output: "public/sitemap", PagesSummary: view.PagesSummary{Pages: 3, Links: 450}})
	fmt.Println(view.RunSummary{Output: "-", Document: true, Entries: 12, Index: true})
	// Output:
	// wrote 3 pages into public/sitemap: 450 links
	// wrote the view of 12 sitemaps to standard output
}

// CrawlTitles gives the site map pages of `sitemap html --state` the
// titles a crawl recorded; a URL the crawl did not fetch has none.
func ExampleCrawlTitles() {
	dir, _ := os.MkdirTemp("", "titles")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, filepath.Join(dir, "crawl.db"), state.SQLiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	title, err := view.CrawlTitles(st.Crawl())(ctx, "https://www.example.com/never-crawled")
	fmt.Printf("%q %v\n", title, err)
	// Output:
	// "" <nil>
}
