package robots_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/sitemapkit/sitemap/robots"
)

// Run is `sitemap robots add - URL`: the robots.txt read from stdin, the
// edited file written to stdout, what was done said on the last writer.
func ExampleChange_Run() {
	in := strings.NewReader("User-agent: *\nDisallow: /private/\n")
	err := robots.Change{URL: "https://WWW.example.com/sitemap.xml"}.Run("-", in, os.Stdout, os.Stdout)
	fmt.Println(err)
	err = robots.Change{URL: "https://www.example.com/sitemap.xml"}.Run("https://www.example.com/robots.txt", nil, os.Stdout, os.Stdout)
	fmt.Println(err)
	// Output:
	// sitemap URL "https://WWW.example.com/sitemap.xml" written as "https://www.example.com/sitemap.xml" (host lower-cased; L-18)
	// User-agent: *
	// Disallow: /private/
	//
	// Sitemap: https://www.example.com/sitemap.xml
	// <stdin>: added Sitemap: https://www.example.com/sitemap.xml
	// <nil>
	// https://www.example.com/robots.txt: add edits a local file; download it, edit it, and upload it
}
