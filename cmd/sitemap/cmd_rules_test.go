package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/rules"
)

func TestRulesListsTheBook(t *testing.T) {
	code, out, stderr := runCLI(t, "", "rules")
	if code != exitOK || stderr != "" {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	all := rules.All()
	if len(lines) != len(all) {
		t.Fatalf("%d lines, %d rules", len(lines), len(all))
	}
	for i, r := range all {
		f := strings.Fields(lines[i])
		if len(f) < 3 || f[0] != string(r.ID) || f[1] != r.Severity.String() || !strings.HasSuffix(lines[i], "  "+r.Title) {
			t.Errorf("line %d = %q, want %s %s %s", i+1, lines[i], r.ID, r.Severity, r.Title)
		}
	}
}

func TestRulesFilter(t *testing.T) {
	code, out, _ := runCLI(t, "", "rules", "l")
	if code != exitOK {
		t.Fatalf("code %d", code)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(line, "L-") {
			t.Errorf("rules l printed %q (LG and LIM are other families)", line)
		}
	}
	// Every rule of the family, as many as the book has.
	want := 0
	for _, r := range rules.All() {
		if strings.HasPrefix(string(r.ID), "L-") {
			want++
		}
	}
	if n := strings.Count(out, "\n"); n != want || want < 18 {
		t.Errorf("rules l: %d rules, want the book's %d", n, want)
	}
	code, out, _ = runCLI(t, "", "rules", "FETCH", "x-6")
	if code != exitOK || !strings.HasPrefix(out, "X-06 ") || !strings.Contains(out, "\nFETCH-HTTP ") || strings.Contains(out, "X-07") {
		t.Errorf("rules FETCH x-6: code %d, out %q", code, out)
	}
	code, out, stderr := runCLI(t, "", "rules", "nope")
	if code != exitUsage || out != "" || !strings.Contains(stderr, `"nope"`) || !strings.Contains(stderr, "FETCH") {
		t.Errorf("unknown family: code %d, out %q, stderr %q", code, out, stderr)
	}
	code, _, stderr = runCLI(t, "", "rules", "--format", "yaml")
	if code != exitUsage || !strings.Contains(stderr, "want text, json or markdown") {
		t.Errorf("bad format: code %d, stderr %q", code, stderr)
	}
}

func TestRulesJSONAndMarkdown(t *testing.T) {
	code, out, _ := runCLI(t, "", "rules", "--format", "json", "H")
	if code != exitOK {
		t.Fatalf("code %d", code)
	}
	var got []rules.Rule
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || got[0].ID != "H-01" || got[0].Fix == "" || got[0].URL == "" {
		t.Errorf("json H: %+v", got)
	}
	if !strings.Contains(out, "<xhtml:link") {
		t.Errorf("json escapes '<': %s", out)
	}
	code, out, _ = runCLI(t, "", "rules", "--format", "markdown")
	var want bytes.Buffer
	if err := rules.WriteMarkdown(&want, rules.All()); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || out != want.String() {
		t.Errorf("markdown differs from the book's (code %d)", code)
	}
}

func TestExplain(t *testing.T) {
	code, out, stderr := runCLI(t, "", "explain", "X-06")
	if code != exitOK || stderr != "" {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	r, _ := rules.Lookup("X-06")
	for _, want := range []string{"X-06: error (MUST)", "Source: sitemap XSD", r.URL, "Fix:    Reorder", "loc, lastmod, changefreq"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain X-06 lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 80 && !strings.Contains(line, "https://") {
			t.Errorf("line over 80 columns: %q", line)
		}
	}
	code, out, _ = runCLI(t, "", "explain", "l-7", "FETCH-HTTP")
	if code != exitOK || !strings.HasPrefix(out, "L-07: error") || !strings.Contains(out, "\n\nFETCH-HTTP: error") {
		t.Errorf("explain l-7 FETCH-HTTP: code %d\n%s", code, out)
	}
}

func TestExplainUnknown(t *testing.T) {
	code, out, stderr := runCLI(t, "", "explain", "L-07", "L-99", "zzz")
	if code != exitUsage {
		t.Fatalf("code %d, want %d", code, exitUsage)
	}
	if !strings.HasPrefix(out, "L-07: ") {
		t.Errorf("the known rule is still printed: %q", out)
	}
	if !strings.Contains(stderr, `no rule "L-99"; did you mean L-09`) || !strings.Contains(stderr, `no rule "zzz"`) || !strings.Contains(stderr, "sitemap rules") {
		t.Errorf("stderr %q", stderr)
	}
	code, _, stderr = runCLI(t, "", "explain", "fetch")
	if code != exitUsage || !strings.HasSuffix(stderr, "FETCH is a family of 10 rules ('sitemap rules FETCH' lists them)\n") {
		t.Errorf("family: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "explain")
	if code != exitUsage || !strings.Contains(stderr, "arg") {
		t.Errorf("no ID: code %d, stderr %q", code, stderr)
	}
	code, out, _ = runCLI(t, "", "explain", "--format", "json", "m-7")
	var got []rules.Rule
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got) != 1 || got[0].ID != "M-07" {
		t.Errorf("json m-7: code %d, %v, %s", code, err, out)
	}
}

// TestRulesHelpExamples runs every example of the two commands' --help as
// written (a trailing "> FILE" redirect is applied to a buffer).
func TestRulesHelpExamples(t *testing.T) {
	s := &streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	for _, c := range []*cobra.Command{newRulesCmd(s), newExplainCmd(s)} {
		n := 0
		for _, line := range strings.Split(c.Example, "\n") {
			args := strings.Fields(line)
			if len(args) == 0 {
				continue
			}
			if args[0] != "sitemap" {
				t.Fatalf("example %q does not start with sitemap", line)
			}
			if i := strings.Index(line, ">"); i >= 0 {
				args = strings.Fields(line[:i])
			}
			n++
			code, out, stderr := runCLI(t, "", args[1:]...)
			if code != exitOK || out == "" {
				t.Errorf("%s: code %d, stderr %q", line, code, stderr)
			}
		}
		if n < 3 {
			t.Errorf("%s: %d examples", c.Name(), n)
		}
	}
}

// validate ends a run with findings by naming the rules to explain, each
// known to the book; a clean run says nothing of the kind.
func TestValidateNamesRulesToExplain(t *testing.T) {
	code, _, stderr := runCLI(t, "", "validate", samples+"badorder.xml")
	if code != exitProblems {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	const hint = "what a rule requires and how to fix it: sitemap explain "
	i := strings.LastIndex(stderr, hint)
	if i < 0 || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("no explain hint:\n%s", stderr)
	}
	ids := strings.Fields(stderr[i+len(hint):])
	if len(ids) == 0 || len(ids) > report.MaxExplain || ids[0] != "X-06" {
		t.Errorf("hint names %v", ids)
	}
	for _, id := range ids {
		if !rules.Known(rules.ID(id)) {
			t.Errorf("hint names %q, not in the book", id)
		}
	}
	code, _, stderr = runCLI(t, "", "validate", samples+"basic.xml")
	if code != exitOK || strings.Contains(stderr, "sitemap explain") {
		t.Errorf("clean run: exit %d\n%s", code, stderr)
	}
}

// 'sitemap rules L-99' suggests the close IDs, as 'sitemap explain L-99'
// does: it listed only the families.
func TestRulesUnknownIDSuggests(t *testing.T) {
	code, out, errb := runCLI(t, "", "rules", "L-99")
	if code != exitUsage || out != "" || !strings.Contains(errb, `no rule family or rule "L-99"; did you mean L-09`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	code, _, errb = runCLI(t, "", "rules", "ZZ")
	if code != exitUsage || !strings.Contains(errb, "the families are F, X, L") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
}
