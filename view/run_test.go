package view

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/input"
)

func writeSitemap(t *testing.T, dir string, locs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	b.WriteString("</urlset>")
	p := filepath.Join(dir, "sitemap.xml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunSaysWhatItWrote: Run writes the pages, or the view of one
// document, and says in one line what it wrote; nothing with Quiet.
func TestRunSaysWhatItWrote(t *testing.T) {
	sm := writeSitemap(t, t.TempDir(), "https://www.example.com/", "https://www.example.com/a", "https://www.example.com/b")
	out := filepath.Join(t.TempDir(), "site")
	var diag bytes.Buffer
	sum, err := Run(context.Background(), []string{sm}, RunOptions{Settings: Settings{Output: out, PerPage: 2}}, nil, &diag)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "page-2.html")); err != nil {
		t.Error(err)
	}
	if want := "sitemap: wrote 2 pages into " + out + ": 3 links\n"; sum.Pages != 2 || diag.String() != want {
		t.Errorf("%+v, %q; want %q", sum, diag.String(), want)
	}
	for _, c := range []struct{ out, want string }{
		{filepath.Join(t.TempDir(), "view.html"), "sitemap: wrote the view of 3 URLs to "},
		{"-", "sitemap: wrote the view of 3 URLs to standard output\n"},
	} {
		diag.Reset()
		var stdout bytes.Buffer
		if _, err := Run(context.Background(), []string{sm}, RunOptions{Settings: Settings{Output: c.out, PerPage: 1, Document: true}}, &stdout, &diag); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(diag.String(), c.want) {
			t.Errorf("-o %s: %q; want %q", c.out, diag.String(), c.want)
		}
	}
	diag.Reset()
	if _, err := Run(context.Background(), []string{sm}, RunOptions{Settings: Settings{Output: out, PerPage: 2}, Quiet: true}, nil, &diag); err != nil || diag.Len() > 0 {
		t.Errorf("Quiet: %v, %q", err, diag.String())
	}
}

// TestRunPrintsProblems: the problems read are printed as they come and
// counted (errors only with Quiet); the pages of the good entries are
// still written.
func TestRunPrintsProblems(t *testing.T) {
	sm := writeSitemap(t, t.TempDir(), "https://www.example.com/", "mailto:x@example.com")
	for _, quiet := range []bool{false, true} {
		var diag bytes.Buffer
		sum, err := Run(context.Background(), []string{sm}, RunOptions{Settings: Settings{Output: filepath.Join(t.TempDir(), "p"), PerPage: 2}, Quiet: quiet}, nil, &diag)
		if err != nil || sum.Errors != 1 || sum.Links != 1 || !strings.HasPrefix(diag.String(), sm+":1:") || !strings.Contains(diag.String(), "error L-16") {
			t.Errorf("quiet %v: %v, %+v, %q; want 1 link, and 1 error L-16 printed", quiet, err, sum, diag.String())
		}
	}
}

// TestRunErrors: inputs listing no page are an *input.EmptyError; every
// setting that cannot work names its flag.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	empty := writeSitemap(t, dir)
	_, err := Run(context.Background(), []string{empty}, RunOptions{Settings: Settings{Output: filepath.Join(t.TempDir(), "p"), PerPage: 10}}, nil, &bytes.Buffer{})
	if !errors.As(err, new(*input.EmptyError)) || err.Error() != "no URL read from "+empty+": the site map lists no page" {
		t.Errorf("empty sitemap: %v", err)
	}
	for _, c := range []struct {
		s     Settings
		names []string
		want  string
	}{
		{Settings{PerPage: 1}, []string{empty}, "-o is required"},
		{Settings{Output: "p", PerPage: 0}, []string{empty}, "--per-page must be at least 1"},
		{Settings{Output: "-", PerPage: 1, Document: true}, []string{empty, empty}, "--document writes the view of one INPUT"},
		{Settings{Output: "-", PerPage: 1, Document: true, Template: "t.html"}, []string{empty}, "it takes no --template or --state"},
		{Settings{Output: "-", PerPage: 1, Document: true, State: "crawl.db"}, []string{empty}, "it takes no --template or --state"},
		{Settings{Output: "-", PerPage: 1, Document: true}, []string{dir}, "--document " + dir + " is a directory; give the one sitemap or index of it to view, such as " + empty},
		{Settings{Output: filepath.Join(dir, "x.html"), PerPage: 1}, []string{empty}, "the site map is written into a directory"},
		// A directory that cannot be made or written to, with what to do
		// (was "-o …: mkdir …: not a directory", and on a read-only file
		// system the name of index.html once every page was made).
		{Settings{Output: filepath.Join(empty, "pages") + "/", PerPage: 1}, []string{empty}, "; give a directory you can write to"},
		{Settings{Output: filepath.Join(t.TempDir(), "p"), PerPage: 1, CSS: filepath.Join(dir, "none.css")}, []string{empty}, "--css: "},
		{Settings{Output: filepath.Join(t.TempDir(), "p"), PerPage: 1, Template: filepath.Join(dir, "none.tmpl")}, []string{empty}, "--template: "},
		{Settings{Output: filepath.Join(t.TempDir(), "p"), PerPage: 1, State: filepath.Join(dir, "none.db")}, []string{empty}, "--state "},
	} {
		ro := RunOptions{Settings: c.s}
		if _, err := Run(context.Background(), c.names, ro, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", c.s, err, c.want)
		}
	}
}

// TestRunTitlesFromState: with State, a page whose entry has no title
// gets the one the crawl recorded.
func TestRunTitlesFromState(t *testing.T) {
	dir := t.TempDir()
	sm := writeSitemap(t, dir, "https://www.example.com/", "https://www.example.com/about")
	db := crawlState(t, dir, map[string]string{"https://www.example.com/about": "About the shop"})
	out := filepath.Join(t.TempDir(), "p")
	if _, err := Run(context.Background(), []string{sm}, RunOptions{Settings: Settings{Output: out, PerPage: 10, State: db}, Quiet: true}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || !bytes.Contains(b, []byte(">About the shop</a>")) {
		t.Errorf("%v: the page of /about has not the crawl's title:\n%s", err, b)
	}
}
