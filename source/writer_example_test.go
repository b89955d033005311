package source_test

import (
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/source"
)

// A Writer prints entries as `sitemap parse --format csv` does; the
// header row comes before the first entry.
func ExampleWriter() {
	w, err := source.NewWriter(os.Stdout, source.WriterOptions{Format: "csv"})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := sitemap.ParseDate("2026-11-02")
	w.Write(&sitemap.URL{Loc: "https://www.example.com/a", LastMod: d, ChangeFreq: sitemap.ChangeFreq("weekly")})
	w.Write(&sitemap.URL{Loc: "https://www.example.com/b"})
	if err := w.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// loc,lastmod,changefreq,priority
	// https://www.example.com/a,2026-11-02,weekly,
	// https://www.example.com/b,,,
}

func ExampleNewWriter() {
	_, err := source.NewWriter(os.Stdout, source.WriterOptions{Format: "xml"})
	fmt.Println(err)
	// Output:
	// --format "xml": want txt, jsonl or csv
}
