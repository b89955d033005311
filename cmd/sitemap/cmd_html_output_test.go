package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestHTMLRerunRemovesStalePages: a run that needs fewer pages than the
// last one into the same -o removes the last one's page-N.html past its
// own (they listed the old URLs, reachable still), and leaves other files
// alone; a run that fails half way publishes none of its pages.
func TestHTMLRerunRemovesStalePages(t *testing.T) {
	dir := t.TempDir()
	locs := func(n int) string {
		var l []string
		for i := range n {
			l = append(l, fmt.Sprintf("https://www.example.com/p%03d", i))
		}
		return urlset(l...)
	}
	big, small := filepath.Join(dir, "big.xml"), filepath.Join(dir, "small.xml")
	writeFile(t, big, locs(30))
	writeFile(t, small, locs(5))
	out := filepath.Join(dir, "out")
	if code, _, errs := runCLI(t, "", "html", "--per-page", "10", big, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	writeFile(t, filepath.Join(out, "page-x.html"), "mine")
	writeFile(t, filepath.Join(out, "about.html"), "mine")
	if code, _, errs := runCLI(t, "", "html", "--per-page", "10", small, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	names := func() string {
		ents, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range ents {
			n = append(n, e.Name())
		}
		sort.Strings(n)
		return strings.Join(n, " ")
	}
	if got, want := names(), "about.html index.html page-x.html"; got != want {
		t.Errorf("files after the smaller run: %s; want %s", got, want)
	}

	// A template that fails on the second page: nothing of the run is
	// published, the pages of the last run stay whole.
	if code, _, errs := runCLI(t, "", "html", "--per-page", "10", big, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	before := names()
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(dir, "t.html")
	writeFile(t, tmpl, `{{if eq .Number 2}}{{.NoSuchField}}{{end}}<p>{{.Title}}</p>`)
	if code, _, _ := runCLI(t, "", "html", "--per-page", "10", "--template", tmpl, small, big, "-o", out); code != exitUsage {
		t.Errorf("failing template: exit %d; want 2", code)
	}
	if got := names(); got != before {
		t.Errorf("files after a failed run: %s; want %s", got, before)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != string(index) {
		t.Errorf("a failed run replaced index.html:\n%s", b)
	}
}

// TestHTMLOutputNamesAFile: -o of the site map pages names a directory;
// a file's name there (an existing file, or a new name ending in .html)
// is refused with a message that says what -o takes, instead of a
// directory named like a page or "mkdir: not a directory".
func TestHTMLOutputNamesAFile(t *testing.T) {
	dir := t.TempDir()
	sm := filepath.Join(dir, "sitemap.xml")
	writeFile(t, sm, urlset("https://www.example.com/a"))
	file := filepath.Join(dir, "file.html")
	writeFile(t, file, "x")
	for _, out := range []string{file, filepath.Join(dir, "new.html")} {
		code, _, stderr := runCLI(t, "", "html", sm, "-o", out)
		if code != exitUsage || !strings.Contains(stderr, "--document") || !strings.Contains(stderr, "a directory") {
			t.Errorf("-o %s: exit %d, %s; want 2 and a message saying -o is a directory", out, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.html")); err == nil {
		t.Errorf("-o new.html was created")
	}
	// A directory of that name, made on purpose, is written into.
	made := filepath.Join(dir, "made.html")
	if err := os.Mkdir(made, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "html", sm, "-o", made); code != exitOK {
		t.Errorf("-o an existing directory made.html: exit %d, %s", code, stderr)
	}
}

// TestOneFileOutputIsADirectory: html --document and graph write one
// file; -o naming a directory is refused, exit 2, with a message that
// says so (it was "rename .NAME.tmp-123 NAME: file exists", naming a
// temporary file), and the directory is left as it was.
func TestOneFileOutputIsADirectory(t *testing.T) {
	dir := t.TempDir()
	sm := filepath.Join(dir, "sitemap.xml")
	writeFile(t, sm, urlset("https://www.example.com/a"))
	out := filepath.Join(dir, "out.html")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"html", "--document", sm, "-o", out}, {"graph", sm, "-o", out}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "writing "+out+": it is a directory; give the name of a file to write") || strings.Contains(stderr, ".tmp-") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and \"it is a directory\"", args[0], code, stderr)
		}
		if ents, err := os.ReadDir(out); err != nil || len(ents) != 0 {
			t.Errorf("%s: the directory holds %v (%v)", args[0], ents, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left beside: %v", ents)
	}
}
