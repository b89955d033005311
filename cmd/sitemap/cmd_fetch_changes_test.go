package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFetchChanges: fetch --changes prints the diff records of what
// changed since the last run with the same --state; --since keeps the
// entries whose lastmod is after it; the flags that do not go together
// are refused (exit 2).
func TestFetchChanges(t *testing.T) {
	var version atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := fmt.Sprintf(`"v%d"`, version.Load())
		if r.Header.Get("If-None-Match") == v {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", v)
		b := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>2026-11-02</lastmod></url>`
		if version.Load() > 0 {
			b += `<url><loc>https://www.example.com/b</loc><lastmod>2026-11-20</lastmod></url>`
		}
		w.Write([]byte(b + `</urlset>`))
	}))
	defer srv.Close()
	st := filepath.Join(t.TempDir(), "state.db")
	run := func(args ...string) (int, []map[string]any, string) {
		t.Helper()
		code, out, errOut := runCLI(t, "", append([]string{"fetch", "--changes", "--state", st}, append(args, srv.URL+"/sitemap.xml")...)...)
		var recs []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if l != "" && json.Unmarshal([]byte(l), &m) != nil {
				t.Fatalf("not JSON: %q", l)
			}
			if l != "" {
				recs = append(recs, m)
			}
		}
		return code, recs, errOut
	}
	if code, recs, errOut := run(); code != exitOK || len(recs) != 1 || recs[0]["change"] != "added" || !strings.Contains(errOut, "1 added") {
		t.Fatalf("first run: exit %d, %v\n%s", code, recs, errOut)
	}
	if code, recs, errOut := run(); code != exitOK || len(recs) != 0 || !strings.Contains(errOut, "1 not modified") {
		t.Fatalf("unchanged: exit %d, %v\n%s", code, recs, errOut)
	}
	version.Store(1)
	code, recs, errOut := run("--since", "2026-11-10")
	if code != exitOK || len(recs) != 1 || recs[0]["loc"] != "https://www.example.com/b" || recs[0]["change"] != "added" {
		t.Fatalf("changed, --since: exit %d, %v\n%s", code, recs, errOut)
	}
	code, out, errOut := runCLI(t, "", "fetch", "--since", "2026-11-10", srv.URL+"/sitemap.xml")
	if code != exitOK || out != "https://www.example.com/b\n" {
		t.Fatalf("fetch --since: exit %d, %q\n%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"fetch", "--changes", srv.URL + "/sitemap.xml"},
		{"fetch", "--state", st, "--changes", "--tree", srv.URL + "/sitemap.xml"},
		{"fetch", "--changes", "--state", st, "--full-every", "often", srv.URL + "/sitemap.xml"},
		{"fetch", "--since", "yesterday", srv.URL + "/sitemap.xml"},
		{"fetch", "--since", "24h", "--tree", srv.URL + "/sitemap.xml"},
		{"fetch", "--changes", "--state", st, "--cache", t.TempDir(), srv.URL + "/sitemap.xml"},
	} {
		if code, _, errOut := runCLI(t, "", args...); code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, want %d with one line:\n%s", args, code, exitUsage, errOut)
		}
	}
}
