package source_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sitemapkit/sitemap/source"
)

// New picks the format from the name (or the first bytes) and yields one
// record per entry. A bad entry is an *Error with its position: report it
// and call Next again; the good entries around it are kept. A bad field
// costs only that field: the entry is kept without it, and Warn says so.
func ExampleNew() {
	const csv = "loc,lastmod,priority\n" +
		"https://www.example.com/,2026-11-02,1.0\n" +
		"https://www.example.com/about,yesterday,0.5\n" +
		"https://www.example.com/contact,,0.3\n"
	warn := func(e *source.Error) { fmt.Println("kept without", e.Dropped+":", e.File, "line", e.Line, e.Rule) }
	r, err := source.New(strings.NewReader(csv), source.Options{Name: "urls.csv", Warn: warn})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var bad *source.Error
		if errors.As(err, &bad) {
			fmt.Println("skipped:", bad.File, "line", bad.Line, bad.Rule)
			continue
		}
		if err != nil {
			fmt.Println("cannot read further:", err)
			return
		}
		fmt.Println(rec.Line, rec.URL.Loc)
	}
	// Output:
	// 2 https://www.example.com/
	// kept without lastmod: urls.csv line 3 M-01
	// 3 https://www.example.com/about
	// 4 https://www.example.com/contact
}
