package input_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemap/input"
)

// ReadRobots reads a robots.txt from a file, standard input ("-") or a
// URL, and names it as messages do.
func ExampleReadRobots() {
	stdin := strings.NewReader("User-agent: *\nDisallow:\n\nSitemap: https://www.example.com/sitemap.xml\n")
	rt, err := input.ReadRobots(context.Background(), "-", input.Options{Stdin: stdin}, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	sitemaps, _ := rt.File.Sitemaps(rt.Base)
	fmt.Println(rt.Name, sitemaps)
	_, err = input.ReadRobots(context.Background(), "testdata/missing-robots.txt", input.Options{}, 0)
	fmt.Println(err)
	// Output:
	// <stdin> [https://www.example.com/sitemap.xml]
	// testdata/missing-robots.txt: no such file
}
