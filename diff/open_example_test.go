package diff_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/diff"
)

// Open reads a side as `sitemap diff` names it: a file (a sitemap, an
// index with its children below it, JSONL records), a directory, "-" or
// an http(s) URL (set Fetch.HTTP to a fetch.Client for those). Here last
// week's published sitemap against this week's JSONL export.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	old := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(old, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>2026-11-01</lastmod></url>
<url><loc>https://www.example.com/b</loc></url>
<url><loc>/relative</loc></url>
</urlset>
`), 0o644)
	new := filepath.Join(dir, "pages.jsonl")
	os.WriteFile(new, []byte(`{"loc":"https://www.example.com/a","lastmod":"2026-11-20"}
{"loc":"https://www.example.com/c"}
`), 0o644)

	o := diff.OpenOptions{OnDiagnostic: func(d sitemap.Diagnostic) {
		fmt.Println("problem:", d.Rule, d.Line) // the entry is skipped, the side goes on
	}}
	sum, err := diff.Diff(context.Background(), diff.Open(old, o), diff.Open(new, o), diff.Options{}, func(c diff.Change) error {
		fmt.Println(c.Change, c.Loc, c.Fields)
		return nil
	})
	if err != nil {
		fmt.Println(err) // a side that cannot be read to its end: nothing was emitted
		return
	}
	fmt.Println(sum)
	// Output:
	// problem: L-01 5
	// modified https://www.example.com/a [lastmod]
	// removed https://www.example.com/b []
	// added https://www.example.com/c []
	// 1 added, 1 removed, 1 modified, 0 unchanged (old 2 URLs, new 2 URLs)
}
