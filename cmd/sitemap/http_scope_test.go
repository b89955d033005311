package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPrivateEveryCommand: with --no-private, no command that makes
// requests reaches a server on 127.0.0.1 (a loopback address), and each
// says why; without it they all do (the CLI's default scope is any).
func TestNoPrivateEveryCommand(t *testing.T) {
	s := newUASite(t)
	dir := t.TempDir()
	commands := map[string][]string{
		"fetch":       {"fetch", s.URL + "/sitemap_index.xml"},
		"crawl":       {"crawl", "--rate", "0", "--out", filepath.Join(dir, "out"), s.URL + "/"},
		"validate":    {"validate", s.URL + "/sitemap_index.xml"},
		"parse":       {"parse", "--follow", s.URL + "/sitemap_index.xml"},
		"diff":        {"diff", s.URL + "/sitemap.xml", s.URL + "/sitemap_index.xml"},
		"robots list": {"robots", "list", s.URL + "/"},
	}
	for name, args := range commands {
		s.reset()
		code, _, stderr := runCLI(t, "", append([]string{"--no-private"}, args...)...)
		if n := len(s.agents()); n != 0 {
			t.Errorf("%s --no-private: the server was reached", name)
		}
		if code == 0 || !strings.Contains(stderr, "loopback address (no-private scope, FETCH-SCOPE)") {
			t.Errorf("%s --no-private: exit %d, stderr %q", name, code, stderr)
		}
		s.reset()
		if code, _, stderr := runCLI(t, "", args...); code == exitUsage || len(s.agents()) == 0 {
			t.Errorf("%s: exit %d, %s", name, code, stderr)
		}
	}
}

// TestScopeSameSiteFetch: fetch --scope same-site reads a robots.txt whose
// Sitemap: line names a sitemap on another port of 127.0.0.1 without
// requesting it (FETCH-SCOPE, exit 1); --allow-host lets that port in,
// and alone refuses the rest; bad values are exit 2.
func TestScopeSameSiteFetch(t *testing.T) {
	other := newUASite(t)
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("Sitemap: " + other.URL + "/sitemap.xml\n"))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(home.Close)
	code, out, stderr := runCLI(t, "", "fetch", "--scope", "same-site", home.URL+"/robots.txt")
	if code != 1 || out != "" || other.hits("/sitemap.xml") != 0 || !strings.Contains(stderr, "FETCH-SCOPE") ||
		!strings.Contains(stderr, other.URL+"/sitemap.xml is out of scope: another site than "+home.URL+" (same-site scope, FETCH-SCOPE)") {
		t.Errorf("--scope same-site: exit %d, out %q, stderr %q", code, out, stderr)
	}
	u, _ := url.Parse(other.URL)
	code, out, stderr = runCLI(t, "", "fetch", "--scope", "same-site", "--allow-host", u.Host, home.URL+"/robots.txt")
	if code != 0 || !strings.Contains(out, other.URL+"/a\n") {
		t.Errorf("--allow-host %s: exit %d, out %q, stderr %q", u.Host, code, out, stderr)
	}
	code, out, stderr = runCLI(t, "", "fetch", "--allow-host", "www.example.com", home.URL+"/robots.txt")
	if code == 0 || out != "" || !strings.Contains(stderr, "its host is not on the allow-list (FETCH-SCOPE)") {
		t.Errorf("--allow-host www.example.com only: exit %d, out %q, stderr %q", code, out, stderr)
	}
	for _, bad := range [][]string{{"--scope", "nowhere"}, {"--allow-host", "https://example.com/"}} {
		if code, _, stderr := runCLI(t, "", append(bad, "fetch", home.URL+"/")...); code != 2 || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%q: exit %d, %s", bad, code, stderr)
		}
	}
}
