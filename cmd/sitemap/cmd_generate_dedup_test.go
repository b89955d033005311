package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
)

// genWriteLines writes one URL per line into dir/name and returns its path.
func genWriteLines(t *testing.T, dir, name string, urls []string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func genURLs(idx ...int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, genBase+"p/"+strconv.Itoa(i))
	}
	return out
}

// L-17: two inputs with overlapping URLs (and a repeat inside one input)
// publish each URL once, in the order of its first occurrence; the
// repeats are counted in a line after the summary table, and they are not
// an error (exit 0). --keep-duplicates publishes every entry as read.
func TestGenerateDedupL17(t *testing.T) {
	in := t.TempDir()
	a := genWriteLines(t, in, "a.txt", genURLs(1, 2, 3, 2, 4, 5))
	b := genWriteLines(t, in, "b.txt", genURLs(4, 6, 1, 7, 5, 8))
	tests := []struct {
		name    string
		flags   []string
		want    []string
		dupLine string // "" = no L-17 line
	}{
		{"default skips repeats (L-17)", nil, genURLs(1, 2, 3, 4, 5, 6, 7, 8), "4 duplicate URLs skipped (L-17)"},
		{"--keep-duplicates", []string{"--keep-duplicates"}, genURLs(1, 2, 3, 2, 4, 5, 4, 6, 1, 7, 5, 8), ""},
		{"the smallest --dedup-memory is still exact", []string{"--dedup-memory", "1MiB"}, genURLs(1, 2, 3, 4, 5, 6, 7, 8), "4 duplicate URLs skipped (L-17)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"generate", "--base-url", genBase, "--out", out}, tt.flags...)
			code, _, stderr := runCLI(t, "", append(args, a, b)...)
			if code != exitOK {
				t.Fatalf("exit %d, want 0 (repeats are not an error), stderr:\n%s", code, stderr)
			}
			got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml")))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("locs\n%v\nwant\n%v", got, tt.want)
			}
			i := strings.Index(stderr, "duplicate URL")
			if tt.dupLine == "" {
				if i >= 0 {
					t.Fatalf("L-17 line with duplicates kept:\n%s", stderr)
				}
				return
			}
			if !strings.Contains(stderr, tt.dupLine) {
				t.Fatalf("stderr lacks %q:\n%s", tt.dupLine, stderr)
			}
			if k := strings.Index(stderr, "total"); k < 0 || k > i {
				t.Fatalf("the L-17 line is not after the summary table:\n%s", stderr)
			}
		})
	}
}

// One repeat gets the singular, and --json keeps stdout pure JSON with
// the L-17 line on stderr.
func TestGenerateDedupSingularJSON(t *testing.T) {
	in := genWriteLines(t, t.TempDir(), "a.txt", genURLs(1, 2, 1))
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", t.TempDir(), "--json", in)
	if code != exitOK || !strings.Contains(stderr, "1 duplicate URL skipped (L-17)") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || strings.Contains(stdout, "duplicate URL") {
		t.Fatalf("stdout is not just the JSON summary:\n%s", stdout)
	}
}

// The spill path: with the smallest budget (1 MiB: about 49,000 URLs in
// memory until the first spill, 12,288 a shard), 50,000 distinct URLs
// (one sitemap's most: four shards of 12,288 cannot hold them, so one
// spills, most often all, near the end of the first input), each listed
// twice (the repeat sometimes right after, sometimes tens of thousands
// of lines later and so on disk), across two inputs, are published
// exactly once each, and the spill files in the temporary directory are
// gone afterwards. A temporary directory that does not exist stops the
// run (exit 2) instead of publishing repeats.
func TestGenerateDedupSpill(t *testing.T) {
	const n = 50000
	var first, second []int
	for i := range n {
		first = append(first, i)
		if i%3 == 0 {
			first = append(first, i) // a repeat still in memory
		}
	}
	for i := range n {
		if i%3 != 0 {
			second = append(second, (i*7)%n) // a permutation's repeats, mostly on disk by now
		}
	}
	in := t.TempDir()
	a := genWriteLines(t, in, "a.txt", genURLs(first...))
	b := genWriteLines(t, in, "b.txt", genURLs(second...))
	dups := len(first) + len(second) - n

	t.Run("exact", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		out := t.TempDir()
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--dedup-memory", "1MiB", a, b)
		if code != exitOK {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml")))
		if !slices.Equal(got, genURLs(seq(n)...)) {
			t.Fatalf("%d locs published, want %d in input order", len(got), n)
		}
		if want := progress.Group(int64(dups)) + " duplicate URLs skipped (L-17)"; !strings.Contains(stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, stderr)
		}
		left, err := filepath.Glob(filepath.Join(tmp, "sitemap-dedup-*"))
		if err != nil || len(left) != 0 {
			t.Fatalf("spill files left: %v (%v)", left, err)
		}
	})
	t.Run("unwritable temporary directory", func(t *testing.T) {
		t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
		out := t.TempDir()
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--dedup-memory", "1MiB", a, b)
		if code != exitUsage || !strings.Contains(stderr, "dedup spill file") || !strings.Contains(stderr, "--keep-duplicates") {
			t.Fatalf("exit %d, want 2 with the spill error, stderr:\n%s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
			t.Fatal("published despite the failed dedup")
		}
	})
}

