package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// uaSite is one 127.0.0.1 site every command that makes requests can
// reach: robots.txt (with a group for the default product token and one
// for "probe-bot"), an index, a sitemap and HTML pages. It records the
// User-Agent of every request and the paths requested.
type uaSite struct {
	*httptest.Server
	mu    sync.Mutex
	agent map[string]int
	paths map[string]int
}

func newUASite(t *testing.T) *uaSite {
	s := &uaSite{}
	s.reset()
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.agent[r.UserAgent()]++
		s.paths[r.URL.Path]++
		s.mu.Unlock()
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: sitemap\nDisallow: /b\n\nUser-agent: probe-bot\nDisallow: /a\n\nSitemap: %s/sitemap_index.xml\n", base)
		case "/sitemap_index.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/sitemap.xml</loc></sitemap></sitemapindex>`, base)
		case "/broken_index.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/sitemap.xml</loc></sitemap><sitemap><loc>%[1]s/missing.xml</loc></sitemap></sitemapindex>`, base)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/</loc></url><url><loc>%[1]s/a</loc></url><url><loc>%[1]s/b</loc></url></urlset>`, base)
		case "/indexnow":
			w.WriteHeader(http.StatusOK)
		case "/0123456789abcdef.txt":
			fmt.Fprint(w, "0123456789abcdef")
		case "/", "/a", "/b":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><a href="/a">a</a> <a href="/b">b</a></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *uaSite) reset() {
	s.mu.Lock()
	s.agent, s.paths = map[string]int{}, map[string]int{}
	s.mu.Unlock()
}

func (s *uaSite) agents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for a := range s.agent {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

func (s *uaSite) hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[path]
}

// TestOneUserAgent: every command that makes requests sends the one
// --user-agent (a persistent flag of the root), and the default when it
// is not given; crawl's robots.txt group is the User-Agent's product
// token.
func TestOneUserAgent(t *testing.T) {
	s := newUASite(t)
	dir := t.TempDir()
	commands := map[string][]string{
		"fetch":       {"fetch", s.URL + "/"},
		"crawl":       {"crawl", "--rate", "0", "--out", filepath.Join(dir, "out"), "--report", filepath.Join(dir, "report.jsonl"), s.URL + "/"},
		"validate":    {"validate", s.URL + "/sitemap_index.xml"},
		"parse":       {"parse", "--follow", s.URL + "/sitemap_index.xml"},
		"diff":        {"diff", s.URL + "/sitemap.xml", s.URL + "/sitemap_index.xml"},
		"robots list": {"robots", "list", s.URL + "/"},
		"audit":       {"audit", "--rate", "0", s.URL + "/"},
		"graph":       {"graph", "-o", filepath.Join(dir, "graph.json"), s.URL + "/sitemap_index.xml"},
		"html":        {"html", "-o", filepath.Join(dir, "html"), s.URL + "/sitemap_index.xml"},
		"submit": {"submit", "--key", "0123456789abcdef", "--key-location", s.URL + "/0123456789abcdef.txt", "--verify-key",
			"--endpoint", s.URL + "/indexnow", s.URL + "/sitemap.xml"},
	}
	names := []string{"fetch", "crawl", "validate", "parse", "diff", "robots list", "audit", "graph", "html", "submit"}
	for _, ua := range []string{"", "probe-bot/9.9 (+https://example.com/bot)"} {
		want := ua
		if ua == "" {
			want = defaultUserAgent()
		}
		for i, name := range names {
			s.reset()
			args := commands[name]
			switch {
			case ua != "" && i%2 == 0:
				// Before the subcommand: a persistent flag of the root.
				args = append([]string{"--user-agent", ua}, args...)
			case ua != "":
				args = append(slices.Clone(args), "--user-agent", ua)
			}
			code, _, stderr := runCLI(t, "", args...)
			if code == exitUsage {
				t.Errorf("%s: exit %d: %s", name, code, stderr)
			}
			if got := s.agents(); len(got) != 1 || got[0] != want {
				t.Errorf("%s --user-agent %q: the server saw User-Agents %q; want only %q", name, ua, got, want)
			}
			if name == "submit" && (s.hits("/indexnow") == 0 || s.hits("/0123456789abcdef.txt") == 0) {
				t.Errorf("submit did not check the key file and post: %s", stderr)
			}
			if name == "crawl" {
				// The robots.txt group of the product token: sitemap
				// disallows /b, probe-bot /a.
				blocked, allowed := "/b", "/a"
				if ua != "" {
					blocked, allowed = "/a", "/b"
				}
				if s.hits(blocked) != 0 || s.hits(allowed) == 0 {
					t.Errorf("crawl as %q requested %s %d times and %s %d times; want the product token's robots.txt group obeyed", want, blocked, s.hits(blocked), allowed, s.hits(allowed))
				}
			}
		}
	}
	if ua := defaultUserAgent(); !strings.HasPrefix(ua, "sitemap/") || !strings.HasSuffix(ua, " (+https://github.com/sitemapkit/sitemap)") || strings.ContainsAny(ua[:strings.IndexByte(ua, ' ')], "()") {
		t.Errorf("default User-Agent %q; want sitemap/VERSION (+https://github.com/sitemapkit/sitemap)", ua)
	}
}

// TestInputNotFound: an input URL that answers 404 cannot be read, which
// is exit status 2 in every command that reads one (fetch included, when
// the start URL is the sitemap); a 404 below the start is a problem found
// (exit 1).
func TestInputNotFound(t *testing.T) {
	s := newUASite(t)
	missing := s.URL + "/missing.xml"
	for _, args := range [][]string{
		{"fetch", missing},
		{"fetch", "--attempts", "1", "--tree", missing},
		{"validate", missing},
		{"parse", missing},
		{"diff", missing, s.URL + "/sitemap.xml"},
		{"diff", s.URL + "/sitemap.xml", missing},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "404") {
			t.Errorf("%q: exit %d; want %d (input cannot be read)\n%s", args, code, exitUsage, stderr)
		}
	}
	// diff too: its 1 also means "differences", and a side it cannot read
	// whole is compared not at all (the message says so).
	for _, args := range [][]string{
		{"fetch", s.URL + "/broken_index.xml"},
		{"validate", s.URL + "/broken_index.xml"},
		{"diff", s.URL + "/broken_index.xml", s.URL + "/broken_index.xml"},
	} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitProblems || !strings.Contains(out+stderr, "404") {
			t.Errorf("%q: exit %d; want %d (a child that cannot be read is a problem found)\n%s", args, code, exitProblems, stderr)
		}
	}
}
