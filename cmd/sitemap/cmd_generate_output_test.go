package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Limits given on the command line must be usable: 0 and negative values
// are bad flags (exit 2) rather than silently meaning the default.
func TestGenerateLimitFlags(t *testing.T) {
	for _, tt := range []struct {
		flag, value, msg string
	}{
		{"--max-urls", "0", "--max-urls 0: use 1 to 50000 (S-01)"},
		{"--max-urls", "50001", "--max-urls 50001: use 1 to 50000 (S-01)"},
		{"--max-bytes", "0", "--max-bytes 0: use 145 to 52428800 (S-02)"},
		{"--max-bytes", "-1", "--max-bytes -1: use 145 to 52428800 (S-02)"},
		{"--max-bytes", "10", "--max-bytes 10: use 145 to 52428800 (S-02)"},
		{"--gzip-level", "0", "--gzip-level 0: use 1 (fastest) to 9 (smallest)"},
		{"--gzip-level", "10", "--gzip-level 10: use 1 (fastest) to 9 (smallest)"},
	} {
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", tt.flag, tt.value, "../../examples/urls.txt")
		if code != exitUsage || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%s %s: exit %d, stderr %q, want 2 and %q", tt.flag, tt.value, code, stderr, tt.msg)
		}
	}
}

// --index never with more URLs than one sitemap holds: exit 2, nothing
// published, and the message names the flag that helps.
func TestGenerateIndexNeverTooMany(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--index", "never", "--max-urls", "3", "../../examples/urls.txt")
	if code != exitUsage || !strings.Contains(stderr, "--index auto") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if got := snapshot(t, out); len(got) != 0 {
		t.Errorf("published %v", snapshotNames(got))
	}
}

// An output directory the run cannot write to is exit 2 with a message
// naming --out. /proc/self is a directory in which no file can be created,
// even by root (tests here may run as root, so chmod would not do).
func TestGenerateUnwritableOut(t *testing.T) {
	if st, err := os.Stat("/proc/self"); err != nil || !st.IsDir() {
		t.Skip("no /proc/self")
	}
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", "/proc/self", "../../examples/urls.txt")
	if code != exitUsage || !strings.Contains(stderr, "--out /proc/self: cannot write to the output directory") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// --dry-run over an existing output directory says which files of earlier
// runs a real run would remove, and changes nothing there: the children
// of the index before the live one (those of the live index stay until
// the next run, for readers that fetched it).
func TestGenerateDryRunOrphans(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", "3", "../../examples/urls.txt"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var first []string
	for _, n := range []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"} {
		first = append(first, filepath.Base(genFile(t, out, n)))
	}
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", "4", "../../examples/urls.txt")
	if code != exitOK || !strings.Contains(stderr, "kept 3 files the replaced index lists") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--dry-run", "../../examples/urls.txt")
	if code != exitOK || !strings.Contains(stderr, "would remove 3 files: "+strings.Join(first, " ")) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if after := snapshot(t, out); !equalSnapshots(before, after) {
		t.Errorf("dry run changed %v -> %v", snapshotNames(before), snapshotNames(after))
	}
	missing := filepath.Join(t.TempDir(), "not-yet")
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", missing, "--dry-run", "../../examples/urls.txt"); code != exitOK {
		t.Errorf("dry run into a missing directory: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("dry run created the output directory")
	}
}
