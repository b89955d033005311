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
	writeFile(t, in, strings.Repeat(genBase+"a\n", 9)+"/relative\n")
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
