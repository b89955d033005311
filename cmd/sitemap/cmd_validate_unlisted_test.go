package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// validate of a directory notices sitemaps no index there lists (VAL-03,
// a warning): the children a generate run keeps for readers of the index
// it replaced, until its next run; a fresh set has none.
func TestValidateUnlisted(t *testing.T) {
	out := t.TempDir()
	gen := func(maxURLs string) {
		t.Helper()
		if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", maxURLs, "../../examples/urls.txt"); code != exitOK {
			t.Fatalf("generate: exit %d: %s", code, stderr)
		}
	}
	gen("3")
	// A sitemap of another set (its own top file) is not a child.
	writeFile(t, filepath.Join(out, "news.xml"), urlset("https://www.example.com/n"))
	code, stdout, stderr := runCLI(t, "", "validate", out)
	if code != exitOK || strings.Contains(stdout, "VAL-03") {
		t.Fatalf("a fresh set: exit %d, VAL-03 reported:\n%s%s", code, stdout, stderr)
	}
	old := filepath.Base(genFile(t, out, "sitemap-3.xml"))
	gen("4")
	code, stdout, _ = runCLI(t, "", "validate", out)
	want := filepath.Join(out, old) + ": warning VAL-03: no index in this directory lists this sitemap"
	if code != exitOK || !strings.Contains(stdout, want) || strings.Count(stdout, "VAL-03") != 3 {
		t.Fatalf("exit %d, want 3 VAL-03 warnings, one %q:\n%s", code, want, stdout)
	}
	if _, stdout, _ = runCLI(t, "", "validate", "--no-children", out); strings.Contains(stdout, "VAL-03") {
		t.Fatalf("--no-children: VAL-03 reported:\n%s", stdout)
	}
	gen("4")
	if code, stdout, _ = runCLI(t, "", "validate", out); code != exitOK || strings.Contains(stdout, "VAL-03") {
		t.Fatalf("after the next run: exit %d:\n%s", code, stdout)
	}
}
