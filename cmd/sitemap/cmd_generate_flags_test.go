package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags that do nothing as given are refused (exit 2, nothing written)
// with what to give instead: --state-day without --state, --gzip-index
// with --index never.
func TestGenerateOddFlagsRefused(t *testing.T) {
	in := genWriteLines(t, t.TempDir(), "a.txt", genURLs(1, 2))
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--state-day"}, "--state FILE"},
		{[]string{"--gzip-index", "--index", "never"}, "--index auto or always"},
	} {
		out := filepath.Join(t.TempDir(), "public")
		args := append([]string{"generate", "--base-url", genBase, "--out", out}, tt.flags...)
		code, _, stderr := runCLI(t, "", append(args, in)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, want 2 naming %q; stderr:\n%s", tt.flags, code, tt.want, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
			t.Errorf("%v: published despite the refusal", tt.flags)
		}
	}
}

// --gzip-index when the entries fit in one sitemap (no index under
// --index auto): the run publishes and warns that there was no index to
// compress; with an index, no warning.
func TestGenerateGzipIndexWithoutIndex(t *testing.T) {
	in := genWriteLines(t, t.TempDir(), "a.txt", genURLs(1, 2, 3))
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", t.TempDir(), "--gzip-index", in)
	if code != exitOK || !strings.Contains(stderr, "warning: --gzip-index: no index was written") {
		t.Errorf("one sitemap: exit %d, want 0 with a warning; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--out", t.TempDir(), "--gzip-index", "--max-urls", "2", in)
	if code != exitOK || strings.Contains(stderr, "--gzip-index") {
		t.Errorf("with an index: exit %d, want 0 and no warning; stderr:\n%s", code, stderr)
	}
}
