package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/check"
)

// hostileLocs are <loc> values (as written in the XML) that a hostile
// sitemap uses to forge records of our text output, steer a terminal, or
// name a URL other than the one written. Every one names
// evil.example or is relative, so no output may mention them.
var hostileLocs = []string{
	"http://host/a&#10;https://evil.example/injected",
	"http://host/b&#13;&#10;https://evil.example/crlf",
	"http://host/c\x00https://evil.example/nul",
	"http://host/d\x1b[2Khttps://evil.example/esc",
	"http://host/e&#x85;https://evil.example/nel",
	"http://host/f&#x2028;https://evil.example/ls",
	"http://host/g&#9;https://evil.example/tab",
	"http://host/h\x7fhttps://evil.example/del",
	"/relative-page",
	"testdata/sitemap/sm-1.xml",
	"http://evil.example&lol2;/",
}

const injectGood = "https://ok.example/page"

// writeHostile writes the hostile sitemaps into dir: a urlset, an index,
// a text sitemap, an RSS feed and an Atom feed, each with one good
// entry, under a file name that holds a newline itself.
func writeHostile(t *testing.T, dir string) map[string]string {
	t.Helper()
	var urls, index, rss, atom strings.Builder
	urls.WriteString(`<?xml version="1.0"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	index.WriteString(`<?xml version="1.0"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	rss.WriteString(`<?xml version="1.0"?>` + "\n" + `<rss version="2.0"><channel>` + "\n")
	atom.WriteString(`<?xml version="1.0"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom">` + "\n")
	for _, l := range append(hostileLocs, injectGood) {
		urls.WriteString("<url><loc>" + l + "</loc></url>\n")
		index.WriteString("<sitemap><loc>" + l + "</loc></sitemap>\n")
		if !strings.HasPrefix(l, "http") {
			continue // relative feed links resolve; the base is the file name
		}
		rss.WriteString("<item><link>" + l + "</link></item>\n")
		atom.WriteString(`<entry><link href="` + l + `"/></entry>` + "\n")
	}
	urls.WriteString("</urlset>\n")
	index.WriteString("</sitemapindex>\n")
	rss.WriteString("</channel></rss>\n")
	atom.WriteString("</feed>\n")
	text := "http://host/a\rhttps://evil.example/cr\nhttp://host/b\x7fhttps://evil.example/del\n" +
		"http://host/c\x1b[2Khttps://evil.example/esc\nhttp://host/d\u2028https://evil.example/ls\n/relative-page\n" + injectGood + "\n"
	files := map[string]string{
		"urlset": filepath.Join(dir, "evil\nname.xml"),
		"index":  filepath.Join(dir, "index.xml"),
		"text":   filepath.Join(dir, "urls.txt"),
		"rss":    filepath.Join(dir, "feed.rss"),
		"atom":   filepath.Join(dir, "feed.atom"),
	}
	for k, body := range map[string]string{"urlset": urls.String(), "index": index.String(), "text": text, "rss": rss.String(), "atom": atom.String()} {
		if err := os.WriteFile(files[k], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// assertNoInjection checks one command's output: every line of standard
// output and standard error is one line (no control character but the
// line's own LF) and, when standard output is data (entries, not
// diagnostics), nothing there names evil.example or a relative loc.
func assertNoInjection(t *testing.T, what string, code int, stdout, stderr string, wantCode int, data bool) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, code, wantCode, stdout, stderr)
	}
	for _, s := range []struct{ name, text string }{{"stdout", stdout}, {"stderr", stderr}} {
		for _, line := range strings.Split(strings.TrimSuffix(s.text, "\n"), "\n") {
			if r, at := check.Control(line); at >= 0 {
				t.Errorf("%s: %s has control character %U in line %q", what, s.name, r, line)
			}
			if strings.HasPrefix(line, "name.xml") {
				t.Errorf("%s: %s prints the file name \"evil\\nname.xml\" raw, on two lines:\n%s", what, s.name, s.text)
			}
		}
	}
	if !data {
		return
	}
	for _, bad := range []string{"evil.example", "relative-page", "sm-1.xml"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("%s: standard output names %q:\n%s", what, bad, stdout)
		}
	}
	if !strings.Contains(stdout, injectGood) {
		t.Errorf("%s: the good entry is missing:\n%s", what, stdout)
	}
}

// A hostile sitemap cannot inject into any output: an entry whose URL has
// a control character, is relative, or lost a reference is skipped with
// its diagnostic by every command in every format, and the diagnostics
// (quoting the values, naming a file whose name has a newline) stay one
// line each.
func TestHostileLocsNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	files := writeHostile(t, dir)
	for _, kind := range []string{"urlset", "index", "text", "rss", "atom"} {
		f := files[kind]
		for _, format := range []string{"jsonl", "csv", "txt"} {
			code, out, errs := runCLI(t, "", "parse", "--format", format, f)
			assertNoInjection(t, "parse --format "+format+" "+kind, code, out, errs, exitProblems, true)
			if !strings.Contains(errs, "skipped") {
				t.Errorf("parse %s %s: no skipped entry reported:\n%s", format, kind, errs)
			}
		}
		if kind != "index" {
			for _, format := range []string{"txt", "jsonl", "csv"} {
				code, out, errs := runCLI(t, "", "fetch", "--format", format, f)
				assertNoInjection(t, "fetch --format "+format+" "+kind, code, out, errs, exitProblems, true)
			}
		}
		for _, format := range []string{"text", "json", "jsonl"} {
			code, out, errs := runCLI(t, "", "validate", "--format", format, f)
			assertNoInjection(t, "validate --format "+format+" "+kind, code, out, errs, exitProblems, false)
		}
	}
	// diff prints the locs that differ: never a hostile one.
	code, out, errs := runCLI(t, "", "diff", files["urlset"], files["text"])
	assertNoInjection(t, "diff", code, out, errs, code, false)

	// Over HTTP: the same sitemap named by robots.txt, plain and as a tree.
	body, err := os.ReadFile(files["urlset"])
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	var base string
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("Sitemap: " + base + "/sitemap.xml\n"))
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL
	for _, format := range []string{"txt", "jsonl", "csv"} {
		code, out, errs := runCLI(t, "", "fetch", "--known-paths", "never", "--format", format, srv.URL+"/")
		assertNoInjection(t, "fetch (HTTP) --format "+format, code, out, errs, exitProblems, true)
	}
	code, out, errs = runCLI(t, "", "fetch", "--known-paths", "never", "--tree", srv.URL+"/")
	assertNoInjection(t, "fetch --tree", code, out, errs, exitProblems, false)

	// robots list: a Sitemap line with a control character url.Parse
	// lets through (C1, U+2028) is refused with RB-05, never printed.
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nSitemap: https://evil.example/a\u0085b.xml\nSitemap: https://evil.example/\u2028.xml\n"+
		"Sitemap: https://evil.example/\x1b[2K.xml\nSitemap: "+injectGood+"\n\x1b]0;title\x07\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "jsonl"} {
		code, out, errs = runCLI(t, "", "robots", "list", "--format", format, robotsFile)
		// json holds the warnings too, quoting the refused values.
		assertNoInjection(t, "robots list --format "+format, code, out, errs, code, format == "text")
		if strings.Count(errs, "RB-05") != 3 {
			t.Errorf("robots list --format %s: want 3 RB-05:\n%s", format, errs)
		}
	}
}
