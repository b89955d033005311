package audit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
)

// WriteRecords prints what the audit found, one line per finding, after
// Run requested every listed URL.
func ExampleAuditor_WriteRecords() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/</loc></url><url><loc>%[1]s/gone</loc></url></urlset>`, srv.URL)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Home</title></head><body>Home</body></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, filepath.Join(dir, "audit.db"), state.SQLiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	a, err := audit.New(ctx, st.Audit(), []string{srv.URL + "/sitemap.xml"}, audit.Options{HTTP: client, Rate: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := a.Run(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out strings.Builder
	tally, err := a.WriteRecords(ctx, sum, &out, "text", nil, false)
	fmt.Print(strings.ReplaceAll(out.String(), srv.URL, "https://www.example.com"))
	fmt.Println(tally.Records, "records,", tally.Errors, "with errors,", err)
	// Output:
	// https://www.example.com/gone: error AUD-03: answers 404 Not Found; remove it or restore the page
	// 2 records, 1 with errors, <nil>
}

// A DiagnosticPrinter shows the problems reading the sitemaps, notes
// left out, and counts the errors.
func ExampleDiagnosticPrinter() {
	p := &audit.DiagnosticPrinter{W: os.Stdout, Max: 1}
	p.Print(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "loc is not an absolute URL", File: "a.xml", Line: 3})
	p.Print(sitemap.Diagnostic{Rule: "I-05", Severity: sitemap.SeverityInfo, Message: "not fetched", File: "a.xml", Line: 4})
	p.Print(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "loc is not an absolute URL", File: "a.xml", Line: 5})
	p.End()
	fmt.Println(p.Errors, "errors")
	// Output:
	// a.xml:3: error L-01: loc is not an absolute URL
	// sitemap: 1 more problems reading the sitemaps not shown (sitemap validate lists them)
	// 2 errors
}
