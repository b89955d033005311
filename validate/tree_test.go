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
			"sitemap_index.xml 3:10 error I-07: child " + site + "sitemap_index.xml is this index itself; an index lists sitemaps, not indexes (not read again)",
			"doc a.xml urlset",
			"doc sitemap_index.xml sitemapindex",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || sum.Documents != 2 || sum.Errors != 1 {
			t.Errorf("base %q: %d documents, %d errors:\n%s\nwant 2 documents, 1 error:\n%s", base, sum.Documents, sum.Errors, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestTreeStdinIndex: the children of an index read from standard input
// cannot be looked for (no directory, no URL): one note says they were
// not checked, as --no-children would not, and the index itself is
// judged alone. Each child was a VAL-01 error, so a valid index failed.
func TestTreeStdinIndex(t *testing.T) {
	const site = "https://www.example.com/"
	idx := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>` + site + `a.xml</loc></sitemap>
<sitemap><loc>` + site + `b.xml</loc></sitemap>
</sitemapindex>
`
	var got []string
	sum, err := Tree(context.Background(), []string{"-"}, TreeOptions{
		Input: input.Options{Stdin: strings.NewReader(idx)},
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
			got = append(got, fmt.Sprintf("%d:%d %s %s: %s", d.Line, d.Col, d.Severity, d.Rule, d.Message))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "3:10 info VAL-01: the 2 child sitemaps of an index read from standard input are not checked; give the index as a file (its children beside it) or a URL to check them"
	if sum.Errors != 0 || len(got) != 1 || got[0] != want {
		t.Errorf("%d errors, diagnostics:\n%s\nwant no error and:\n%s", sum.Errors, strings.Join(got, "\n"), want)
	}
}

// A child whose loc names no file (a directory URL) is a VAL-01 error at
// its entry of the index, which the walk says; the other child is
// checked.
func TestTreeChildNamesNoFile(t *testing.T) {
	dir := t.TempDir()
	const site = "https://www.example.com/"
	index := filepath.Join(dir, "sitemap.xml")
	if err := os.WriteFile(index, []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+site+`maps/</loc></sitemap>
<sitemap><loc>`+site+`a.xml</loc></sitemap>
</sitemapindex>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.xml"), []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+site+`p</loc></url></urlset>`), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	sum, err := Tree(context.Background(), []string{index}, TreeOptions{
		Input: input.Options{Base: site},
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
			got = append(got, fmt.Sprintf("%s %d:%d %s %s", filepath.Base(doc.Name), d.Line, d.Col, d.Severity, d.Rule))
		},
	})
	want := []string{"sitemap.xml 2:10 error VAL-01"}
	if err != nil || sum.Documents != 2 || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%d documents, %q, %v; want 2 and %q", sum.Documents, got, err, want)
	}
}
