package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run with bad rows keeps the pages it can, and closes with a report a
// person can act on: each repair and each skipped entry counted by rule,
// with what was done. --strict still publishes nothing; --no-normalize
// refuses the URLs it would have rewritten.
func TestGenerateRepairReport(t *testing.T) {
	in := filepath.Join(t.TempDir(), "urls.jsonl")
	os.WriteFile(in, []byte(strings.Join([]string{
		`{"loc":"https://www.example.com/a","priority":"0.5"}`,
		`{"loc":"https://www.example.com/café","videos":[{"title":"T","description":"D","content_loc":"https://www.example.com/v.mp4"}]}`,
		`{"loc":"https://www.example.com/n","news":{"publication":{"name":"Daily","language":"en"},"publication_date":"2026-11-01T06:00:00Z"}}`,
		`{"loc":"https://www.example.com/h","alternates":[{"hreflang":"english","href":"https://www.example.com/h"}]}`,
		`{"loc":"HTTPS://WWW.EXAMPLE.COM:443/a#top"}`,
		`{"loc":"https://www.example.com/f","lastmod":"2999-01-01"}`,
		`{"loc":"www.example.com/relative"}`,
	}, "\n")+"\n"), 0o644)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--news-max-age", "0", "--base-url", genBase, "--out", out, in)
	if code != exitProblems {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		in + `:2: loc "https://www.example.com/café" written as "https://www.example.com/caf%C3%A9" (percent-encoded; L-18) (info)`,
		in + ":2: videos[0].thumbnail_loc is required (V-01); videos[0] dropped, the page kept (warning)",
		in + ":6: lastmod 2999-01-01 is in the future",
		"sitemap: repairs; the pages were kept and published",
		"1  dropped     videos      V-01",
		"1  dropped     news        N-01",
		"1  dropped     alternates  H-06",
		"1  dropped     lastmod     M-07",
		"1  fixed       priority    P-01",
		"2  normalized  loc         L-18",
		"sitemap: entries skipped, by rule:",
		"1  L-01  A <loc> is an absolute URL",
		"1 duplicate URL skipped (L-17)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); len(got) != 5 {
		t.Errorf("published %v, want 5 pages", got)
	}

	out2 := t.TempDir()
	code, _, stderr = runCLI(t, "", "generate", "--strict", "--base-url", genBase, "--out", out2, in)
	if code != exitProblems || !strings.Contains(stderr, "--strict: stopped") {
		t.Errorf("--strict: exit %d:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out2, "sitemap.xml")); err == nil {
		t.Error("--strict published")
	}

	code, _, stderr = runCLI(t, "https://www.example.com/café\nhttps://www.example.com/ok\n", "generate", "--no-normalize",
		"--base-url", genBase, "--dry-run", "--input-format", "text", "-")
	if code != exitProblems || !strings.Contains(stderr, `contains the non-ASCII character 'é'`) || !strings.Contains(stderr, "1  L-07") {
		t.Errorf("--no-normalize: exit %d:\n%s", code, stderr)
	}
}
