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

// crawlTestSite: a home page linking to two pages, a noindex page, a 404
// and a robots-disallowed page.
func crawlTestSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := func(head, body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<html><head>%s</head><body>%s</body></html>", head, body)
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /admin\n")
		case "/":
			page("", `<a href="/a">a</a><a href="/b">b</a><a href="/hidden">h</a><a href="/gone">g</a><a href="/admin">x</a>`)
		case "/a":
			page(`<link rel="alternate" hreflang="en" href="/a"><link rel="alternate" hreflang="de" href="/b">`, `<img src="/a.png">`)
		case "/b":
			page(`<link rel="alternate" hreflang="en" href="/a"><link rel="alternate" hreflang="de" href="/b">`, "")
		case "/hidden":
			page(`<meta name="robots" content="noindex">`, "")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlCommand: sitemap crawl publishes the listed pages (sorted,
// with alternates and images), writes the report, counts reasons on
// standard error and exits 1 because of the 404.
func TestCrawlCommand(t *testing.T) {
	srv := crawlTestSite(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "crawl.jsonl")
	code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", dir, "--report", report, "--rate", "0")
	if code != exitProblems {
		t.Fatalf("exit %d; want 1 (a linked 404); stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"5 pages fetched", "3 listed, 3 left out", "noindex", "robots", "status:404", "1 URL failed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{
		"<loc>" + srv.URL + "/</loc>",
		"<loc>" + srv.URL + "/a</loc>",
		"<loc>" + srv.URL + "/b</loc>",
		`hreflang="de" href="` + srv.URL + `/b"`,
		"<image:loc>" + srv.URL + "/a.png</image:loc>",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("sitemap lacks %s:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "/hidden") || strings.Contains(doc, "/gone") || strings.Contains(doc, "/admin") || strings.Contains(doc, "<lastmod>") {
		t.Errorf("sitemap lists what it should not (or a lastmod the crawl cannot know):\n%s", doc)
	}
	if i, j := strings.Index(doc, srv.URL+"/a<"), strings.Index(doc, srv.URL+"/b<"); i < 0 || j < i {
		t.Errorf("entries not sorted by URL")
	}

	f, err := os.Open(report)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("report line %q: %v", sc.Text(), err)
		}
		got[strings.TrimPrefix(m["url"].(string), srv.URL)] = m
	}
	if len(got) != 6 {
		t.Errorf("report has %d URLs; want 6: %v", len(got), got)
	}
	if m := got["/gone"]; m["reason"] != "status:404" || m["status"] != 404.0 || m["included"] != false || m["from"] != srv.URL+"/" || m["depth"] != 1.0 {
		t.Errorf("/gone report line %v", m)
	}
	if m := got["/admin"]; m["reason"] != "robots" || m["status"] != nil {
		t.Errorf("/admin report line %v", m)
	}
	if m := got["/a"]; m["included"] != true || m["reason"] != nil {
		t.Errorf("/a report line %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, ".sitemap-state.db")); err != nil {
		t.Errorf("default state file: %v", err)
	}
}

// TestCrawlCommandFlags: bad flags exit 2 and say what to do.
func TestCrawlCommandFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"crawl", "www.example.com"}, "not an absolute http(s) URL"},
		{[]string{"crawl", "https://www.example.com/", "--query", "drop"}, "--query"},
		{[]string{"crawl", "https://www.example.com/", "--include", "("}, "RE2"},
		{[]string{"crawl", "https://www.example.com/", "--ignore", "everything"}, "--ignore"},
		{[]string{"crawl"}, "arg"},
	} {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}
