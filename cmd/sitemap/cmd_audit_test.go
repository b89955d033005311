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
	"testing"
)

// auditSite serves a small site: robots.txt naming a sitemap of seven
// pages, one of them a 404, one a redirect, one noindex, one linked from
// nowhere (/lonely); every page links to /a, /b and /unlisted, which no
// sitemap lists.
func auditSite(t *testing.T) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html := func(body string) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><html><head><title>t</title>%s</head><body><a href="/a">a</a> <a href="/b">b</a> <a href="/unlisted">u</a></body></html>`, body)
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", srv.URL)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range []string{"/", "/a", "/b", "/old", "/gone", "/hidden", "/lonely"} {
				fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", srv.URL, p)
			}
			fmt.Fprint(w, "</urlset>")
		case "/", "/a", "/b", "/lonely", "/unlisted":
			html("")
		case "/old":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case "/hidden":
			html(`<meta name="robots" content="noindex">`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAuditCommandJSONL(t *testing.T) {
	srv := auditSite(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "audit.html")
	code, out, stderr := runCLI(t, "", "audit", srv.URL+"/", "--format", "jsonl", "--rate", "0", "--state", filepath.Join(dir, "s.db"), "--report", report)
	if code != exitProblems {
		t.Fatalf("exit %d, want 1 (a 404 is an error)\n%s", code, stderr)
	}
	classes := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var r struct {
			URL      string            `json:"url"`
			Status   int               `json:"status"`
			Class    string            `json:"class"`
			Findings []json.RawMessage `json:"findings"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		if r.Findings == nil {
			t.Errorf("%s: findings is not an array: %s", r.URL, sc.Bytes())
		}
		classes[strings.TrimPrefix(r.URL, srv.URL)] = r.Class
	}
	want := map[string]string{"/": "AUD-01", "/a": "AUD-01", "/b": "AUD-01", "/old": "AUD-02", "/gone": "AUD-03", "/hidden": "AUD-07", "/lonely": "AUD-01"}
	if fmt.Sprint(classes) != fmt.Sprint(want) {
		t.Errorf("classes %v, want %v", classes, want)
	}
	for _, s := range []string{"7 listed URLs, 7 audited", "AUD-01 info    ok", "AUD-03 error   not found (404)", "3 URLs with errors"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	b, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(b), `data-rule="AUD-03"><button type="button" data-rule="AUD-03">1</button>`) {
		t.Errorf("report: %v\n%.2000s", err, b)
	}
}

