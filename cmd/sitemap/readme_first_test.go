package main

import (
	"strings"
	"testing"
)

// TestReadmeFirstCommandShowsEveryExtension: the README's first command
// publishes every extension its text names (images, videos, news,
// hreflang), whatever today's date: the example's news article was
// dropped for age (N-11) once it was two days old, so a newcomer never
// saw the extension.
func TestReadmeFirstCommandShowsEveryExtension(t *testing.T) {
	first := readmeLines(t)[0]
	if !strings.HasPrefix(first, "sitemap generate ") || !strings.Contains(first, "--out public/") {
		t.Fatalf("the README's first command is %q; this test reads public/ after it", first)
	}
	t.Chdir(exampleDir(t, false))
	if code, stderr := runExample(t, nil, first); code != exitOK {
		t.Fatalf("%s\nexit %d:\n%s", first, code, stderr)
	}
	doc := genRead(t, "public/sitemap.xml.gz")
	for _, want := range []string{"<image:image>", "<video:video>", "<news:news>", "<xhtml:link"} {
		if !strings.Contains(doc, want) {
			t.Errorf("%s publishes no %s:\n%s", first, want, doc)
		}
	}
}
