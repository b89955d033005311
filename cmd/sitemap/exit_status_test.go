package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameFailureSameExit: one failure, one exit status, whatever the
// command: an input that is not a sitemap (empty, binary: F-04) is a
// problem found, 1, for the commands that judge sitemaps; an input that
// cannot be opened is 2. diff used to exit 2 for the first. generate
// reads entries to publish: binary data is an unreadable input, 2, as its
// --help says.
func TestSameFailureSameExit(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.xml")
	writeFile(t, good, urlset("https://www.example.com/a"))
	missing := filepath.Join(dir, "missing.xml")
	for _, bad := range []struct {
		name, content string
	}{{"empty.xml", ""}, {"binary.xml", "\x00\x01\x02\x03binary"}} {
		p := filepath.Join(dir, bad.name)
		writeFile(t, p, bad.content)
		for _, args := range [][]string{
			{"validate", p}, {"parse", p}, {"fetch", p}, {"diff", good, p}, {"diff", p, good},
			{"generate", "--base-url", "https://www.example.com/", "--dry-run", p},
		} {
			want := exitProblems
			if args[0] == "generate" && bad.name == "binary.xml" {
				want = exitUsage
			}
			if code, out, errOut := runCLI(t, "", args...); code != want {
				t.Errorf("%s %s: exit %d, want %d\n%s%s", args[0], bad.name, code, want, out, errOut)
			}
		}
	}
	for _, args := range [][]string{
		{"validate", missing}, {"parse", missing}, {"fetch", missing}, {"diff", good, missing},
		{"generate", "--base-url", "https://www.example.com/", "--dry-run", missing},
	} {
		if code, out, errOut := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errOut, "missing.xml") {
			t.Errorf("%s missing: exit %d, want 2\n%s%s", args[0], code, out, errOut)
		}
	}
}

// TestValidateGoesOnPastUnreadable: validate a.xml MISSING b.xml checks
// both readable inputs, says the missing one where it comes, and exits 2
// at the end (it used to stop at the first input it could not open).
func TestValidateGoesOnPastUnreadable(t *testing.T) {
	dir := t.TempDir()
	a, b, missing := filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml"), filepath.Join(dir, "MISSING")
	writeFile(t, a, urlset("https://www.example.com/a"))
	writeFile(t, b, urlset("https://www.example.com/b\x01"))
	code, _, errOut := runCLI(t, "", "validate", a, missing, b)
	want := []string{a + ": urlset, 1 URL", "sitemap: " + missing + ": no such file", b + ":", "1 input could not be read"}
	last := -1
	for _, w := range want {
		i := strings.Index(errOut, w)
		if i <= last {
			t.Errorf("stderr lacks %q after the lines before it", w)
		}
		last = i
	}
	if code != exitUsage {
		t.Errorf("exit %d, want 2\n%s", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "validate", missing)
	if code != exitUsage || errOut != "sitemap: "+missing+": no such file\n" {
		t.Errorf("one missing input: exit %d\n%s", code, errOut)
	}
}

// TestNoSitemapSameExit: "no sitemap found" at a URL and a child sitemap
// that cannot be read are problems found, exit 1, in diff as in fetch and
// validate (diff used to exit 2 for both); an input that cannot be opened
// stays 2.
func TestNoSitemapSameExit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\n")
		case "/":
			io.WriteString(w, "<html>home</html>")
		case "/idx.xml":
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>`+"http://"+r.Host+`/gone.xml</loc></sitemap></sitemapindex>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.xml")
	writeFile(t, good, urlset("https://www.example.com/a"))
	index := filepath.Join(dir, "index.xml")
	writeFile(t, index, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/gone.xml</loc></sitemap></sitemapindex>`)
	for _, args := range [][]string{
		{"fetch", srv.URL + "/"}, {"diff", srv.URL + "/", good}, {"diff", good, srv.URL + "/"},
		{"fetch", srv.URL + "/idx.xml"}, {"diff", srv.URL + "/idx.xml", good},
		{"validate", index}, {"diff", index, good},
	} {
		if code, out, errOut := runCLI(t, "", args...); code != exitProblems {
			t.Errorf("%s: exit %d, want 1\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "", "diff", srv.URL+"/missing.xml", good); code != exitUsage {
		t.Errorf("diff of a start URL answering 404: exit %d, want 2\n%s", code, errOut)
	}
}
