package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestValidateChildFindings: findings about the children of an index (a
// missing child, VAL-01; a nested index, I-07) point at the child's
// <sitemap> entry in the index, and a missing local child names the file
// that was looked for.
func TestValidateChildFindings(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "sitemap.xml")
	writeFile(t, idx, sitemapIndex(
		"https://www.example.com/sitemap-1.xml",
		"https://www.example.com/missing.xml",
		"https://www.example.com/nested.xml",
	))
	writeFile(t, filepath.Join(dir, "sitemap-1.xml"), urlset("https://www.example.com/a"))
	writeFile(t, filepath.Join(dir, "nested.xml"), sitemapIndex("https://www.example.com/sitemap-1.xml"))
	code, out, errOut := runCLI(t, "", "validate", "--base", "https://www.example.com/", idx)
	if code != exitProblems {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if want := idx + ":4:12: error VAL-01: "; !strings.Contains(out, want) {
		t.Errorf("VAL-01 not at the child's entry (want %q):\n%s", want, out)
	}
	if want := filepath.Join(dir, "missing.xml"); !strings.Contains(out, want) {
		t.Errorf("VAL-01 does not name the file looked for (%s):\n%s", want, out)
	}
	if want := idx + ":5:12: error I-07: "; !strings.Contains(out, want) {
		t.Errorf("I-07 not at the child's entry (want %q):\n%s", want, out)
	}
}

// TestValidateDuplicatesAcrossIndex is L-17 "across an index": a page
// listed by two children of one index is a warning in the second.
func TestValidateDuplicatesAcrossIndex(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "sitemap.xml")
	writeFile(t, idx, sitemapIndex("https://www.example.com/sitemap-1.xml", "https://www.example.com/sitemap-2.xml"))
	writeFile(t, filepath.Join(dir, "sitemap-1.xml"), urlset("https://www.example.com/a", "https://www.example.com/b"))
	writeFile(t, filepath.Join(dir, "sitemap-2.xml"), urlset("https://www.example.com/c", "https://www.example.com/b"))
	code, out, errOut := runCLI(t, "", "validate", "--base", "https://www.example.com/", idx)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if ids := ruleIDs(out); !slices.Equal(ids, []string{"warning L-17"}) {
		t.Fatalf("rules %v\n%s", ids, out)
	}
	if !strings.Contains(out, filepath.Join(dir, "sitemap-2.xml")+":4:8: warning L-17: ") || !strings.Contains(out, "also listed in "+filepath.Join(dir, "sitemap-1.xml")) {
		t.Errorf("out:\n%s", out)
	}
	// A child listed twice is one L-17 on the index, and is checked once:
	// its URLs are not "also listed in" itself.
	writeFile(t, idx, sitemapIndex("https://www.example.com/sitemap-1.xml", "https://www.example.com/sitemap-1.xml"))
	code, out, errOut = runCLI(t, "", "validate", "--base", "https://www.example.com/", idx)
	if ids := ruleIDs(out); code != exitOK || !slices.Equal(ids, []string{"warning L-17"}) || strings.Count(errOut, "sitemap-1.xml: urlset") != 1 || !strings.Contains(out, "listed more than once") {
		t.Errorf("a child listed twice: exit %d\n%s%s", code, out, errOut)
	}
	// Two separate inputs are not one index: no L-17.
	_, out, _ = runCLI(t, "", "validate", filepath.Join(dir, "sitemap-1.xml"), filepath.Join(dir, "sitemap-2.xml"))
	if out != "" {
		t.Errorf("separate inputs: %s", out)
	}
}

// TestValidateParseDirectory: a directory given as INPUT with no sitemap
// file in it cannot be read: exit 2, one clear line on standard error,
// nothing on standard output.
func TestValidateParseDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"validate", "parse"} {
		code, out, errOut := runCLI(t, "", cmd, dir)
		if code != exitUsage || out != "" {
			t.Errorf("%s: exit %d, stdout %q", cmd, code, out)
		}
		if !strings.Contains(errOut, "a directory with no sitemap file") || strings.Count(errOut, dir) != 1 || strings.Contains(errOut, "XML-01") {
			t.Errorf("%s: stderr %q", cmd, errOut)
		}
	}
}
