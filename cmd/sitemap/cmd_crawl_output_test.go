package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/state"
)

// TestCrawlUnwritableOutputCrawlsNothing: an --out or --report that
// cannot be written is refused before the first request (exit 2), not
// found out after a crawl of hours, whose run is then finished and lost.
func TestCrawlUnwritableOutputCrawlsNothing(t *testing.T) {
	site := crawlTestSite(t)
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		resp, err := http.Get(site.URL + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		n, _ := resp.Body.Read(buf)
		w.Write(buf[:n])
	}))
	t.Cleanup(srv.Close)

	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"out is a file", []string{"--out", file}, "--out " + file},
		{"out below a file", []string{"--out", filepath.Join(file, "sub")}, "--out " + filepath.Join(file, "sub")},
		{"report in a missing directory", []string{"--out", filepath.Join(dir, "out"), "--report", filepath.Join(dir, "no", "r.jsonl")}, "--report " + filepath.Join(dir, "no", "r.jsonl")},
		{"dry run, report in a missing directory", []string{"--dry-run", "--report", filepath.Join(dir, "no", "r.jsonl")}, "--report " + filepath.Join(dir, "no", "r.jsonl")},
		{"report is a directory", []string{"--out", filepath.Join(dir, "out"), "--report", dir}, "--report " + dir},
		{"S3 endpoint unreachable", []string{"--out", "s3://bucket/prefix", "--s3-endpoint", "http://127.0.0.1:1"}, "--out s3://bucket/prefix"},
		{"out not writable", []string{"--out", ro}, "--out " + ro},
		{"out below a directory not writable", []string{"--out", filepath.Join(ro, "new")}, "--out " + filepath.Join(ro, "new")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.name, "not writable") && os.Geteuid() == 0 {
				t.Skip("root writes into a directory of mode 0555")
			}
			requests.Store(0)
			t.Setenv("AWS_ACCESS_KEY_ID", "test")
			t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
			args := append([]string{"crawl", srv.URL + "/", "--rate", "0", "--state", filepath.Join(t.TempDir(), "s.db")}, c.args...)
			code, _, stderr := runCLI(t, "", args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d; want 2 and a message naming %q; stderr:\n%s", code, c.want, stderr)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests made; want none before the output is known to be writable", n)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("a refused run left the --out directory it created")
	}
}

// TestCrawlJSONWhenNothingListed: --json prints the crawl's summary on
// standard output even when no page can be listed (a script reads why),
// with no build summary, since nothing was built.
func TestCrawlJSONWhenNothingListed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>home</p>"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", filepath.Join(dir, "out"), "--state", filepath.Join(dir, "s.db"), "--rate", "0", "--json")
	var got struct {
		Crawl *struct {
			Listed  int            `json:"listed"`
			Reasons map[string]int `json:"reasons"`
		} `json:"crawl"`
		Build *json.RawMessage `json:"build"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.Crawl == nil || got.Crawl.Reasons["robots"] != 1 || got.Build != nil {
		t.Errorf("stdout %q (%v); want the crawl summary as JSON, without a build", stdout, err)
	}
	if code != exitProblems || !strings.Contains(stderr, "no page can be listed") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// TestCrawlSiteThatDoesNotAnswer: a START-URL where no server answers
// (a closed port; robots.txt obeyed or ignored) is a crawl that could not
// run: exit 2, saying the site did not answer, with the JSON summary's
// "unreachable". It was exit 1, "no page can be listed", the robots.txt
// failure counted as a page disallowed by robots.txt.
func TestCrawlSiteThatDoesNotAnswer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	start := srv.URL + "/"
	srv.Close() // nothing listens there now
	for _, extra := range [][]string{nil, {"--ignore", "robots"}} {
		dir := t.TempDir()
		args := append([]string{"crawl", start, "--out", filepath.Join(dir, "out"), "--state", filepath.Join(dir, "s.db"), "--rate", "0", "--json"}, extra...)
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "sitemap: the site did not answer ("+start) || !strings.Contains(stderr, "check the URL and that the site is up") {
			t.Errorf("%v: exit %d, stderr %s", extra, code, stderr)
		}
		if !strings.Contains(stdout, `"unreachable": "`+start) {
			t.Errorf("%v: JSON summary without unreachable: %s", extra, stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("%v: --out created", extra)
		}
	}
}

// TestCrawlReplacingAnUnfinishedCrawlSaysSo: a state file holding an
// unfinished crawl of one START-URL, given to a crawl of another (a typo
// on resuming), loses that crawl's progress: the run says so.
func TestCrawlReplacingAnUnfinishedCrawlSaysSo(t *testing.T) {
	srv := crawlTestSite(t)
	db := filepath.Join(t.TempDir(), "s.db")
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, db, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const other = "https://www.example.com/"
	if _, err := st.Crawl().Begin(ctx, other, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.Crawl().Update(ctx, func(tx state.CrawlTx) error { return tx.Enqueue(ctx, state.CrawlLink{Loc: other}) }); err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", t.TempDir(), "--state", db, "--rate", "0")
	if !strings.Contains(stderr, "held an unfinished crawl of "+other) {
		t.Errorf("stderr does not say the unfinished crawl of %s was replaced:\n%s", other, stderr)
	}
}

// TestCrawlOneThingOnStandardOutput: --report - shares standard output
// with neither the sitemap (--out -) nor the JSON summary (--json): the
// two would be mixed into one stream no program can read. Refused, before
// a request, saying what to do.
func TestCrawlOneThingOnStandardOutput(t *testing.T) {
	srv := crawlTestSite(t)
	for _, args := range [][]string{
		{"--out", "-", "--report", "-"},
		{"--out", t.TempDir(), "--report", "-", "--json"},
	} {
		all := append([]string{"crawl", srv.URL + "/", "--rate", "0", "--state", filepath.Join(t.TempDir(), "s.db")}, args...)
		code, stdout, stderr := runCLI(t, "", all...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "--report FILE") {
			t.Errorf("%v: exit %d, stdout %q, stderr %s; want 2, nothing on stdout and a message naming --report FILE", args, code, stdout, stderr)
		}
	}
}

// TestCrawlNegativeLimits: a negative --rate, --max-depth, --max-pages,
// --max-time, --max-query-variants or --timeout is refused (their help
// gives 0 as "no limit"; a negative one crawled without a limit in
// silence).
func TestCrawlNegativeLimits(t *testing.T) {
	srv := crawlTestSite(t)
	for _, flag := range []string{"--rate", "--max-depth", "--max-pages", "--max-query-variants"} {
		code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", t.TempDir(), "--state", filepath.Join(t.TempDir(), "s.db"), flag, "-1")
		if code != exitUsage || !strings.Contains(stderr, flag) {
			t.Errorf("%s -1: exit %d, %s; want 2 and a message naming the flag", flag, code, stderr)
		}
	}
	for _, flag := range []string{"--max-time", "--timeout"} {
		code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", t.TempDir(), "--state", filepath.Join(t.TempDir(), "s.db"), flag, "-1s")
		if code != exitUsage || !strings.Contains(stderr, flag) {
			t.Errorf("%s -1s: exit %d, %s; want 2 and a message naming the flag", flag, code, stderr)
		}
	}
}