// --dedup-memory takes the sizes of fetch's flag and refuses others, and
// sizes below 1MiB (which made a run many times slower).
func TestGenerateDedupMemoryFlag(t *testing.T) {
	in := genWriteLines(t, t.TempDir(), "a.txt", genURLs(1))
	for _, v := range []string{"0", "-1", "lots", "16XB"} {
		code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--dry-run", "--dedup-memory", v, in)
		if code != exitUsage || !strings.Contains(stderr, "not a size") {
			t.Errorf("--dedup-memory %s: exit %d, stderr:\n%s", v, code, stderr)
		}
	}
	for _, cmd := range []string{"generate", "fetch"} {
		for _, v := range []string{"5", "8KiB", "1023KiB"} {
			args := []string{cmd, "--dedup-memory", v, in}
			if cmd == "generate" {
				args = append([]string{cmd, "--base-url", genBase, "--dry-run"}, args[1:]...)
			}
			code, _, stderr := runCLI(t, "", args...)
			if code != exitUsage || !strings.Contains(stderr, "give at least 1MiB") {
				t.Errorf("%s --dedup-memory %s: exit %d, want 2 naming the floor; stderr:\n%s", cmd, v, code, stderr)
			}
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// genWriteCSV writes a loc,priority CSV into dir/name: one row per pair.
func genWriteCSV(t *testing.T, dir, name string, rows [][2]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("loc,priority\n")
	for _, r := range rows {
		b.WriteString(r[0] + "," + r[1] + "\n")
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// L-17 keeps the first VALID copy of a loc: a copy the builder refuses
// (with --no-normalize, a raw space: L-07) is reported and does not make a
// later valid copy (its normal form, the same URL for L-17) a repeat; a
// copy after an accepted one is skipped and counted as before.
func TestGenerateDedupInvalidFirstCopy(t *testing.T) {
	a, b, c := genBase+"a%20x", genBase+"b%20x", genBase+"c%20x"
	tests := []struct {
		name     string
		rows     [][2]string
		want     []string
		invalid  int // "csv:N:" lines reported
		dupLine  string
		wantCode int
	}{
		{"invalid then valid: the valid copy is published",
			[][2]string{{genBad(a), "0.5"}, {b, "0.5"}, {a, "0.3"}},
			[]string{b, a}, 1, "", exitProblems},
		{"invalid, valid, valid: the second valid copy is a repeat",
			[][2]string{{genBad(a), "0.5"}, {a, "0.3"}, {a, "0.4"}, {b, "0.5"}},
			[]string{a, b}, 1, "1 duplicate URL skipped (L-17)", exitProblems},
		{"valid then valid: the repeat is skipped as before",
			[][2]string{{a, "0.5"}, {b, "0.5"}, {a, "0.3"}},
			[]string{a, b}, 0, "1 duplicate URL skipped (L-17)", exitOK},
		{"valid then invalid: the invalid repeat is skipped, not reported",
			[][2]string{{a, "0.5"}, {genBad(a), "0.5"}, {b, "0.5"}},
			[]string{a, b}, 0, "1 duplicate URL skipped (L-17)", exitOK},
		{"invalid then invalid: both are reported",
			[][2]string{{genBad(a), "0.5"}, {b, "0.5"}, {genBad(a), "0.7"}},
			[]string{b}, 2, "", exitProblems},
		{"invalid, invalid, valid: the valid copy is published",
			[][2]string{{genBad(a), "0.5"}, {c, "0.1"}, {genBad(a), "0.7"}, {b, "0.5"}, {a, "0.2"}, {c, "0.9"}},
			[]string{c, b, a}, 2, "1 duplicate URL skipped (L-17)", exitProblems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := genWriteCSV(t, t.TempDir(), "urls.csv", tt.rows)
			out := t.TempDir()
			code, _, stderr := runCLI(t, "", "generate", "--no-normalize", "--base-url", genBase, "--out", out, in)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d, stderr:\n%s", code, tt.wantCode, stderr)
			}
			got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml")))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("locs %v, want %v\nstderr:\n%s", got, tt.want, stderr)
			}
			if n := strings.Count(stderr, "urls.csv:"); n != tt.invalid {
				t.Fatalf("%d invalid entries reported, want %d:\n%s", n, tt.invalid, stderr)
			}
			if tt.invalid > 0 {
				if w := "sitemap: " + plural.Of(tt.invalid, "invalid entry", "invalid entries") + " skipped"; !strings.Contains(stderr, w) {
					t.Fatalf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tt.dupLine == "" {
				if strings.Contains(stderr, "duplicate URL") {
					t.Fatalf("L-17 line, but no repeat was skipped:\n%s", stderr)
				}
			} else if !strings.Contains(stderr, tt.dupLine) {
				t.Fatalf("stderr lacks %q:\n%s", tt.dupLine, stderr)
			}
			if strings.Contains(stderr, "warning L-17") {
				t.Fatalf("bound warning without reaching the bound:\n%s", stderr)
			}
		})
	}
}

// The same across inputs, with --keep-duplicates unchanged (every copy
// goes to the builder), and under --strict the invalid first copy stops
// the run as before.
func TestGenerateDedupInvalidFirstCopyAcrossInputs(t *testing.T) {
	dir := t.TempDir()
	a := genBase + "a%20x"
	x := genWriteCSV(t, dir, "x.csv", [][2]string{{genBad(a), "0.5"}})
	y := genWriteCSV(t, dir, "y.csv", [][2]string{{a, "0.3"}, {a, "0.4"}})
	for _, tt := range []struct {
		flags []string
		want  []string
		code  int
	}{
		{nil, []string{a}, exitProblems},
		{[]string{"--keep-duplicates"}, []string{a, a}, exitProblems},
		{[]string{"--dedup-memory", "1MiB"}, []string{a}, exitProblems},
	} {
		out := t.TempDir()
		args := append([]string{"generate", "--no-normalize", "--base-url", genBase, "--out", out}, tt.flags...)
		code, _, stderr := runCLI(t, "", append(args, x, y)...)
		if code != tt.code {
			t.Fatalf("%v: exit %d, stderr:\n%s", tt.flags, code, stderr)
		}
		if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); !slices.Equal(got, tt.want) {
			t.Fatalf("%v: locs %v, want %v", tt.flags, got, tt.want)
		}
	}
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--no-normalize", "--base-url", genBase, "--out", out, "--strict", x, y)
	if code != exitProblems || !strings.Contains(stderr, "--strict: stopped") {
		t.Fatalf("--strict: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Fatal("--strict published")
	}
}

// The refused set is bounded (genMaxRefused locs): past it, a valid copy
// of a loc that did not fit is skipped as a repeat, and one warning says
// so; a loc that did fit is still published.
func TestGenerateDedupRefusedBound(t *testing.T) {
	rows := make([][2]string, 0, genMaxRefused+3)
	for i := range genMaxRefused + 1 {
		rows = append(rows, [2]string{genBad(genBase + "p%20" + strconv.Itoa(i)), "0.5"})
	}
	first, last := genBase+"p%200", genBase+"p%20"+strconv.Itoa(genMaxRefused)
	rows = append(rows, [2]string{last, "0.5"}, [2]string{first, "0.5"}, [2]string{last, "0.5"})
	in := genWriteCSV(t, t.TempDir(), "urls.csv", rows)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--no-normalize", "--base-url", genBase, "--out", out, in)
	if code != exitProblems {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); !slices.Equal(got, []string{first}) {
		t.Fatalf("locs %v, want [%s]", got, first)
	}
	if n := strings.Count(stderr, "warning L-17: more than 100000 invalid entries"); n != 1 {
		t.Fatalf("%d bound warnings, want 1:\n%s", n, stderr)
	}
	if !strings.Contains(stderr, "2 duplicate URLs skipped (L-17)") {
		t.Fatalf("stderr lacks the count of the two skipped repeats:\n%s", stderr)
	}
}

// genBad is an invalid spelling of loc: the first %20 written as a raw
// space. Under --no-normalize the encoder refuses it (L-07), and it is a
// copy of loc for L-17, which compares the normal forms.
func genBad(loc string) string { return strings.Replace(loc, "%20", " ", 1) }

// Issue 9's four spellings of one URL (default port, upper-case scheme
// and host, a fragment) are one URL: published once, three repeats
// skipped (L-17), with or without --no-normalize (which publishes the
// first as written, and compares the normal forms all the same).
func TestGenerateDedupNormalForms(t *testing.T) {
	in := genWriteLines(t, t.TempDir(), "a.txt", []string{
		"https://www.example.com/a", "https://www.example.com:443/a", "HTTPS://WWW.EXAMPLE.COM/a", "https://www.example.com/a#top",
	})
	for _, flags := range [][]string{nil, {"--no-normalize"}} {
		out := t.TempDir()
		args := append([]string{"generate", "--base-url", genBase, "--out", out}, flags...)
		code, _, stderr := runCLI(t, "", append(args, in)...)
		if code != exitOK || !strings.Contains(stderr, "3 duplicate URLs skipped (L-17)") {
			t.Fatalf("%v: exit %d, stderr:\n%s", flags, code, stderr)
		}
		if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); !slices.Equal(got, []string{"https://www.example.com/a"}) {
			t.Fatalf("%v: published %v", flags, got)
		}
	}
}
