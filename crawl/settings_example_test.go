package crawl_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/crawl"
)

// Settings as a command line gives them become the crawl's Options;
// a setting out of range is refused, naming its flag.
func ExampleSettings_Options() {
	o, err := crawl.Settings{Concurrency: 4, Rate: 0, MaxDepth: 8, Query: "strip", Exclude: []string{"/cart"}}.Options()
	fmt.Println(o.Rate, o.MaxDepth, len(o.Exclude), err)
	_, err = crawl.Settings{Concurrency: 4, MaxPages: -1}.Options()
	fmt.Println(err)
	_, err = crawl.Settings{Concurrency: 4, Include: []string{"("}}.Options()
	fmt.Println(err != nil)
	// Output:
	// -1 8 1 <nil>
	// --max-pages must not be negative (0 for no limit)
	// true
}
