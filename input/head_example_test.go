package input_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/input"
)

// A program that takes sitemaps and URL lists alike looks at the first
// bytes, not the name.
func ExampleIsSitemapHead() {
	fmt.Println(input.IsSitemapHead([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)))
	fmt.Println(input.IsSitemapHead([]byte("https://www.example.com/\nhttps://www.example.com/about\n")))
	// Output:
	// true
	// false
}
