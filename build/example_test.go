package build_test

import (
	"context"
	"errors"
	"fmt"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// Build sitemaps of at most two URLs each and an index over them. A real
// run uses store.Dir(path) instead of store.Memory() and keeps the default
// limits (50,000 URLs, 52,428,800 bytes).
func Example() {
	ctx := context.Background()
	st := store.Memory()
	b, err := build.New(st, build.Options{
		BaseURL: "https://www.example.com/",
		Gzip:    true,
		MaxURLs: 2,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	day, _ := sitemap.ParseDate("2026-11-02")
	entries := []sitemap.URL{
		{Loc: "https://www.example.com/", LastMod: day},
		{Loc: "https://www.example.com/about"},
		{Loc: "/relative"}, // skipped: not an absolute URL (L-01)
		{Loc: "https://www.example.com/blog"},
	}
	for i := range entries {
		if err := b.Add(ctx, &entries[i]); err != nil {
			var bad *sitemap.EntryError
			if !errors.As(err, &bad) {
				fmt.Println(err) // the run cannot go on
				return
			}
			// an invalid entry: reported, skipped, the run goes on
		}
	}
	sum, err := b.Commit(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Children are named by their content (NAME-N-HASH.xml.gz), so a new
	// run never overwrites a file the published index lists.
	for _, f := range sum.Files {
		fmt.Printf("%s: %d URLs, lastmod %q\n", f.Name, f.URLs, f.LastMod)
	}
	fmt.Printf("%s indexes %d sitemaps; %d skipped\n", sum.Index.Name, sum.Index.URLs, sum.Skipped)
	names, _ := st.List(ctx)
	fmt.Println(names)
	// Output:
	// sitemap-1-20945c5dca0f.xml.gz: 2 URLs, lastmod "2026-11-02"
	// sitemap-2-eacd30f18391.xml.gz: 1 URLs, lastmod ""
	// sitemap.xml indexes 2 sitemaps; 1 skipped
	// [sitemap-1-20945c5dca0f.xml.gz sitemap-2-eacd30f18391.xml.gz sitemap.xml]
}

// TopIn is where a published run's top file is read back from: the
// index, or the one sitemap, in the directory or bucket it went to.
func ExampleSummary_TopIn() {
	sum := build.Summary{Files: []build.FileSummary{{Name: "sitemap-1-0a1b2c3d4e5f.xml"}, {Name: "sitemap-2-5f4e3d2c1b0a.xml"}}, Index: &build.FileSummary{Name: "sitemap.xml"}}
	fmt.Println(sum.TopIn("public"))
	fmt.Println(sum.TopIn("s3://bucket/maps/"))
	one := build.Summary{Files: []build.FileSummary{{Name: "sitemap.xml.gz"}}}
	fmt.Println(one.TopIn("public"))
	// Output:
	// public/sitemap.xml
	// s3://bucket/maps/sitemap.xml
	// public/sitemap.xml.gz
}

// Check says whether Add would take an entry, without adding it: for a
// caller that holds entries back before it adds them.
func ExampleBuilder_Check() {
	b, err := build.New(store.Memory(), build.Options{BaseURL: "https://www.example.com/", DryRun: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Abort()
	fmt.Println(b.Check(&sitemap.URL{Loc: "https://www.example.com/a"}))
	fmt.Println(b.Check(&sitemap.URL{Loc: "https://other.example.org/a"}) != nil)
	// Output:
	// <nil>
	// true
}
