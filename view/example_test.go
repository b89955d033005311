package view_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

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

// Items writes the view of a document of either kind: here an index,
// told by its first item.
func ExampleItems() {
	items := []sitemap.Item{
		{Kind: sitemap.ItemIndex, Index: sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-1.xml"}},
		{Kind: sitemap.ItemIndex, Index: sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-2.xml"}},
	}
	i := 0
	var b strings.Builder
	err := view.Items(context.Background(), &b, func() (*sitemap.Item, error) {
		if i == len(items) {
			return nil, io.EOF
		}
		i++
		return &items[i-1], nil
	}, view.Options{Title: "Sitemaps"})
	// Each child is a link: its URL in the href and as the text.
	fmt.Println(err, strings.Count(b.String(), "sitemap-"), strings.Contains(b.String(), "<table"))
	// Output:
	// <nil> 4 true
}
