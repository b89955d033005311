package diff_test

import (
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/diff"
)

// Settings take the options as `sitemap diff` takes its flags;
// RunOptions checks them for the two sides and returns what Run needs.
func ExampleSettings_RunOptions() {
	s := diff.Settings{Format: "jsonl", Ignore: []string{"lastmod"}}
	ro, err := s.RunOptions("old/sitemap.xml", "new/sitemap.xml", os.Stdin)
	fmt.Println(ro.Format, ro.Ignore, err)
	s.Ignore = []string{"title"}
	_, err = s.RunOptions("old/sitemap.xml", "new/sitemap.xml", os.Stdin)
	fmt.Println(err)
	// Output:
	// jsonl [lastmod] <nil>
	// --ignore "title": not a field; want one of lastmod, changefreq, priority, images, videos, news, alternates, content_hash
}
