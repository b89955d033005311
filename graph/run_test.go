package graph

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

// runSettings are the flags' defaults, drawing into out.
func runSettings(out string) Settings {
	return Settings{Output: out, MaxNodes: DefaultMaxNodes, MaxLinks: DefaultMaxLinks, MaxSections: DefaultMaxSections, MaxPages: DefaultMaxPages}
}

func writeSitemap(t *testing.T, locs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	b.WriteString("</urlset>")
	p := filepath.Join(t.TempDir(), "sitemap.xml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunSaysWhatItWrote: Run writes the drawing into the file, says in
// one line what it wrote, and nothing with Quiet.
func TestRunSaysWhatItWrote(t *testing.T) {
	sm := writeSitemap(t, ex+"/", ex+"/blog/a", ex+"/blog/b", ex+"/docs/x")
	out := filepath.Join(t.TempDir(), "site.svg")
	var diag bytes.Buffer
	sum, err := Run(context.Background(), []string{sm}, RunOptions{Settings: runSettings(out)}, nil, &diag)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("%s: %v, %.80q", out, err, b)
	}
	want := "sitemap: wrote " + out + " (svg): 4 URLs in " + itoa(sum.Sections) + " sections\n"
	if sum.URLs != 4 || sum.Sections < 3 || diag.String() != want {
		t.Errorf("%+v, %q; want 4 URLs in 3 sections or more, and %q", sum, diag.String(), want)
	}
	var stdout bytes.Buffer
	diag.Reset()
	s := runSettings("-")
	s.MaxNodes = 2
	if sum, err = Run(context.Background(), []string{sm}, RunOptions{Settings: s}, &stdout, &diag); err != nil {
		t.Fatal(err)
	}
	want = "sitemap: wrote json to standard output: 4 URLs in " + itoa(sum.Sections) + " sections (2 drawn)\n"
	if diag.String() != want || !strings.HasPrefix(stdout.String(), "{") {
		t.Errorf("%q, %.40q; want %q and JSON", diag.String(), stdout.String(), want)
	}
	diag.Reset()
	if _, err = Run(context.Background(), []string{sm}, RunOptions{Settings: runSettings(out), Quiet: true}, nil, &diag); err != nil || diag.Len() > 0 {
		t.Errorf("Quiet: %v, %q", err, diag.String())
	}
}

// TestRunLinks: with State, Run draws the crawl's links and says them.
func TestRunLinks(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	plantedCrawlIn(t, db)
	out := filepath.Join(t.TempDir(), "links.json")
	s := runSettings(out)
	s.State = db
	var diag bytes.Buffer
	sum, err := Run(context.Background(), nil, RunOptions{Settings: s}, nil, &diag)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.State || sum.Links == 0 || !strings.HasPrefix(diag.String(), "sitemap: wrote "+out+" (json): ") || !strings.Contains(diag.String(), " internal links\n") {
		t.Errorf("%+v, %q; want the link graph said", sum, diag.String())
	}
}

// TestRunErrors: inputs listing no URL are an *input.EmptyError; bad
// settings and a missing state name their flag.
func TestRunErrors(t *testing.T) {
	empty := writeSitemap(t)
	out := filepath.Join(t.TempDir(), "e.svg")
	_, err := Run(context.Background(), []string{empty}, RunOptions{Settings: runSettings(out)}, nil, &bytes.Buffer{})
	if !errors.As(err, new(*input.EmptyError)) || err.Error() != "no URL read from "+empty+": nothing to draw" {
		t.Errorf("empty sitemap: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an empty drawing was written")
	}
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.Output = "site.png" }, "-o site.png: the name does not say the format"},
		{func(s *Settings) { s.Format = "png" }, `--format "png"`},
		{func(s *Settings) { s.MaxNodes = 0 }, "--max-nodes, --max-sections and --max-links must be at least 1"},
		{func(s *Settings) { s.MaxPages = -1 }, "--max-pages at least 0"},
		{func(s *Settings) { s.State = filepath.Join(t.TempDir(), "none.db") }, "--state "},
	} {
		s := runSettings(out)
		c.edit(&s)
		if _, err := Run(context.Background(), nil, RunOptions{Settings: s}, nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", s, err, c.want)
		}
	}
}
