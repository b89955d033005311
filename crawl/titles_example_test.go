package crawl_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/state"
)

// Titles gives the site map pages of `sitemap html --state` the titles a
// crawl recorded; a URL the crawl did not fetch has none.
func ExampleTitles() {
	dir, _ := os.MkdirTemp("", "titles")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, filepath.Join(dir, "crawl.db"), state.SQLiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	title, err := crawl.Titles(st.Crawl())(ctx, "https://www.example.com/never-crawled")
	fmt.Printf("%q %v\n", title, err)
	// Output:
	// "" <nil>
}
