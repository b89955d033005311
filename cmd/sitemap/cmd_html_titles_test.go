package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLAndGraphTitlesFromCSV: a crawler export's title column reaches
// the visitor site map's link texts and the graph's pages, its 301 row
// left out: html and graph read a CSV entry list as entries (they read
// each line as a text sitemap's URL, and the title was lost).
func TestHTMLAndGraphTitlesFromCSV(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "export.csv")
	csv := "Address,Status Code,Title 1\n" +
		"https://www.example.com/faq?x=1&y=2,200,Questions & answers\n" +
		"https://www.example.com/old,301,Old\n" +
		"https://www.example.com/blog/b,200,Bé\n"
	if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "pages")
	if code, _, errs := runCLI(t, "", "html", in, "-o", out); code != exitOK {
		t.Fatalf("html: exit %d: %s", code, errs)
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, want := range []string{`">Questions &amp; answers</a>`, `">Bé</a>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("html lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(string(page), "/old") {
		t.Errorf("html lists the 301 row:\n%s", page)
	}
	g := filepath.Join(dir, "g.html")
	if code, _, errs := runCLI(t, "", "graph", in, "-o", g); code != exitOK {
		t.Fatalf("graph: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(g); !strings.Contains(string(b), `Questions \u0026 answers`) {
		t.Errorf("graph lacks the title")
	}
}
