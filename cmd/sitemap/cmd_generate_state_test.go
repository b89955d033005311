package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/internal/xmllint"
)

// genLastMods decodes a published sitemap and maps loc → lastmod text.
func genLastMods(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := sitemap.NewDecoder(f, sitemap.DecoderOptions{Name: path})
	out := map[string]string{}
	for {
		it, err := d.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[it.URL.Loc] = it.URL.LastMod.String()
	}
}

// TestGenerateState: with --state, lastmod is never invented (M-05): a URL
// seen for the first time without a lastmod has none; an unchanged entry
// keeps what it had; an entry whose content_hash changed gets the run's
// time; a lastmod given on input wins.
// It runs on an SQLite file and on a PostgreSQL database (--state
// postgres://…).
func TestGenerateState(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testGenerateState(t, filepath.Join(t.TempDir(), "state.db")) })
	t.Run("postgres", func(t *testing.T) { testGenerateState(t, pgtest.DB(t)) })
}

func testGenerateState(t *testing.T, db string) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	in := filepath.Join(dir, "urls.jsonl")
	write := func(lines ...string) {
		if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func() map[string]string {
		t.Helper()
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--state", db, in)
		if code != exitOK {
			t.Fatalf("generate --state: exit %d\n%s", code, stderr)
		}
		return genLastMods(t, filepath.Join(out, "sitemap.xml"))
	}
	write(
		`{"loc":"https://www.example.com/a","content_hash":"a1"}`,
		`{"loc":"https://www.example.com/b","content_hash":"b1"}`,
		`{"loc":"https://www.example.com/c","content_hash":"c1"}`,
		`{"loc":"https://www.example.com/d","lastmod":"2026-01-02"}`,
	)
	first := run()
	for _, loc := range []string{"a", "b", "c"} {
		if lm := first["https://www.example.com/"+loc]; lm != "" {
			t.Errorf("first run invented lastmod %q for /%s (M-05)", lm, loc)
		}
	}
	if lm := first["https://www.example.com/d"]; lm != "2026-01-02" {
		t.Errorf("given lastmod not kept: %q", lm)
	}

	// /b and /c change; /a and /d do not.
	write(
		`{"loc":"https://www.example.com/a","content_hash":"a1"}`,
		`{"loc":"https://www.example.com/b","content_hash":"b2"}`,
		`{"loc":"https://www.example.com/c","content_hash":"c2"}`,
		`{"loc":"https://www.example.com/d"}`,
	)
	second := run()
	if lm := second["https://www.example.com/a"]; lm != "" {
		t.Errorf("unchanged /a got lastmod %q", lm)
	}
	for _, loc := range []string{"b", "c"} {
		lm := second["https://www.example.com/"+loc]
		if _, err := sitemap.ParseDate(lm); err != nil || lm == "" {
			t.Errorf("changed /%s: lastmod %q, want the run's time", loc, lm)
		}
	}
	if lm := second["https://www.example.com/d"]; lm != "2026-01-02" {
		t.Errorf("unchanged /d lost its recorded lastmod: %q", lm)
	}

	// Third run, nothing changes: every lastmod stays exactly as it was.
	third := run()
	for loc, lm := range second {
		if third[loc] != lm {
			t.Errorf("%s: lastmod moved from %q to %q without a change", loc, lm, third[loc])
		}
	}
}

// TestGenerateNewsMaxAge: by default the generator drops the news block of
// articles published more than 48 hours ago, keeping the URL (N-06, N-11);
// --news-max-age 0 keeps every block.
func TestGenerateNewsMaxAge(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	stale := time.Now().Add(-72 * time.Hour).UTC().Format(time.RFC3339)
	rec := func(path, date string) string {
		return `{"loc":"https://www.example.com/news/` + path + `","news":{"publication":{"name":"The Daily","language":"en"},"publication_date":"` + date + `","title":"` + path + `"}}`
	}
	if err := os.WriteFile(in, []byte(rec("fresh", fresh)+"\n"+rec("stale", stale)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		wantNews  int
		wantNotes string
	}{
		{nil, 1, "1 news block dropped for age (N-11)"},
		{[]string{"--news-max-age", "0"}, 2, ""},
	} {
		out := filepath.Join(dir, "out", strings.Join(tc.args, ""))
		args := append([]string{"generate", "--base-url", genBase, "--out", out}, tc.args...)
		code, _, stderr := runCLI(t, "", append(args, in)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, stderr)
		}
		doc := genRead(t, filepath.Join(out, "sitemap.xml"))
		if got := strings.Count(doc, "<news:news>"); got != tc.wantNews {
			t.Errorf("%v: %d news blocks, want %d", tc.args, got, tc.wantNews)
		}
		if got := len(genLocs(doc)); got != 2 {
			t.Errorf("%v: %d URLs, want both kept", tc.args, got)
		}
		if tc.wantNotes != "" && !strings.Contains(stderr, tc.wantNotes) {
			t.Errorf("%v: summary lacks %q:\n%s", tc.args, tc.wantNotes, stderr)
		}
		xmllint.Validate(t, filepath.Join(out, "sitemap.xml"), "sitemap-all.xsd")
	}
	if code, _, _ := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--news-max-age", "-1h", in); code != exitUsage {
		t.Errorf("negative --news-max-age: exit %d, want 2", code)
	}
}