// Local files are audited at --site, a sample of each sitemap when asked
// for, with the text output one line per finding.
func TestAuditCommandLocalSample(t *testing.T) {
	srv := auditSite(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, p := range []string{"/", "/a", "/b", "/gone"} {
		fmt.Fprintf(&b, "<url><loc>%s%s</loc></url>", srv.URL, p)
	}
	b.WriteString("</urlset>")
	sm := filepath.Join(dir, "sitemap.xml")
	writeFile(t, sm, b.String())
	code, out, stderr := runCLI(t, "", "audit", sm, "--site", srv.URL+"/", "--rate", "0", "--state", filepath.Join(dir, "s.db"))
	if code != exitProblems || out != srv.URL+"/gone: error AUD-03: answers 404 Not Found; remove it or restore the page\n" {
		t.Fatalf("exit %d, out %q\n%s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "", "audit", sm, "--site", srv.URL+"/", "--rate", "0", "--sample", "2", "--format", "jsonl", "--state", filepath.Join(dir, "s2.db"))
	if code == exitUsage || strings.Count(out, "\n") != 2 || !strings.Contains(stderr, "4 listed URLs, 2 audited (a uniform random sample of at most 2 per sitemap)") {
		t.Fatalf("sample: exit %d, out %q\n%s", code, out, stderr)
	}
	// A URL of another site than --site is outside the file's scope.
	writeFile(t, sm, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://other.example/x</loc></url></urlset>`)
	code, out, _ = runCLI(t, "", "audit", sm, "--site", srv.URL+"/", "--state", filepath.Join(dir, "s3.db"))
	if code != exitProblems || !strings.Contains(out, "error AUD-15") {
		t.Fatalf("scope: exit %d, out %q", code, out)
	}
}

// A homepage where no sitemap is found, or a sitemap listing no URL, is a
// problem found (exit 1), as in fetch and validate; a directory given to
// --report is refused before any request.
func TestAuditCommandNoURL(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	empty := filepath.Join(dir, "empty.xml")
	writeFile(t, empty, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`)
	for _, args := range [][]string{
		{"audit", srv.URL + "/", "--state", filepath.Join(dir, "a.db")},
		{"audit", empty, "--site", srv.URL + "/", "--state", filepath.Join(dir, "b.db")},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitProblems || strings.Count(stderr, "no URL") != 1 {
			t.Errorf("%q: exit %d, want 1, and one message\n%s", args, code, stderr)
		}
	}
	code, _, stderr := runCLI(t, "", "audit", srv.URL+"/", "--state", filepath.Join(dir, "c.db"), "--report", dir)
	if code != exitUsage || !strings.Contains(stderr, "is a directory") || strings.Contains(stderr, "FETCH-NONE") {
		t.Errorf("--report DIR: exit %d\n%s", code, stderr)
	}
}

// A report is written whole or not at all: an audit that fails leaves
// no report, and the report of an earlier run stays as it was.
func TestAuditCommandReportNotTruncated(t *testing.T) {
	dir := t.TempDir()
	srv := auditSite(t)
	report := filepath.Join(dir, "audit.html")
	code, _, stderr := runCLI(t, "", "audit", srv.URL+"/no-sitemap.xml", "--state", filepath.Join(dir, "a.db"), "--report", report)
	if _, err := os.Stat(report); code != exitUsage || !os.IsNotExist(err) {
		t.Fatalf("failed audit: exit %d, report: %v\n%s", code, err, stderr)
	}
	writeFile(t, report, "earlier report")
	runCLI(t, "", "audit", srv.URL+"/no-sitemap.xml", "--state", filepath.Join(dir, "b.db"), "--report", report)
	if b, err := os.ReadFile(report); err != nil || string(b) != "earlier report" {
		t.Errorf("the earlier report became %q (%v)", b, err)
	}
	// A failed audit keeps no state it created (nothing to resume).
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left in the directory: %q, want audit.html alone", names)
	}
	code, _, stderr = runCLI(t, "", "audit", srv.URL+"/", "--rate", "0", "--state", filepath.Join(dir, "c.db"), "--report", report)
	if b, err := os.ReadFile(report); code != exitProblems || err != nil || !strings.Contains(string(b), "AUD-03") {
		t.Errorf("exit %d, report %.200q (%v)\n%s", code, b, err, stderr)
	}
	if fi, err := os.Stat(report); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("report mode: %v %v", fi, err)
	}
}

func TestAuditCommandCannotRun(t *testing.T) {
	dir := t.TempDir()
	srv := auditSite(t)
	for _, args := range [][]string{
		{"audit", "no-such-file.xml"},
		{"audit", srv.URL + "/no-sitemap.xml", "--state", filepath.Join(dir, "a.db")},
		{"audit", "https://e.com/", "--format", "csv"},
		{"audit", "x.xml", "--crawl"},
		{"audit", "https://e.com/", "--site", "https://e.com/"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
	// Said as every command says it: "sitemap: …", not "sitemap: audit: …".
	code, _, stderr := runCLI(t, "", "audit", srv.URL+"/no-sitemap.xml", "--state", filepath.Join(dir, "b.db"))
	if code != exitUsage || !strings.Contains(stderr, "\nsitemap: "+srv.URL+"/no-sitemap.xml: HTTP 404") || strings.Contains(stderr, "sitemap: audit:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// --crawl adds the page the site links to that no sitemap lists, and the
// listed page no link reaches.
func TestAuditCommandCrawl(t *testing.T) {
	srv := auditSite(t)
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "", "audit", srv.URL+"/sitemap.xml", "--crawl", "--rate", "0", "--state", filepath.Join(dir, "s.db"))
	if code != exitProblems {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		srv.URL + "/lonely: warning AUD-18: ",
		srv.URL + "/unlisted: warning AUD-17: linked from " + srv.URL + "/ at click depth 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "AUD-17") != 1 || strings.Count(out, "AUD-18") != 1 || !strings.Contains(stderr, "the crawl fetched") {
		t.Errorf("output:\n%s\nstderr:\n%s", out, stderr)
	}
}

// TestAuditCommandUnreadableSitemap: an index whose child sitemap cannot
// be read is a problem found, exit 1, as in every command, even when each
// URL that could be read is fine; the summary says the audit covers only
// what was read. It exited 0, "nothing wrong", for a partial audit.
func TestAuditCommandUnreadableSitemap(t *testing.T) {
	srv := auditSite(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "index.xml"), `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
		`<sitemap><loc>`+srv.URL+`/good.xml</loc></sitemap><sitemap><loc>`+srv.URL+`/gone.xml</loc></sitemap></sitemapindex>`)
	writeFile(t, filepath.Join(dir, "good.xml"), urlset(srv.URL+"/", srv.URL+"/a"))
	code, out, stderr := runCLI(t, "", "audit", filepath.Join(dir, "index.xml"), "--site", srv.URL+"/", "--rate", "0", "--state", filepath.Join(dir, "s.db"))
	if code != exitProblems || out != "" || !strings.Contains(stderr, "error VAL-01") ||
		!strings.Contains(stderr, "by its path under --site") || strings.Contains(stderr, "--base") ||
		!strings.Contains(stderr, "sitemap: 1 error reading the sitemaps (above); a sitemap that could not be read is not audited\n") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
}

// TestAuditCommandReportNoDirectory: a --report in a directory that does
// not exist is refused before any request, naming the directory; the
// message named the temporary file beside the report instead
// ("open nodir/.r.html.4017699451.tmp").
func TestAuditCommandReportNoDirectory(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "nodir", "r.html")
	code, _, stderr := runCLI(t, "", "audit", "https://e.com/", "--report", report, "--state", filepath.Join(dir, "s.db"))
	want := "sitemap: --report " + report + ": no directory " + filepath.Join(dir, "nodir") + "; create it first\n"
	if code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr %q\nwant %q", code, stderr, want)
	}
}
