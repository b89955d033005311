package audit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// With History, each run records what it saw in the state, and the
// second compares: here the sitemap's lastmod moves at every build while
// the page's main content stays the same (only its footer changes).
func ExampleOptions_history() {
	build := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var served atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/</loc><lastmod>%s</lastmod></url></urlset>`,
				srv.URL, build.Format(time.RFC3339))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>Home</title></head><body><main>Welcome</main><footer>visit %d</footer></body></html>", served.Add(1))
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
	for run := 1; run <= 2; run++ {
		now := func() time.Time { return build.Add(12 * time.Hour) } // the run's time
		a, err := audit.New(ctx, st.Audit(), []string{srv.URL + "/sitemap.xml"}, audit.Options{HTTP: client, Rate: -1, History: true, Now: now})
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
		fmt.Printf("run %d: %d honest, %d churning, %d new; %v\n", run, tally.History.Honest, tally.History.Churning, tally.History.New, err)
		build = build.Add(24 * time.Hour) // the next build stamps the page again
	}
	// Output:
	// run 1: 0 honest, 0 churning, 1 new; <nil>
	// https://www.example.com/: warning AUD-27: lastmod moved from 2026-01-01T00:00:00Z to 2026-01-02T00:00:00Z since the run of 2026-01-01T12:00:00Z, but the main content is the same
	// run 2: 0 honest, 1 churning, 0 new; <nil>
}

// WriteSite writes the history's verdict on the site after the records:
// as JSONL, one line that has "site" where a record has "url".
func ExampleOutput_WriteSite() {
	o, _ := audit.NewOutput(os.Stdout, "jsonl", nil)
	score := 75.0
	o.WriteSite(&audit.SiteHistory{Site: "https://www.example.com/", Honest: 3, Churning: 1, Score: &score,
		SharedLastMod: "2026-01-01", Shared: 4, WithLastMod: 4, Findings: []audit.Finding{rules.AUD30.Problem("4 listed URLs of 4 with a lastmod share lastmod 2026-01-01")}})
	o.Close()
	// Output:
	// {"site":"https://www.example.com/","honest":3,"churning":1,"stale":0,"new":0,"unknown":0,"score":75,"shared_lastmod":"2026-01-01","shared":4,"with_lastmod":4,"findings":[{"rule":"AUD-30","severity":"warning","message":"4 listed URLs of 4 with a lastmod share lastmod 2026-01-01"}]}
}
