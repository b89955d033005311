package view_test

import (
	"context"
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/view"
)

// WritePages publishes the site map pages into a directory, index.html
// last.
func ExampleWritePages() {
	dir, _ := os.MkdirTemp("", "sitemap-pages")
	defer os.RemoveAll(dir)
	urls := []sitemap.URL{{Loc: "https://www.example.com/"}, {Loc: "https://www.example.com/about"}, {Loc: "https://www.example.com/blog/a"}}
	sum, err := view.WritePages(context.Background(), dir, func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
		}
		return nil
	}, view.PageOptions{PerPage: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	ents, _ := os.ReadDir(dir)
	fmt.Println(sum.Pages, "pages,", sum.Links, "links:", ents[0].Name(), ents[1].Name())
	// Output:
	// 2 pages, 3 links: index.html page-2.html
}
