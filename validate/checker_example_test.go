package validate_test

import (
	"fmt"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/validate"
)

// A Checker runs the rules over entries that are not in a document yet,
// such as the rows a program is about to publish: URL for each entry (its
// position, or 0s), then Finish for the rules over the whole set (here
// P-04, every priority the same, and the hreflang groups).
func ExampleChecker() {
	c, err := validate.NewChecker(validate.Options{
		URL: "https://www.example.com/sitemap.xml", // the scope: where the sitemap will be served
		Now: time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC),
	}, func(d sitemap.Diagnostic) {
		fmt.Println(d.Severity, d.Rule)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows := []sitemap.URL{
		{Loc: "https://www.example.com/a", Priority: sitemap.Float64(0.5)},
		{Loc: "https://www.example.com/b", Priority: sitemap.Float64(0.5)},
		{Loc: "https://www.example.com/a", Priority: sitemap.Float64(0.5)},
		{Loc: "https://shop.example.com/c", Priority: sitemap.Float64(0.5)},
	}
	for i := range rows {
		c.URL(&rows[i], 0, 0)
	}
	c.Finish()
	fmt.Println(c.URLs(), "entries checked")
	// Output:
	// warning L-17
	// error L-09
	// warning P-04
	// 4 entries checked
}
