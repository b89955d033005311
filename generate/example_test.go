package generate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// What `sitemap generate --base-url https://www.example.com/ --max-urls 2
// --xsl urls.txt` does, as one call: the repeated URL is skipped (L-17),
// the one with a space written percent-encoded (L-18, reported at info
// level with its position), the relative one resolved against the base
// URL (L-19, at info level too), the rest published with the stylesheet. A real run uses store.Dir(path), and a state store
// (state.OpenSQLite) for truthful lastmods between runs.
func ExampleRun() {
	ctx := context.Background()
	urls := strings.NewReader(`https://www.example.com/
https://www.example.com/about
https://www.example.com/about
https://www.example.com/a b
/relative
https://www.example.com/blog
`)
	st := store.Memory()
	sum, err := generate.Run(ctx, generate.Read(urls, source.Options{Name: "urls.txt"}), generate.Options{
		Out:   st,
		Build: build.Options{BaseURL: "https://www.example.com/", MaxURLs: 2},
		XSL:   true,
		Report: func(p generate.Problem) {
			fmt.Println(p.Severity, p.Rule, p.File, p.Line)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d URLs in %d sitemaps, top file %s\n", sum.URLs, len(sum.Files), sum.Sitemap)
	fmt.Printf("%d invalid, %d duplicate\n", sum.Skipped, sum.Duplicates)
	names, _ := st.List(ctx)
	fmt.Println(names)
	// Output:
	// info L-18 urls.txt 4
	// info L-19 urls.txt 5
	// 5 URLs in 3 sitemaps, top file https://www.example.com/sitemap.xml
	// 0 invalid, 1 duplicate
	// [sitemap-1-fc1c517ff3f4.xml sitemap-2-ecf108a6da80.xml sitemap-3-c4c2ecee03cd.xml sitemap.xml sitemap.xsl]
}

// Entries from a program (here a slice; crawl.Crawler.Entries and
// diff.Open give the same shape) go through generate.Entries; a message
// about one of them names its loc.
func ExampleEntries() {
	ctx := context.Background()
	pages := []sitemap.URL{
		{Loc: "https://www.example.com/"},
		{Loc: "https://elsewhere.example.org/"},
	}
	var entries sitemap.Entries = func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range pages {
			if err := yield(&pages[i]); err != nil {
				return err
			}
		}
		return nil
	}
	sum, err := generate.Run(ctx, generate.Entries(entries), generate.Options{
		Out:    store.Memory(),
		Build:  build.Options{BaseURL: "https://www.example.com/"},
		Report: func(p generate.Problem) { fmt.Println(p.Rule, p.URL) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Files[0].Name, sum.URLs)
	// Output:
	// L-09 https://elsewhere.example.org/
	// sitemap.xml 1
}

// Inputs reads what `sitemap generate INPUT...` reads: files and "-",
// each a sitemap (an index with its children beside it) or an entry list,
// told apart by their bytes; its Progress counts the bytes read.
func ExampleInputs() {
	dir, _ := os.MkdirTemp("", "generate-inputs")
	defer os.RemoveAll(dir)
	sm := filepath.Join(dir, "old-sitemap.xml")
	os.WriteFile(sm, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/old</loc></url></urlset>`), 0o644)
	docs, err := input.Resolve([]string{sm, "-"}, input.Options{FilesOnly: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	src, progress := generate.Inputs(docs, generate.InputOptions{Stdin: strings.NewReader("https://www.example.com/new\n")})
	sum, err := generate.Run(context.Background(), src, generate.Options{
		Out: store.Memory(), Build: build.Options{BaseURL: "https://www.example.com/"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	done, total := progress()
	fmt.Println(sum.URLs, done == total)
	// Output: 2 true
}

// WriteRepairs is the report `sitemap generate` closes with: what was
// done to keep pages, and why entries were skipped, by rule.
func ExampleSummary_WriteRepairs() {
	in := strings.NewReader("https://www.example.com/a\nwww.example.com/relative\nhttps://www.example.com/a\n")
	sum, err := generate.Run(context.Background(), generate.Read(in, source.Options{Name: "urls.txt"}), generate.Options{
		Out: store.Memory(), Build: build.Options{BaseURL: "https://www.example.com/"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b strings.Builder
	sum.WriteRepairs(&b, false)
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		fmt.Println(strings.Join(strings.Fields(line)[:2], " "))
	}
	// Output:
	// sitemap: entries
	// 1 L-01
	// 1 L-17
}
