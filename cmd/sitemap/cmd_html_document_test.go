package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLDocumentOfADirectory: --document writes the view of one sitemap
// or index; a directory holds several, which it merged into one "Sitemap"
// page (the index among them dropped). Refused, naming what to give.
func TestHTMLDocumentOfADirectory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.xml"), urlset("https://www.example.com/a"))
	writeFile(t, filepath.Join(dir, "b.xml"), urlset("https://www.example.com/b"))
	out := filepath.Join(t.TempDir(), "view.html")
	code, _, stderr := runCLI(t, "", "html", "--document", dir, "-o", out)
	if code != exitUsage || !strings.Contains(stderr, "is a directory") || !strings.Contains(stderr, filepath.Join(dir, "a.xml")) {
		t.Errorf("exit %d, %s; want 2 and a message naming a file of the directory to give", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
}
