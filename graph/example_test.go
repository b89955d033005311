package graph_test

import (
	"context"
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/graph"
)

func ExampleFormatOf() {
	for _, name := range []string{"site.html", "site.gv", "-", "site.png"} {
		f, err := graph.FormatOf(name, "")
		fmt.Printf("%s: %q %v\n", name, f, err)
	}
	// Output:
	// site.html: "html" <nil>
	// site.gv: "dot" <nil>
	// -: "json" <nil>
	// site.png: "" -o site.png: the name does not say the format; end it in .html, .svg, .dot or .json, or give --format
}

// Draw writes a tree (or a crawl's LinkTree) in the format a name says.
func ExampleDraw() {
	ctx := context.Background()
	urls := []sitemap.URL{{Loc: "https://www.example.com/"}, {Loc: "https://www.example.com/blog/a"}, {Loc: "https://www.example.com/blog/b"}}
	tree, err := graph.Build(ctx, func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
		}
		return nil
	}, graph.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	format, _ := graph.FormatOf("site.json", "")
	if err := graph.Draw(ctx, os.Stdout, tree, format, graph.DrawOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//  "urls": 3,
	//  "skipped": 0,
	//  "sections": 2,
	//  "folded": 0,
	//  "drawn": 2,
	//  "tree": {
	//   "name": "https://www.example.com",
	//   "path": "https://www.example.com/",
	//   "total": {
	//    "pages": 3
	//   },
	//   "here": 1,
	//   "children": [
	//    {
	//     "name": "blog",
	//     "path": "https://www.example.com/blog/",
	//     "total": {
	//      "pages": 2
	//     },
	//     "here": 2
	//    }
	//   ]
	//  }
	// }
}
