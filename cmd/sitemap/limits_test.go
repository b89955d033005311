package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNegativeLimitsRefused: a negative time limit, rate or count is
// refused with exit 2, naming the flag. Each was taken without a word:
// --timeout -1s as no limit, parse --max-children -1 as "read no child",
// audit --rate -1 as no rate limit, --crawl-max-pages -1 as no limit.
func TestNegativeLimitsRefused(t *testing.T) {
	state := filepath.Join(t.TempDir(), "audit.db")
	file := samples + "basic.xml"
	for _, args := range [][]string{
		{"validate", "--timeout", "-1s", file},
		{"parse", "--timeout", "-1s", file},
		{"diff", "--timeout", "-1s", file, file},
		{"parse", "--follow", "--max-children", "-1", file},
		{"audit", "--rate", "-1", "--state", state, "--site", "https://www.example.com/", file},
		{"audit", "--timeout", "-1s", "--state", state, "--site", "https://www.example.com/", file},
		{"audit", "--crawl", "--crawl-max-pages", "-1", "--state", state, "--site", "https://www.example.com/", file},
		{"audit", "--crawl", "--crawl-max-depth", "-1", "--state", state, "--site", "https://www.example.com/", file},
	} {
		flag := args[1]
		if flag == "--follow" || flag == "--crawl" {
			flag = args[2]
		}
		code, out, errOut := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, "sitemap: "+flag+" ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming %s", args, code, out, errOut, flag)
		}
	}
}

// TestBaseWithOnlyURLs: --base says where local files are served; with
// only URL inputs it has nothing to apply to and is refused, as fetch
// refuses it (a URL is served at itself). It was ignored without a word,
// the user believing the scope was --base's.
func TestBaseWithOnlyURLs(t *testing.T) {
	const u = "https://www.example.com/sitemap.xml"
	for _, args := range [][]string{
		{"validate", "--base", "https://www.example.com/", u},
		{"parse", "--base", "https://www.example.com/", u},
		{"diff", "--base", "https://www.example.com/", u, u},
	} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, "sitemap: --base is for local files") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// With a local input too, --base applies to it.
	if code, _, errOut := runCLI(t, "", "validate", "--base", "https://www.example.com/", samples+"basic.xml"); code != exitOK {
		t.Errorf("a local file with --base: exit %d, %s", code, errOut)
	}
}
