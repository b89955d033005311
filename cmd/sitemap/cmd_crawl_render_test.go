package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/browsertest"
	"github.com/sitemapkit/sitemap/internal/spatest"
)

// TestCrawlRenderCommand: `crawl --render` publishes the routes of a
// single-page application that a raw crawl cannot see, and its summary
// counts what rendering revealed, with the rules.
func TestCrawlRenderCommand(t *testing.T) {
	browser := browsertest.Require(t)
	srv := httptest.NewServer(spatest.New(spatest.Options{}))
	defer srv.Close()
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", dir, "--rate", "0", "--render", "--browser", browser, "--render-concurrency", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/about", "/products/2", "/home"} {
		if !strings.Contains(string(b), srv.URL+p+"<") {
			t.Errorf("sitemap lacks %s:\n%s", p, b)
		}
	}
	for _, p := range []string{"/missing", "/private", "/old"} {
		if strings.Contains(string(b), srv.URL+p+"<") {
			t.Errorf("sitemap lists %s:\n%s", p, b)
		}
	}
	for _, w := range []string{"rendered 9 pages in a browser", "soft-404", "(AUD-23)", "(AUD-24)"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}

// TestRenderFlagErrors: a bad --render value, or a browser that does not
// exist, cannot run (exit 2) and says what to give.
func TestRenderFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--render=sometimes"}, "give --render (every page) or --render=auto"},
		{[]string{"--render", "--render-concurrency", "0"}, "--render-concurrency must be at least 1"},
		{[]string{"--render", "--browser", "/nonexistent/chromium"}, "give the path of a Chromium or Chrome executable"},
	} {
		args := append([]string{"crawl", "http://127.0.0.1:1/", "--dry-run", "--state", filepath.Join(t.TempDir(), "s.db")}, tc.args...)
		code, _, stderr := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// A bad value is refused before the crawl opens its state: it said
	// "crawl state: FILE" and created that file, then refused the flag.
	// So is audit's, before its state.
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{
		{"crawl", "http://127.0.0.1:1/", "--out", out, "--render", "--render-wait", "0"},
		{"audit", "http://127.0.0.1:1/", "--render=sometimes"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "sitemap: --render") {
			t.Errorf("%v: exit %d, %q; want 2 and the flag's error alone", args, code, stderr)
		}
	}
	if _, err := os.Stat(stateOf(t, out)); !os.IsNotExist(err) {
		t.Errorf("the refused crawl made its state file: %v", err)
	}
}
