package diff_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/state"
)

// A crawler asks, run after run, what changed on a site: the first run
// lists every entry as added, the next ones only what changed (here, a
// sitemap answering 304: nothing).
func ExampleChanges() {
	body := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>2026-11-02</lastmod></url></urlset>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(body))
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "changes")
	defer os.RemoveAll(dir)
	st, err := state.Open(context.Background(), filepath.Join(dir, "state.db"), state.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	for range 2 {
		sum, err := diff.Changes(context.Background(), srv.URL+"/sitemap.xml", st.Changes(), diff.ChangesOptions{},
			func(c diff.Change) error {
				fmt.Println(c.Change, c.Loc)
				return nil
			})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(strings.Split(sum.String(), " (")[0], "; not modified:", sum.NotModified)
	}
	// Output:
	// added https://www.example.com/a
	// 1 added, 0 removed, 0 modified ; not modified: 0
	// 0 added, 0 removed, 0 modified ; not modified: 1
}

// The value of `fetch --full-every`: runs, or a duration (the runs then
// -1: never by count).
func ExampleParseFullEvery() {
	for _, s := range []string{"10", "168h"} {
		runs, after, _ := diff.ParseFullEvery(s)
		fmt.Println(runs, after)
	}
	// Output:
	// 10 0s
	// -1 168h0m0s
}

// `sitemap fetch --changes` as one call: the changes as JSONL on out,
// the summary on diag.
func ExampleRunChanges() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`))
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "changes")
	defer os.RemoveAll(dir)
	var out, diag strings.Builder
	_, err := diff.RunChanges(context.Background(), srv.URL+"/sitemap.xml", filepath.Join(dir, "state.db"),
		diff.ChangesRunOptions{}, &out, &diag)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Print(strings.ReplaceAll(out.String(), srv.URL, "SRV"))
	fmt.Println(strings.SplitN(diag.String(), ",", 2)[0])
	// Output:
	// {"change":"added","loc":"https://www.example.com/a","new":{"loc":"https://www.example.com/a","source":"SRV/sitemap.xml"}}
	// fetch: 1 added
}
