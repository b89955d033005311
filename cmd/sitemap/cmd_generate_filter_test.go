package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateIncludeExclude: generate's --include/--exclude keep the
// entries crawl's would (some --include matches, or none is given, and no
// --exclude does), count the others on the summary line, and refuse a
// pattern that is not RE2 (exit 2).
func TestGenerateIncludeExclude(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	writeFile(t, in, genBase+"a\n"+genBase+"blog/x\n"+genBase+"blog/draft-1\n"+genBase+"shop/y\n")
	for _, tc := range []struct {
		flags []string
		want  []string
		line  string
	}{
		{[]string{"--include", "/blog/", "--exclude", "draft"}, []string{genBase + "blog/x"}, "1 URL in 1 sitemap, 0 skipped, 3 excluded,"},
		{[]string{"--include", "/blog/", "--include", "/shop/"}, []string{genBase + "blog/x", genBase + "blog/draft-1", genBase + "shop/y"}, "3 URLs in 1 sitemap, 0 skipped, 1 excluded,"},
		{[]string{"--exclude", `/(blog|shop)/`}, []string{genBase + "a"}, "1 URL in 1 sitemap, 0 skipped, 3 excluded,"},
	} {
		out := filepath.Join(t.TempDir(), "public")
		args := append([]string{"generate", "--base-url", genBase, "--out", out}, tc.flags...)
		code, _, errOut := runCLI(t, "", append(args, in)...)
		if code != exitOK || !strings.Contains(errOut, tc.line) {
			t.Errorf("%v: exit %d, want 0 and %q\n%s", tc.flags, code, tc.line, errOut)
			continue
		}
		if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%v: published %q, want %q", tc.flags, got, tc.want)
		}
	}
	code, _, errOut := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--include", "(", in)
	if code != exitUsage || !strings.Contains(errOut, "--include \"(\"") {
		t.Errorf("bad pattern: exit %d\n%s", code, errOut)
	}
}

// TestGenerateSummaryAgrees: the summary's closing line counts every
// entry left out, so it never says "0 skipped" before a line about
// duplicates skipped; --json carries the duplicate count, 0 included.
func TestGenerateSummaryAgrees(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	writeFile(t, in, strings.Repeat(genBase+"a\n", 9)+"www.example.com/relative\n")
	code, _, errOut := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", in)
	if code != exitProblems || !strings.Contains(errOut, "1 URL in 1 sitemap, 9 skipped (1 invalid, 8 duplicate),") ||
		!strings.Contains(errOut, "8 duplicate URLs skipped") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	for _, tc := range []struct {
		input string
		dups  float64
	}{{strings.Repeat(genBase+"a\n", 9), 8}, {genBase + "a\n", 0}} {
		writeFile(t, in, tc.input)
		_, out, errOut := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--json", in)
		var sum map[string]any
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		if d, ok := sum["duplicates"].(float64); !ok || d != tc.dups {
			t.Errorf("--json duplicates = %v (present %v), want %v\n%s", sum["duplicates"], ok, tc.dups, out)
		}
	}
}

// TestGenerateOtherToolsCSV: generate reads a Screaming Frog export as
// it comes (Address, Last Modified as an HTTP date) and any other CSV
// with --columns; a bad mapping is exit 2. Before, both were refused
// with "the header row has no loc column".
func TestGenerateOtherToolsCSV(t *testing.T) {
	dir := t.TempDir()
	sf := filepath.Join(dir, "internal_html.csv")
	writeFile(t, sf, `"Address","Content Type","Status Code","Last Modified"`+"\n"+`"`+genBase+`a","text/html","200","Thu, 01 Jan 2026 03:04:05 GMT"`+"\n")
	other := filepath.Join(dir, "export.csv")
	writeFile(t, other, "Link,Updated\n"+genBase+"b,2026-02-03\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{sf}, "<url><loc>" + genBase + "a</loc><lastmod>2026-01-01T03:04:05Z</lastmod></url>"},
		{[]string{"--columns", "loc=Link,lastmod=Updated", other}, "<url><loc>" + genBase + "b</loc><lastmod>2026-02-03</lastmod></url>"},
	} {
		out := filepath.Join(t.TempDir(), "public")
		code, _, errOut := runCLI(t, "", append([]string{"generate", "--base-url", genBase, "--out", out}, tc.args...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d\n%s", tc.args, code, errOut)
			continue
		}
		if doc := genRead(t, filepath.Join(out, "sitemap.xml")); !strings.Contains(doc, tc.want) {
			t.Errorf("%v: sitemap lacks %s:\n%s", tc.args, tc.want, doc)
		}
	}
	for _, cols := range []string{"url=Link", "loc=Href"} {
		code, _, errOut := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--columns", cols, other)
		if code != exitUsage || !strings.Contains(errOut, "loc") {
			t.Errorf("--columns %s: exit %d, want 2\n%s", cols, code, errOut)
		}
	}
	// A mapping given with inputs that are not CSV is said to be ignored
	// for them (SRC-05), once each; the CSV input still uses it.
	jl := filepath.Join(dir, "j.jsonl")
	writeFile(t, jl, `{"loc":"`+genBase+`d"}`+"\n")
	txt := filepath.Join(dir, "u.txt")
	writeFile(t, txt, genBase+"e\n")
	code, _, errOut := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--columns", "loc=Link,lastmod=Updated", other, jl, txt)
	if code != exitOK || strings.Count(errOut, "SRC-05") != 2 ||
		!strings.Contains(errOut, "j.jsonl: column mapping ignored: this input is JSONL") ||
		!strings.Contains(errOut, "u.txt: column mapping ignored: this input is a URL list") ||
		!strings.Contains(errOut, "3 URLs in 1 sitemap") {
		t.Errorf("--columns with JSONL and text inputs: exit %d\n%s", code, errOut)
	}
}
