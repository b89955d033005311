package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAuditCommandHistory: `sitemap audit --history --state FILE` run
// twice on a site whose footers count requests and whose sitemap stamps
// every page with the build time: the first run records, the second
// reports /stale (content changed, lastmod not: AUD-28) and /churn
// (lastmod moved, content not: AUD-27) and no other page, the build-time
// stamp of the site (AUD-30) as the JSONL's last line, the score on
// standard error and the chart in the report. Without a state kept
// between runs, --history cannot run.
func TestAuditCommandHistory(t *testing.T) {
	testAuditHistory(t, filepath.Join(t.TempDir(), "audit.db"))
}

// testAuditHistory runs TestAuditCommandHistory with the state st.
func testAuditHistory(t *testing.T, st string) {
	var build atomic.Int64
	var hits atomic.Int64
	stamp := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	pages := []string{"/", "/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h", "/i", "/stale", "/churn"}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", srv.URL)
		case "/sitemap.xml":
			fmt.Fprint(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range pages {
				lm := stamp
				if p == "/churn" {
					lm = lm.Add(time.Duration(build.Load()+1) * time.Minute * 10)
				}
				fmt.Fprintf(w, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>", srv.URL, p, lm.Format(time.RFC3339))
			}
			fmt.Fprint(w, "</urlset>")
		default:
			text := "page " + r.URL.Path
			if r.URL.Path == "/stale" {
				text += fmt.Sprintf(" edition %d", build.Load())
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><html><head><title>t</title></head><body><main>%s</main><footer>request %d</footer></body></html>`, text, hits.Add(1))
		}
	}))
	t.Cleanup(srv.Close)
	report := filepath.Join(t.TempDir(), "audit.html")
	audit := func() (map[string][]string, string, string) {
		t.Helper()
		code, out, stderr := runCLI(t, "", "audit", srv.URL+"/", "--history", "--state", st, "--format", "jsonl", "--rate", "0", "--report", report)
		if code != exitOK {
			t.Fatalf("exit %d, want 0 (the history's findings are warnings)\n%s", code, stderr)
		}
		found := map[string][]string{}
		site := ""
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var r struct {
				URL      string `json:"url"`
				Site     string `json:"site"`
				Findings []struct {
					Rule string `json:"rule"`
				} `json:"findings"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%v: %s", err, sc.Bytes())
			}
			if r.Site != "" {
				site = sc.Text()
				continue
			}
			for _, f := range r.Findings {
				found[strings.TrimPrefix(r.URL, srv.URL)] = append(found[strings.TrimPrefix(r.URL, srv.URL)], f.Rule)
			}
		}
		return found, site, stderr
	}
	found, site, stderr := audit()
	if len(found) != 0 || !strings.Contains(site, `"rule":"AUD-30"`) || !strings.Contains(stderr, "lastmod history: no URL compared yet") {
		t.Errorf("first run: found %v, site %s\n%s", found, site, stderr)
	}
	build.Add(1)
	found, site, stderr = audit()
	if fmt.Sprint(found) != "map[/churn:[AUD-27] /stale:[AUD-28]]" {
		t.Errorf("second run found %v; want /churn AUD-27 and /stale AUD-28 only", found)
	}
	if !strings.Contains(site, `"honest":10,"churning":1,"stale":1,`) || !strings.Contains(stderr, "10 honest, 1 churning, 1 stale of 12 URLs compared with an earlier run (83% honest)") {
		t.Errorf("second run: site %s\n%s", site, stderr)
	}
	if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), `<table id="history-chart">`) {
		t.Errorf("report: %v", err)
	}
	if code, _, stderr := runCLI(t, "", "audit", srv.URL+"/", "--history"); code != exitUsage || !strings.Contains(stderr, "--state FILE") {
		t.Errorf("--history without a state: exit %d\n%s", code, stderr)
	}
}
