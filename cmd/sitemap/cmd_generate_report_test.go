package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The summary's skipped count covers every invalid entry, those the
// reader refused (bad JSON, bad dates, over-long lines) as well as those
// the encoder refused, so it agrees with the "N invalid entries" line.
func TestGenerateSkippedCountsEveryInvalidEntry(t *testing.T) {
	in := filepath.Join(t.TempDir(), "urls.jsonl")
	os.WriteFile(in, []byte(`{"loc":"https://www.example.com/a"}`+"\n"+
		`{"loc":"https://www.example.com/b",}`+"\n"+ // bad JSON: the reader
		`{"loc":"www.example.com/relative"}`+"\n"+ // L-01: the encoder
		`{"loc":5,"lastmod":"2026-13-01"}`+"\n"), 0o644) // the reader
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
	code, _, stderr = runCLI(t, "www.example.com/relative\n", "generate", "--base-url", genBase, "--out", out, "-")
	if code != exitProblems || !strings.Contains(stderr, "no valid entries") {
		t.Errorf("only invalid: exit %d, stderr:\n%s", code, stderr)
	}
	if got := snapshot(t, out); len(got) != 0 {
		t.Errorf("published %v", snapshotNames(got))
	}
}

// genBatchLen and genMaxRefused are package generate's batch length and
// bound of the refused-loc set, which these tests cross.
const (
	genBatchLen   = 512
	genMaxRefused = 100000
)

// genPipeInput writes n text lines to a file: every entry valid and in
// scope except those the marks map sets to a different line.
func genPipeInput(t *testing.T, n int, marks map[int]string) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := marks[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "%sp/%d", genBase, i)
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The reader's messages (warnings, entries it refuses: T-04) and the
// builder's (entries out of scope: L-09) reach stderr in input order,
// across many batches, and repeats (L-17) are all counted.
func TestGenerateMessageOrder(t *testing.T) {
	marks := map[int]string{}
	var want []int
	for i := 3; i <= 5*genBatchLen; i += 337 {
		switch i % 3 {
		case 0:
			marks[i] = fmt.Sprintf("https://other.example.org/%d", i) // builder: L-09
		case 1:
			marks[i] = fmt.Sprintf("%sbad/%d\xff", genBase, i) // reader: T-04
		default:
			marks[i] = fmt.Sprintf("%sq?a=%d&amp;b=2", genBase, i) // reader: E-05 warning
		}
		want = append(want, i)
	}
	dups := 0
	for i := 7; i <= 5*genBatchLen; i += 1001 {
		if _, ok := marks[i]; !ok {
			marks[i] = genBase + "p/1"
			dups++
		}
	}
	in := genPipeInput(t, 5*genBatchLen, marks)
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--site-url", genBase, "--dry-run", in)
	if code != exitProblems {
		t.Fatalf("exit %d, want %d:\n%s", code, exitProblems, stderr)
	}
	pos := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(in) + `:(\d+):`)
	var got []int
	for _, m := range pos.FindAllStringSubmatch(stderr, -1) {
		n, _ := strconv.Atoi(m[1])
		got = append(got, n)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("message lines\n got %v\nwant %v\nstderr:\n%s", got, want, stderr)
	}
	if w := fmt.Sprintf("sitemap: %d duplicate URLs skipped (L-17)", dups); !strings.Contains(stderr, w) {
		t.Errorf("stderr lacks %q:\n%s", w, stderr)
	}
}

// TestGenerateJSONSkippedAgreesWithText: the text summary and --json use
// one set of counts. With one invalid entry and one duplicate, the text
// says "2 skipped (1 invalid, 1 duplicate)" and the JSON "skipped": 2,
// "invalid": 1, "duplicates": 1, its skipped_by_rule adding up to 2
// (JSON used to say "skipped": 1 for the same run).
func TestGenerateJSONSkippedAgreesWithText(t *testing.T) {
	in := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\nhttps://www.example.com/a\nnot a url\nhttps://www.example.com/b\n"), 0o644)
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--json", in)
	if code != exitProblems {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var sum struct {
		URLs          int            `json:"urls"`
		Skipped       int            `json:"skipped"`
		Invalid       int            `json:"invalid"`
		Duplicates    int            `json:"duplicates"`
		SkippedByRule map[string]int `json:"skipped_by_rule"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v\n%s", err, stdout)
	}
	byRule := 0
	for _, n := range sum.SkippedByRule {
		byRule += n
	}
	if sum.URLs != 2 || sum.Skipped != 2 || sum.Invalid != 1 || sum.Duplicates != 1 || byRule != 2 || sum.SkippedByRule["L-17"] != 1 {
		t.Errorf("JSON summary %+v; want urls 2, skipped 2 (invalid 1, duplicates 1), skipped_by_rule adding up to 2\n%s", sum, stdout)
	}
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", in)
	if code != exitProblems || !strings.Contains(stderr, "2 URLs in 1 sitemap, 2 skipped (1 invalid, 1 duplicate)") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
