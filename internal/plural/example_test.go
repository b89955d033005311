package plural_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/internal/plural"
)

func ExampleOf() {
	fmt.Println(plural.Of(1, "URL", "URLs"))
	fmt.Println(plural.Of(12345, "entry", "entries"))
	// Output:
	// 1 URL
	// 12,345 entries
}
