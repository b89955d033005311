package validate_test

import (
	"context"
	"fmt"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/validate"
)

// Validate an index and its children as `sitemap validate` does: the
// children in sub/ are found through Base, the one on another host is
// reported (I-05) and not read.
func ExampleTree() {
	sum, err := validate.Tree(context.Background(), []string{"../input/testdata/site/sitemap_index.xml"}, validate.TreeOptions{
		Input: input.Options{Base: "https://www.example.com/"},
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
			fmt.Printf("%d:%d: %s %s (%s)\n", d.Line, d.Col, d.Severity, d.Rule, doc.Name)
		},
		OnDocument: func(r validate.DocResult) error {
			fmt.Printf("%s: %s, %d entries, %d errors\n", r.Doc.Name, r.Summary.Format, r.Summary.URLs+r.Summary.IndexEntries, r.Summary.Errors)
			return nil
		},
	})
	if err != nil {
		fmt.Println(err) // a named input could not be read
		return
	}
	fmt.Printf("%d documents, %d errors, %d notes\n", sum.Documents, sum.Errors, sum.Infos)
	// Output:
	// 10:5: error I-05 (../input/testdata/site/sitemap_index.xml)
	// 10:5: info I-05 (../input/testdata/site/sitemap_index.xml)
	// ../input/testdata/site/sub/child-1.xml: urlset, 2 entries, 0 errors
	// ../input/testdata/site/sub/child-2.xml.gz: urlset, 1 entries, 0 errors
	// ../input/testdata/site/sitemap_index.xml: sitemapindex, 3 entries, 1 errors
	// 3 documents, 1 errors, 1 notes
}
