package validate

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// treeOnceSite writes an index (sitemap.xml) listing sitemap-1.xml,
// sitemap-2.xml (which lists a URL of sitemap-1.xml again) and
// sitemap-3.xml (itself an index), beside a sitemap no index lists
// (news.xml).
func treeOnceSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	const site = "https://www.example.com/"
	urlset := func(locs ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, l := range locs {
			b.WriteString("<url><loc>" + site + l + "</loc></url>\n")
		}
		return b.String() + "</urlset>\n"
	}
	for name, body := range map[string]string{
		"sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>` + site + `sitemap-1.xml</loc></sitemap>
<sitemap><loc>` + site + `sitemap-2.xml</loc></sitemap>
<sitemap><loc>` + site + `sitemap-3.xml</loc></sitemap>
</sitemapindex>
`,
		"sitemap-1.xml": urlset("a", "b"),
		"sitemap-2.xml": urlset("c", "b"),
		"sitemap-3.xml": `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>` + site + `sitemap-1.xml</loc></sitemap>
</sitemapindex>
`,
		"news.xml": urlset("n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTreeChecksEachDocumentOnce: a directory is judged as its index is
// (L-17 across the index, I-07 for a nested index), and a document named
// again, or named after an index that lists it, is checked once. Before,
// the directory's children were checked alone (no L-17, sitemap-3.xml
// read as an index of its own), and a named child was checked twice.
func TestTreeChecksEachDocumentOnce(t *testing.T) {
	dir := treeOnceSite(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		names []string
		docs  []string // in the order checked
	}{
		{[]string{dir}, []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml", "news.xml"}},
		{[]string{p("sitemap.xml")}, []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"}},
		{[]string{p("sitemap.xml"), p("sitemap-2.xml"), p("sitemap.xml"), p("news.xml")}, []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml", "news.xml"}},
	} {
		var diags, docs []string
		sum, err := Tree(context.Background(), tc.names, TreeOptions{
			Input: input.Options{Base: "https://www.example.com/"},
			OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
				diags = append(diags, fmt.Sprintf("%s %d:%d %s %s", filepath.Base(doc.Name), d.Line, d.Col, d.Severity, d.Rule))
			},
			OnDocument: func(r DocResult) error {
				docs = append(docs, filepath.Base(r.Doc.Name))
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"sitemap-2.xml 4:6 warning L-17", "sitemap.xml 5:10 error I-07"}
		if strings.Join(diags, "\n") != strings.Join(want, "\n") || strings.Join(docs, " ") != strings.Join(tc.docs, " ") || sum.Documents != len(tc.docs) {
			t.Errorf("%v: %d documents %v, diagnostics:\n%s\nwant documents %v and:\n%s", tc.names, sum.Documents, docs, strings.Join(diags, "\n"), tc.docs, strings.Join(want, "\n"))
		}
	}
}

// TestTreeRedirectToChecked: a child that redirects to a sitemap checked
// already is checked once, with the walk's FETCH-DUP note at its <loc>.
func TestTreeRedirectToChecked(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := srv.URL + "/"
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+site+`a.xml</loc></sitemap>
<sitemap><loc>`+site+`old.xml</loc></sitemap>
</sitemapindex>`)
	})
	mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+site+`a</loc></url></urlset>`)
	})
	mux.HandleFunc("/old.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/a.xml", http.StatusMovedPermanently)
	})
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var diags []string
	sum, err := Tree(context.Background(), []string{site + "index.xml"}, TreeOptions{
		Input: input.Options{Client: client},
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
			diags = append(diags, fmt.Sprintf("%d:%d %s %s: %s", d.Line, d.Col, d.Severity, d.Rule, d.Message))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "3:10 info FETCH-DUP: " + site + "index.xml lists " + site + "old.xml, which redirects to " + site + "a.xml, already read (first listed by " + site + "index.xml); read once"
	if sum.Documents != 2 || len(diags) != 1 || diags[0] != want {
		t.Errorf("%d documents, diagnostics %q; want 2 and %q", sum.Documents, diags, want)
	}
}
