package validate_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/validate"
)

// Document reads one sitemap and reports every finding with its rule ID.
// With Options.URL set (where the file is served), the scope rules apply:
// a sitemap may list only URLs under its own directory on its own host.
func ExampleDocument() {
	const doc = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/shop/a</loc><lastmod>2026-11-02</lastmod></url>
  <url><loc>https://www.example.com/blog/b</loc></url>
  <url><loc>https://www.example.com/shop/c</loc><lastmod>2031-01-01</lastmod></url>
</urlset>`
	sum, err := validate.Document(context.Background(), strings.NewReader(doc), validate.Options{
		Name: "shop/sitemap.xml",
		URL:  "https://www.example.com/shop/sitemap.xml",
		Now:  time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC),
	}, func(d sitemap.Diagnostic) {
		fmt.Printf("line %d: %s %s\n", d.Line, d.Severity, d.Rule)
	})
	if err != nil {
		fmt.Println("could not run:", err)
		return
	}
	fmt.Printf("%d URLs, %d errors, %d warnings, valid: %v\n", sum.URLs, sum.Errors, sum.Warnings, sum.Valid(false))
	// Output:
	// line 4: error L-09
	// line 5: warning M-07
	// 3 URLs, 1 errors, 1 warnings, valid: false
}

// A Summary's String is the line `sitemap validate` prints per document.
func ExampleSummary_String() {
	sum, err := validate.Document(context.Background(), strings.NewReader("https://www.example.com/a\nhttps://www.example.com/b\n"), validate.Options{Name: "urls.txt"}, nil)
	if err != nil {
		fmt.Println("could not run:", err)
		return
	}
	fmt.Println(sum)
	// Output:
	// text, 2 URLs, 52 bytes: 0 errors, 0 warnings
}

func ExampleCheckTrustedHost() {
	fmt.Println(validate.CheckTrustedHost("cdn.example.net"))
	fmt.Println(validate.CheckTrustedHost("https://cdn.example.net/img/"))
	// Output:
	// <nil>
	// --trusted-host "https://cdn.example.net/img/" is not a host name; give the host alone: cdn.example.net
}
