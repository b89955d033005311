package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/crawl"
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
	if _, err := os.Stat(filepath.Join(dir, ".sitemap-state.db")); err == nil {
		t.Errorf("the state file is in the published directory")
	}
}

// TestCrawlDryRunWritesNothing: --dry-run creates no --out directory and
// no state file, and leaves an existing state file and sitemap as they
// were (it crawls with a copy of the state).
func TestCrawlDryRunWritesNothing(t *testing.T) {
	srv := crawlTestSite(t)
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0", "--dry-run"); code != exitProblems || !strings.Contains(stderr, "dry run, nothing written") {
		t.Fatalf("dry run: exit %d; want 1 (a linked 404)\n%s", code, stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("dry run created %s (%v)", out, err)
	}
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0"); code != exitProblems {
		t.Fatalf("real run: exit %d\n%s", code, stderr)
	}
	read := func() map[string]string {
		files := map[string]string{}
		ents, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(out, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(b)
		}
		return files
	}
	before := read()
	if len(before) != 1 || before["sitemap.xml"] == "" {
		t.Fatalf("the real run wrote %d files; want sitemap.xml alone", len(before))
	}
	state := stateOf(t, out)
	stateBefore, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0", "--dry-run"); code != exitProblems {
		t.Fatalf("second dry run: exit %d\n%s", code, stderr)
	}
	after := read()
	if len(after) != len(before) {
		t.Errorf("dry run changed the files of %s: %d before, %d after", out, len(before), len(after))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("dry run changed %s", name)
		}
	}
	if b, err := os.ReadFile(state); err != nil || string(b) != string(stateBefore) {
		t.Errorf("dry run changed the state file %s (%v)", state, err)
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
		{[]string{"crawl", "https://www.example.com/", "--image-hosts", "ftp://x"}, "--image-hosts: image host \"ftp://x\": give the host name alone: x"},
		{[]string{"crawl"}, "crawl needs START-URL"},
		// Refused before the crawl, not when its pages are published.
		{[]string{"crawl", "https://www.example.com/", "--dry-run", "--base-url", "ftp://www.example.com/"}, `--base-url "ftp://www.example.com/" is not an absolute http(s) URL`},
	} {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestCrawlCommandInterruptResume: an interrupted crawl (Ctrl-C: the
// context ends) publishes nothing and keeps its state; the same command
// resumes it and publishes the same sitemap as an uninterrupted crawl.
func TestCrawlCommandInterruptResume(t *testing.T) {
	var hits atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 8 {
			cancel() // the user presses Ctrl-C during the eighth request
		}
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p"))
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%d</title><a href="/p%d">next</a> <a href="/p%d">other</a>`, n, (n+1)%30, (n*7+3)%30)
	}))
	defer srv.Close()

	dir := t.TempDir()
	var out, errb bytes.Buffer
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errb}
	o := &crawlOptions{Start: srv.URL + "/", publishFlags: publishFlags{Out: dir, Settings: build.DefaultSettings()},
		Crawl: crawl.Settings{UserAgent: "t", Concurrency: 2, Rate: 0, Timeout: 5 * time.Second, Query: "keep", MaxQueryVariants: 100}}
	err := runCrawl(ctx, o, s)
	if !errors.Is(err, context.Canceled) || !strings.Contains(errb.String(), "run the same command again") {
		t.Fatalf("interrupted crawl: err %v, stderr %q", err, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "sitemap.xml")); err == nil {
		t.Fatalf("an interrupted crawl published a sitemap")
	}

	code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", dir, "--rate", "0")
	if code != exitOK || !strings.Contains(stderr, "resuming") || !strings.Contains(stderr, "resumed ") {
		t.Fatalf("resume: exit %d, stderr:\n%s", code, stderr)
	}
	resumed, _ := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	whole := t.TempDir()
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", whole, "--rate", "0"); code != exitOK {
		t.Fatalf("whole crawl: exit %d\n%s", code, stderr)
	}
	want, _ := os.ReadFile(filepath.Join(whole, "sitemap.xml"))
	if string(resumed) != string(want) || strings.Count(string(want), "<loc>") != 31 {
		t.Errorf("resumed sitemap differs from an uninterrupted crawl (or not 31 URLs):\n%s\n%s", resumed, want)
	}
}
