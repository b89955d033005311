package validate_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/validate"
)

// Run prints what `sitemap validate` prints: the diagnostics on the first
// writer, and the summary of each document and of the run on the second.
func ExampleRun() {
	sum, err := validate.Run(context.Background(), []string{"../input/testdata/site/sitemap_index.xml"}, validate.RunOptions{
		TreeOptions: validate.TreeOptions{Input: input.Options{Base: "https://www.example.com/"}},
		Format:      "text",
	}, os.Stdout, os.Stdout)
	fmt.Println(sum.Documents, "documents,", sum.Reported.Errors, "error,", err)
	// Output:
	// ../input/testdata/site/sitemap_index.xml:10:5: error I-05: <loc> "https://other.example.net/child-3.xml" is outside https://www.example.com/: its host is other.example.net, not www.example.com; an index may point only to sitemaps on its own site, https://www.example.com/
	// ../input/testdata/site/sitemap_index.xml:10:5: info I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); not fetched
	// ../input/testdata/site/sub/child-1.xml: urlset, 2 URLs, 234 bytes: 0 errors, 0 warnings
	// ../input/testdata/site/sub/child-2.xml.gz: urlset, 1 URL, 172 bytes (gzip): 0 errors, 0 warnings
	// ../input/testdata/site/sitemap_index.xml: sitemapindex, 3 sitemaps, 363 bytes: 1 error, 0 warnings, 1 note
	// 3 documents: 1 error, 0 warnings
	// what a rule requires and how to fix it: sitemap explain I-05
	// 3 documents, 1 error, <nil>
}
