package input_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/input"
)

// A command checks that its local inputs are there before it reads any,
// so a typo stops it before the others are read; "-" and URLs are read
// when their turn comes.
func ExampleCheckLocal() {
	fmt.Println(input.CheckLocal([]string{"-", "https://www.example.com/sitemap.xml", "no-such-list.txt"}))
	// Output: no-such-list.txt: no such file
}
