package source_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/source"
)

// Write entry records, then read them back: the writer and the reader
// share one format, the one `sitemap parse` prints and `sitemap generate`
// reads.
func ExampleJSONLWriter() {
	var b strings.Builder
	w := source.NewJSONLWriter(io.MultiWriter(&b, os.Stdout))
	day, _ := sitemap.ParseDate("2026-11-02")
	w.Write(&sitemap.URL{Loc: "https://www.example.com/a?x=1&y=2", LastMod: day,
		Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}}})
	w.Write(&sitemap.URL{Loc: "https://www.example.com/b", ChangeFreq: sitemap.Weekly, Source: "https://www.example.com/sitemap.xml"})

	r := source.NewJSONL(strings.NewReader(b.String()), source.Options{Name: "entries.jsonl"})
	for {
		rec, err := r.Next()
		if err != nil {
			break // io.EOF
		}
		fmt.Println(rec.Line, rec.URL.Loc, rec.URL.LastMod, len(rec.URL.Images))
	}
	// Output:
	// {"loc":"https://www.example.com/a?x=1&y=2","lastmod":"2026-11-02","images":[{"loc":"https://cdn.example.com/a.jpg"}]}
	// {"loc":"https://www.example.com/b","changefreq":"weekly","source":"https://www.example.com/sitemap.xml"}
	// 1 https://www.example.com/a?x=1&y=2 2026-11-02 1
	// 2 https://www.example.com/b  0
}
