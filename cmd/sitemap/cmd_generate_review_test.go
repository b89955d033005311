package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The summary's skipped count covers every invalid entry, those the
// reader refused (bad JSON, bad dates, over-long lines) as well as those
// the encoder refused, so it agrees with the "N invalid entries" line.
func TestGenerateSkippedCountsEveryInvalidEntry(t *testing.T) {
	in := filepath.Join(t.TempDir(), "urls.jsonl")
	os.WriteFile(in, []byte(`{"loc":"https://www.example.com/a"}`+"\n"+
		`{"loc":"https://www.example.com/b",}`+"\n"+ // bad JSON: the reader
		`{"loc":"/relative"}`+"\n"+ // L-01: the encoder
		`{"loc":"https://www.example.com/c","lastmod":"2026-13-01"}`+"\n"), 0o644) // M-01: the reader
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--json", in)
	if code != exitProblems {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var sum struct {
		URLs    int `json:"urls"`
		Skipped int `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v\n%s", err, stdout)
	}
	if sum.URLs != 1 || sum.Skipped != 3 {
		t.Errorf("summary urls %d skipped %d, want 1 and 3", sum.URLs, sum.Skipped)
	}
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", in)
	if code != exitProblems || !strings.Contains(stderr, "1 URL in 1 sitemap, 3 skipped") || !strings.Contains(stderr, "3 invalid entries skipped") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// O-03: the warning compares hosts as hosts: an IDN and its punycode
// form are the same host (no warning), and the robots.txt URL it names
// is in punycode, never percent-encoded.
func TestGenerateCrossSubmitHosts(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://xn--bcher-kva.example/a\n"), 0o644)
	tests := []struct {
		name, base, site string
		warn             bool
		robots           string
	}{
		{"same host, IDN and punycode", "https://xn--bcher-kva.example/", "https://bücher.example/", false, ""},
		{"same host, letter case", "https://XN--BCHER-KVA.example/", "https://xn--bcher-kva.example/", false, ""},
		{"IDN site on a CDN", "https://cdn.example.net/", "https://bücher.example/", true, "https://xn--bcher-kva.example/robots.txt"},
		{"other port", "https://xn--bcher-kva.example:8443/", "https://xn--bcher-kva.example/", true, "https://xn--bcher-kva.example/robots.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", "generate", "--base-url", tt.base, "--site-url", tt.site, "--dry-run", in)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := strings.Contains(stderr, "O-03"); got != tt.warn {
				t.Errorf("O-03 warning %v, want %v:\n%s", got, tt.warn, stderr)
			}
			if tt.robots != "" && !strings.Contains(stderr, tt.robots+" has the line") {
				t.Errorf("warning does not name %s:\n%s", tt.robots, stderr)
			}
			if strings.Contains(stderr, "%C3") {
				t.Errorf("percent-encoded host in the warning:\n%s", stderr)
			}
		})
	}
}

// Limits given on the command line must be usable: 0 and negative values
// are bad flags (exit 2) rather than silently meaning the default.
func TestGenerateLimitFlags(t *testing.T) {
	for _, tt := range []struct {
		flag, value, msg string
	}{
		{"--max-urls", "0", "--max-urls 0: use 1 to 50000 (S-01)"},
		{"--max-urls", "50001", "--max-urls 50001: use 1 to 50000 (S-01)"},
		{"--max-bytes", "0", "--max-bytes 0: use 1 to 52428800 (S-02)"},
		{"--max-bytes", "-1", "--max-bytes -1: use 1 to 52428800 (S-02)"},
		{"--gzip-level", "0", "--gzip-level 0: use 1 (fastest) to 9 (smallest)"},
		{"--gzip-level", "10", "--gzip-level 10: use 1 (fastest) to 9 (smallest)"},
	} {
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", tt.flag, tt.value, "../../examples/urls.txt")
		if code != exitUsage || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%s %s: exit %d, stderr %q, want 2 and %q", tt.flag, tt.value, code, stderr, tt.msg)
		}
	}
}

// cancelReader cancels its context once n bytes were read, as a SIGINT
// part-way through a run does, and goes on yielding lines.
type cancelReader struct {
	n      int
	cancel context.CancelFunc
	i      int
	buf    bytes.Buffer
}

func (r *cancelReader) Read(p []byte) (int, error) {
	if r.buf.Len() == 0 {
		if r.i >= 400000 {
			return 0, io.EOF
		}
		for range 1000 {
			r.i++
			fmt.Fprintf(&r.buf, "https://www.example.com/p/%d\n", r.i)
		}
	}
	n, _ := r.buf.Read(p)
	if r.n -= n; r.n <= 0 && r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	return n, nil
}

// A run interrupted part-way (context cancelled, as by SIGINT) publishes
// nothing: the previous files stay byte for byte, no temporary file is
// left, and the exit status is not 0.
func TestGenerateInterrupted(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--gzip", "../../examples/urls.txt"); code != exitOK {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	for _, at := range []int{1, 2 << 20, 6 << 20} {
		ctx, cancel := context.WithCancel(context.Background())
		var errb bytes.Buffer
		s := &streams{In: &cancelReader{n: at, cancel: cancel}, Out: io.Discard, Err: &errb}
		code := execute(ctx, s, []string{"generate", "--base-url", genBase, "--out", out, "--gzip", "--max-urls", "20000", "-"})
		cancel()
		if code == exitOK {
			t.Errorf("cancel after %d bytes: exit 0", at)
		}
		if after := snapshot(t, out); !equalSnapshots(before, after) {
			t.Errorf("cancel after %d bytes changed the published files: %v -> %v", at, snapshotNames(before), snapshotNames(after))
		}
	}
}

// Entries outside the base URL's directory (L-09, L-15) get one closing
// hint that says what to do: serve from the root, or --site-url.
func TestGenerateScopeHint(t *testing.T) {
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "https://www.example.com/maps", "--dry-run", "../../examples/urls.txt")
	if code != exitProblems {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "--site-url"); n != 1 || !strings.Contains(stderr, "entries are outside https://www.example.com/maps/") {
		t.Errorf("want one hint naming --site-url, got %d:\n%s", n, stderr)
	}
	code, _, stderr = runCLI(t, "", "generate", "--base-url", "https://cdn.example.net/maps/", "--site-url", genBase, "--dry-run", "../../examples/urls.txt")
	if code != exitOK || strings.Contains(stderr, "outside") {
		t.Errorf("with --site-url: exit %d:\n%s", code, stderr)
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

// Empty input is told apart from input whose every entry is invalid;
// both exit 1 and publish nothing.
func TestGenerateEmptyInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("# nothing yet\n\n"), 0o644)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, empty)
	if code != exitProblems || !strings.Contains(stderr, "the input holds no entries") {
		t.Errorf("empty: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "/relative\n", "generate", "--base-url", genBase, "--out", out, "-")
	if code != exitProblems || !strings.Contains(stderr, "no valid entries") {
		t.Errorf("only invalid: exit %d, stderr:\n%s", code, stderr)
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

// silentReader is standard input whose writer never writes: Read tells
// the test it was called, then blocks until the test ends.
type silentReader struct {
	called chan struct{}
	end    chan struct{}
}

func (r *silentReader) Read(p []byte) (int, error) {
	select {
	case r.called <- struct{}{}:
	default:
	}
	<-r.end
	return 0, io.EOF
}

// An interrupt while the run waits for input (a terminal, a silent pipe)
// ends the run at once: exit 2, nothing published. Before, the run
// waited for the next line, so Ctrl-C did nothing.
func TestGenerateInterruptWhileWaitingForInput(t *testing.T) {
	out := t.TempDir()
	in := &silentReader{called: make(chan struct{}, 1), end: make(chan struct{})}
	defer close(in.end)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, &streams{In: in, Out: io.Discard, Err: &errb}, []string{"generate", "--base-url", genBase, "--out", out, "-"})
	}()
	<-in.called
	cancel()
	select {
	case code := <-done:
		if code != exitUsage || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("exit %d, stderr:\n%s", code, errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not stop after the interrupt; it is still waiting for input")
	}
	if got := snapshot(t, out); len(got) != 0 {
		t.Errorf("published %v", snapshotNames(got))
	}
}

// --dry-run over an existing output directory says which files of the
// previous run a real run would remove, and changes nothing there.
func TestGenerateDryRunOrphans(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", "3", "../../examples/urls.txt"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--dry-run", "../../examples/urls.txt")
	if code != exitOK || !strings.Contains(stderr, "would remove 3 files: sitemap-1.xml sitemap-2.xml sitemap-3.xml") {
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

// When the top file changes name (a single gzip sitemap becomes an index),
// --robots replaces the Sitemap: line of the removed file instead of
// leaving it pointing at a 404; other lines stay byte for byte (RB-13).
func TestGenerateRobotsDropsRemovedTop(t *testing.T) {
	out := t.TempDir()
	rb := filepath.Join(t.TempDir(), "robots.txt")
	other := "User-agent: *\r\nDisallow: /private\r\nSitemap: https://other.example.org/s.xml\r\n"
	os.WriteFile(rb, []byte(other), 0o644)
	args := []string{"generate", "--base-url", genBase, "--out", out, "--gzip", "--robots", rb}
	if code, _, stderr := runCLI(t, "", append(args, "../../examples/urls.txt")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(rb); string(got) != other+"Sitemap: https://www.example.com/sitemap.xml.gz\r\n" {
		t.Fatalf("robots.txt after run 1: %q", got)
	}
	code, _, stderr := runCLI(t, "", append(args, "--max-urls", "3", "../../examples/urls.txt")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(rb); string(got) != other+"Sitemap: https://www.example.com/sitemap.xml\r\n" {
		t.Errorf("robots.txt after run 2: %q\n%s", got, stderr)
	}
	if !strings.Contains(stderr, "removed Sitemap: https://www.example.com/sitemap.xml.gz") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
