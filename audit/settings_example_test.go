package audit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/fetch"
)

// Check refuses settings that cannot work, naming the flag.
func ExampleSettings_Check() {
	s := audit.Settings{Format: "text", Concurrency: 4}
	fmt.Println(s.Check([]string{"https://www.example.com/"}))
	s.History = true
	fmt.Println(s.Check([]string{"https://www.example.com/"}))
	// Output:
	// <nil>
	// --history compares with earlier runs: give --state FILE (or --resume) to keep them
}

// Options are the audit.New options the settings make: no limit for a
// rate of 0.
func ExampleSettings_Options() {
	o := audit.Settings{Concurrency: 8, Rate: 0, Crawl: true, CrawlMaxPages: 500}.Options()
	fmt.Println(o.Concurrency, o.Rate, o.Crawl.MaxPages)
	// Output: 8 -1 500
}

// StateFile is where a run keeps its state: with Resume, a file of the
// user's state directory that the same audit finds again.
func ExampleSettings_StateFile() {
	home, _ := os.MkdirTemp("", "audit-state")
	defer os.RemoveAll(home)
	os.Setenv("SITEMAP_STATE_DIR", home)
	defer os.Unsetenv("SITEMAP_STATE_DIR")
	rs, err := audit.Settings{Resume: true}.StateFile([]string{"https://www.example.com/"})
	defer rs.Release()
	fmt.Println(strings.HasPrefix(rs.Path, home), rs.Created, err)
	fmt.Println(strings.HasPrefix(rs.Note, "audit state: "))
	// Output:
	// true true <nil>
	// true
}

// Run is `sitemap audit` as one call: the records on Out, the summary
// and the closing lines on Err.
func ExampleSettings_Run() {
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
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	var out, errw strings.Builder
	s := audit.Settings{Format: "text", Concurrency: 2}
	problems, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, audit.Env{HTTP: client, Out: &out, Err: &errw})
	fmt.Print(strings.ReplaceAll(out.String(), srv.URL, "https://www.example.com"))
	fmt.Println(problems, err, strings.HasSuffix(errw.String(), "sitemap: 1 URL with errors\n"))
	// Output:
	// https://www.example.com/gone: error AUD-03: answers 404 Not Found; remove it or restore the page
	// true <nil> true
}

// WriteStates lists the audit states --resume kept.
func ExampleWriteStates() {
	home, _ := os.MkdirTemp("", "audit-state")
	defer os.RemoveAll(home)
	os.Setenv("SITEMAP_STATE_DIR", home)
	defer os.Unsetenv("SITEMAP_STATE_DIR")
	fmt.Println(audit.WriteStates(os.Stdout, os.Stdout))
	// Output:
	// sitemap: no audit state kept (only audits run with --resume keep one)
	// <nil>
}

// Forget removes the state --resume kept for an audit.
func ExampleForget() {
	home, _ := os.MkdirTemp("", "audit-state")
	defer os.RemoveAll(home)
	os.Setenv("SITEMAP_STATE_DIR", home)
	defer os.Unsetenv("SITEMAP_STATE_DIR")
	fmt.Println(audit.Forget(os.Stdout, "", []string{"https://www.example.com/"}))
	// Output:
	// sitemap: no audit state kept for https://www.example.com/ (only audits run with --resume keep one; --list-states lists them)
	// <nil>
}
