package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// --max-errors abandons a document after that many errors with one LIM-05
// error, in every command that reads sitemaps; validate's json lists
// every error up to the bound (the checker's count too), and the exit
// status is 1.
func TestMaxErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.txt")
	writeFile(t, junk, strings.Repeat("x\n", 300)+"https://www.example.com/after\n")
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 0; i < 40; i++ {
		b.WriteString("<url><loc>https://other.example/p</loc><priority>7</priority></url>")
	}
	b.WriteString("</urlset>\n")
	offsite := filepath.Join(dir, "offsite.xml")
	writeFile(t, offsite, b.String())

	for _, c := range []struct {
		file  string
		max   string
		want  int    // errors before LIM-05
		first string // their rule
	}{
		{junk, "50", 50, "T-02"},
		{offsite, "25", 25, "L-09"}, // L-09 (checker) and P-01 (decoder) count together, in document order
	} {
		code, out, errs := runCLI(t, "", "validate", "--format", "json", "--base", "https://www.example.com/", "--max-errors", c.max, c.file)
		var ds []sitemap.Diagnostic
		if err := json.Unmarshal([]byte(out), &ds); err != nil {
			t.Fatalf("%s: %v\n%s", c.file, err, out)
		}
		n := 0
		for _, d := range ds[:len(ds)-1] {
			if d.Severity == sitemap.SeverityError {
				n++
			}
		}
		last := ds[len(ds)-1]
		// The entry that reaches the bound is checked whole: its other
		// errors come before LIM-05 too.
		if code != exitProblems || n < c.want || n > c.want+2 || string(ds[0].Rule) != c.first || last.Rule != sitemap.RuleMaxErrors || !strings.Contains(last.Message, " errors in this document; stopped reading it") {
			t.Errorf("validate %s: exit %d, %d errors then %v\n%s", c.file, code, n, last, errs)
		}
		if !strings.Contains(errs, "not read to the end") {
			t.Errorf("validate %s: the summary does not say the document was abandoned:\n%s", c.file, errs)
		}
	}

	// parse: the bound, and at most --max-per-rule diagnostics of a rule
	// shown, the rest counted in a note.
	code, out, errs := runCLI(t, "", "parse", "--max-errors", "100", junk)
	if code != exitProblems || out != "" || strings.Count(errs, "error T-02: ") != 20 || strings.Count(errs, "error LIM-05: ") != 1 ||
		!strings.Contains(errs, junk+": note T-02: and 80 more T-02 diagnostics in this document (use --max-per-rule 0 to see all)") {
		t.Errorf("parse: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "parse", "--max-errors", "0", "--max-per-rule", "0", junk)
	if code != exitProblems || out != `{"loc":"https://www.example.com/after","source":"`+junk+"\"}\n" || strings.Count(errs, "error T-02: ") != 300 || strings.Contains(errs, "LIM-05") {
		t.Errorf("parse --max-errors 0: exit %d\n%s\n%s", code, out, tail([]byte(errs)))
	}
	// diff prints at most 20 errors of one rule per side; the summary
	// counts them all.
	other := filepath.Join(dir, "other.txt")
	writeFile(t, other, "https://www.example.com/after\n")
	code, _, errs = runCLI(t, "", "diff", "--max-errors", "0", junk, other)
	if code != exitOK || strings.Count(errs, "error T-02: ") != 20 || !strings.Contains(errs, "300 errors (280 not shown: at most 20 of one rule)") {
		t.Errorf("diff: exit %d\n%s", code, errs)
	}
	// The same flag on fetch, diff and generate.
	for _, args := range [][]string{
		{"fetch", "--max-errors", "10", junk},
		{"diff", "--max-errors", "10", junk, offsite},
		{"generate", "--max-errors", "10", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "out"), offsite},
	} {
		_, _, errs := runCLI(t, "", args...)
		if !strings.Contains(errs, "LIM-05") || !strings.Contains(errs, "10 errors in this document") {
			t.Errorf("%s: no LIM-05 at 10 errors:\n%s", args[0], tail([]byte(errs)))
		}
	}
}

// TestMaxErrorsNamesFlag: the LIM-05 that abandons a document tells a CLI
// user which flag raises the bound, in parse and validate alike (it named
// only the Go field MaxErrors).
func TestMaxErrorsNamesFlag(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "junk.txt")
	writeFile(t, junk, strings.Repeat("x\n", 20))
	for _, cmd := range []string{"parse", "validate"} {
		code, out, errs := runCLI(t, "", cmd, "--max-errors", "5", junk)
		if all := out + errs; code != exitProblems || !strings.Contains(all, "error LIM-05: ") || !strings.Contains(all, "(--max-errors") {
			t.Errorf("%s: exit %d\n%s%s", cmd, code, out, errs)
		}
	}
}

// At --max-errors 1 the LIM-05 that abandons the document says "1 error
// in this document", not "1 errors", in parse and validate alike, whether
// the decoder's error or the checker's reaches the bound.
func TestMaxErrorsOneSaysOneError(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.txt") // the decoder's errors (T-02)
	writeFile(t, junk, strings.Repeat("x\n", 5))
	checked := filepath.Join(dir, "checked.xml") // a checker's error (P-01) first
	writeFile(t, checked, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><priority>2</priority></url>
<url><loc>https://www.example.com/b</loc><priority>3</priority></url>
</urlset>
`)
	for _, cmd := range []string{"parse", "validate"} {
		for _, f := range []string{junk, checked} {
			code, out, errs := runCLI(t, "", cmd, "--max-errors", "1", f)
			all := out + errs
			if code != exitProblems || !strings.Contains(all, "error LIM-05: 1 error in this document; stopped reading it") || strings.Contains(all, "1 errors") {
				t.Errorf("%s %s: exit %d\n%s", cmd, filepath.Base(f), code, all)
			}
		}
	}
}

// A negative --max-errors means nothing: every command that has the
// flag refuses it alike (exit 2), saying what it takes; it was read as
// no limit, silently.
func TestMaxErrorsNegativeRefused(t *testing.T) {
	for _, cmd := range []string{"parse", "validate", "fetch", "diff", "generate", "audit"} {
		code, _, errs := runCLI(t, "", cmd, "--max-errors", "-1", "a.xml", "b.xml")
		if code != exitUsage || !strings.Contains(errs, `invalid argument "-1" for "--max-errors" flag: give a number of errors, 0 or more (0: no limit`) {
			t.Errorf("%s --max-errors -1: exit %d, stderr %q; want 2 and what the flag takes", cmd, code, errs)
		}
	}
}
