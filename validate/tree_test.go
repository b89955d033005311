package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
)

// An index that lists itself is read once: the entry gets an I-07 error
// and the index is not checked again as its own child (it was checked,
// and summarised, twice).
func TestTreeIndexListsItself(t *testing.T) {
	dir := t.TempDir()
	const site = "https://www.example.com/"
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sitemap_index.xml", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+site+`sitemap_index.xml</loc></sitemap>
<sitemap><loc>`+site+`a.xml</loc></sitemap>
</sitemapindex>
`)
	write("a.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+site+`p</loc></url></urlset>
`)
	for _, base := range []string{"", site} {
		var got []string
		sum, err := Tree(context.Background(), []string{filepath.Join(dir, "sitemap_index.xml")}, TreeOptions{
			Input: input.Options{Base: base},
			OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
				got = append(got, fmt.Sprintf("%s %d:%d %s %s: %s", filepath.Base(doc.Name), d.Line, d.Col, d.Severity, d.Rule, d.Message))
			},
			OnDocument: func(r DocResult) error {
				got = append(got, fmt.Sprintf("doc %s %s", filepath.Base(r.Doc.Name), r.Summary.Format))
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"sitemap_index.xml 3:1 error I-07: child " + site + "sitemap_index.xml is this index itself; an index lists sitemaps, not indexes (not read again)",
			"doc a.xml urlset",
			"doc sitemap_index.xml sitemapindex",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || sum.Documents != 2 || sum.Errors != 1 {
			t.Errorf("base %q: %d documents, %d errors:\n%s\nwant 2 documents, 1 error:\n%s", base, sum.Documents, sum.Errors, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