// TestGenerateStateInvalidCopy: an invalid copy of a URL (here a priority
// of 5, P-01) is never recorded, so it does not make the valid copy look
// changed: the valid entry keeps its recorded lastmod.
func TestGenerateStateInvalidCopy(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	db := filepath.Join(dir, "state.db")
	in := filepath.Join(dir, "urls.jsonl")
	write := func(lines ...string) {
		if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := `{"loc":"https://www.example.com/a%20b","content_hash":"a1","lastmod":"2026-01-02"}`
	write(good)
	if code, _, stderr := runCLI(t, "", "generate", "--no-normalize", "--base-url", genBase, "--out", out, "--state", db, in); code != exitOK {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	// Second run: the same entry without its lastmod, after an invalid
	// copy (written with a raw space, refused under --no-normalize).
	write(`{"loc":"https://www.example.com/a b","content_hash":"zz"}`,
		`{"loc":"https://www.example.com/a%20b","content_hash":"a1"}`)
	code, _, stderr := runCLI(t, "", "generate", "--no-normalize", "--base-url", genBase, "--out", out, "--state", db, in)
	if code != exitProblems {
		t.Fatalf("second run: exit %d, want 1 (one invalid entry)\n%s", code, stderr)
	}
	if lm := genLastMods(t, filepath.Join(out, "sitemap.xml"))["https://www.example.com/a%20b"]; lm != "2026-01-02" {
		t.Errorf("lastmod %q after an invalid copy, want the recorded 2026-01-02", lm)
	}
}

// TestGenerateStateDryRun: --dry-run with --state creates no state file
// and leaves an existing one as it was.
func TestGenerateStateDryRun(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	in := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(in, []byte("https://www.example.com/a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := func(args ...string) {
		t.Helper()
		args = append([]string{"generate", "--base-url", genBase, "--out", filepath.Join(dir, "public"), "--state", db}, args...)
		if code, _, stderr := runCLI(t, "", append(args, in)...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	gen("--dry-run")
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run created the state file (%v)", err)
	}
	gen()
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, []byte("https://www.example.com/a\nhttps://www.example.com/b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gen("--dry-run")
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Error("a dry run changed the state file")
	}
}

// TestGenerateStateHintsAreNotChanges: with --state, an entry whose
// changefreq or priority alone changed keeps its recorded lastmod; a
// change of its content (an image) moves it to the run's time.
func TestGenerateStateHintsAreNotChanges(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	db := filepath.Join(dir, "state.db")
	in := filepath.Join(dir, "urls.jsonl")
	run := func(line string) string {
		t.Helper()
		if err := os.WriteFile(in, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--state", db, in)
		if code != exitOK {
			t.Fatalf("generate --state: exit %d\n%s", code, stderr)
		}
		return genLastMods(t, filepath.Join(out, "sitemap.xml"))["https://www.example.com/a"]
	}
	// Recorded with the lastmod given on input.
	run(`{"loc":"https://www.example.com/a","lastmod":"2026-01-02","changefreq":"weekly","priority":0.5}`)
	if lm := run(`{"loc":"https://www.example.com/a","changefreq":"daily","priority":0.9}`); lm != "2026-01-02" {
		t.Errorf("changefreq and priority changed, the content did not: lastmod %q, want the recorded 2026-01-02", lm)
	}
	if lm := run(`{"loc":"https://www.example.com/a","changefreq":"daily","priority":0.9,"images":[{"loc":"https://www.example.com/a.jpg"}]}`); lm == "2026-01-02" || lm == "" {
		t.Errorf("a new image: lastmod %q, want the run's time", lm)
	}
}
