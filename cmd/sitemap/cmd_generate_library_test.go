package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// The library call and the command write the same files, byte for byte,
// from the same text, CSV and JSONL inputs with --state, --xsl and
// --robots, over two runs (the second changes an entry, so the state
// stamps it, and drops the index, so robots.txt loses a line).
func TestGenerateLibraryMatchesCLI(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	in1 := []string{
		write("a.txt", genBase+"t1\n"+genBase+"t2\n"+genBase+"t1\n# comment\n"+genBase+"bad url\n"),
		write("a.csv", "loc,lastmod,changefreq\n"+genBase+"c1,2026-01-02,daily\n"+genBase+"t2,,weekly\n"),
		write("a.jsonl", `{"loc":"`+genBase+`j1","images":[{"loc":"`+genBase+`i.jpg"}],"alternates":[{"hreflang":"de","href":"`+genBase+`de/j1"}]}`+"\n"+`{"loc":"`+genBase+`j2","priority":0.5}`+"\n"),
	}
	in2 := []string{
		write("b.txt", genBase+"t1\n"),
		write("b.jsonl", `{"loc":"`+genBase+`j2","priority":0.8}`+"\n"),
	}
	day := func() string { return time.Now().UTC().Format(time.DateOnly) }
	startDay := day()

	cliDir, libDir := filepath.Join(tmp, "cli"), filepath.Join(tmp, "lib")
	for _, d := range []string{cliDir, libDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		write(filepath.Base(d)+"-robots.txt", "User-agent: *\nDisallow: /private\n")
	}
	cli := func(extra []string, inputs []string) {
		args := append([]string{"generate", "--base-url", genBase, "--out", cliDir, "--xsl", "--gzip",
			"--state", filepath.Join(tmp, "cli-state.db"), "--state-day", "--robots", filepath.Join(tmp, "cli-robots.txt")}, extra...)
		code, _, stderr := runCLI(t, "", append(args, inputs...)...)
		if code != exitOK && code != exitProblems {
			t.Fatalf("CLI exit %d:\n%s", code, stderr)
		}
	}
	ctx := context.Background()
	db, err := state.OpenSQLite(ctx, filepath.Join(tmp, "lib-state.db"), state.SQLiteOptions{Precision: sitemap.PrecisionDay})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lib := func(maxURLs int, inputs []string) {
		st, err := store.Dir(libDir)
		if err != nil {
			t.Fatal(err)
		}
		var srcs []generate.Source
		for _, name := range inputs {
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			srcs = append(srcs, generate.Read(f, source.Options{Name: name}))
		}
		_, err = generate.Run(ctx, generate.Concat(srcs...), generate.Options{
			Out:   st,
			Build: build.Options{BaseURL: genBase, Gzip: true, MaxURLs: maxURLs},
			XSL:   true, State: db, StatePrecision: sitemap.PrecisionDay,
			RobotsTxt: filepath.Join(tmp, "lib-robots.txt"),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cli([]string{"--max-urls", "2"}, in1)
	lib(2, in1)
	compareDirs(t, "first run", cliDir, libDir)
	cli(nil, in2)
	lib(0, in2)
	compareDirs(t, "second run", cliDir, libDir)
	c, _ := os.ReadFile(filepath.Join(tmp, "cli-robots.txt"))
	l, _ := os.ReadFile(filepath.Join(tmp, "lib-robots.txt"))
	if string(c) != string(l) || !strings.Contains(string(c), "Sitemap: "+genBase+"sitemap.xml.gz") {
		t.Errorf("robots.txt differ or lack the line:\nCLI:\n%s\nlibrary:\n%s", c, l)
	}
	if day() != startDay {
		t.Skip("the day changed during the test; the state stamps differ")
	}
}

func compareDirs(t *testing.T, what, a, b string) {
	t.Helper()
	sa, sb := snapshot(t, a), snapshot(t, b)
	_, xml := sa["sitemap.xml"]
	if _, gz := sa["sitemap.xml.gz"]; !xml && !gz {
		t.Fatalf("%s: the CLI published nothing: %v", what, snapshotNames(sa))
	}
	if len(sa) != len(sb) {
		t.Errorf("%s: CLI wrote %v, the library %v", what, snapshotNames(sa), snapshotNames(sb))
	}
	for name, data := range sa {
		if sb[name] != data {
			t.Errorf("%s: %s differs:\nCLI:\n%q\nlibrary:\n%q", what, name, data, sb[name])
		}
	}
}
