package diff_test

import (
	"context"
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/diff"
)

// entries is a side of a diff held in memory; real sides come from files,
// URLs or directories (diff.Open).
func entries(urls ...sitemap.URL) diff.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// Diff reads both sides whole (sorting on disk when they are large), then
// reports every difference in loc order.
func ExampleDiff() {
	day := func(s string) sitemap.Date { d, _ := sitemap.ParseDate(s); return d }
	old := entries(
		sitemap.URL{Loc: "https://www.example.com/a", LastMod: day("2026-11-01")},
		sitemap.URL{Loc: "https://www.example.com/b"},
		sitemap.URL{Loc: "https://www.example.com/c"},
	)
	new := entries(
		sitemap.URL{Loc: "https://www.example.com/c"},
		sitemap.URL{Loc: "https://www.example.com/a", LastMod: day("2026-11-20")},
		sitemap.URL{Loc: "https://www.example.com/d"},
	)
	sum, err := diff.Diff(context.Background(), old, new, diff.Options{}, func(c diff.Change) error {
		fmt.Println(c.Change, c.Loc, c.Fields)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d added, %d removed, %d modified, %d the same\n", sum.Added, sum.Removed, sum.Modified, sum.Same)
	// Output:
	// modified https://www.example.com/a [lastmod]
	// removed https://www.example.com/b []
	// added https://www.example.com/d []
	// 1 added, 1 removed, 1 modified, 1 the same
}

// A Writer prints changes as `sitemap diff` does: text for people, jsonl
// for programs.
func ExampleWriter() {
	w, err := diff.NewWriter(os.Stdout, "text")
	if err != nil {
		fmt.Println(err)
		return
	}
	w.Write(diff.Change{Change: diff.Added, Loc: "https://www.example.com/new"})
	w.Write(diff.Change{Change: diff.Removed, Loc: "https://www.example.com/old"})
	if err := w.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// + https://www.example.com/new
	// - https://www.example.com/old
}

func ExampleNewWriter() {
	w, _ := diff.NewWriter(os.Stdout, "jsonl")
	w.Write(diff.Change{Change: diff.Added, Loc: "https://www.example.com/new"})
	w.Flush()
	// Output:
	// {"change":"added","loc":"https://www.example.com/new"}
}

func ExampleChange_String() {
	fmt.Println(diff.Change{Change: diff.Added, Loc: "https://www.example.com/new"})
	// Output:
	// + https://www.example.com/new
}
