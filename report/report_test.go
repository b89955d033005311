package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

func diag(rule string, sev sitemap.Severity, line int) sitemap.Diagnostic {
	return sitemap.Diagnostic{Rule: rules.ID(rule), Severity: sev, Message: "m <loc>", File: "a.xml", Line: line}
}

// Every format, empty and not: json is an array that parses, jsonl one
// object a line, text one line each.
func TestWriterFormats(t *testing.T) {
	for _, c := range []struct {
		format string
		n      int
		want   string
	}{
		{"json", 0, "[]\n"},
		{"json", 2, "[\n{\"rule\":\"L-01\",\"severity\":\"error\",\"message\":\"m <loc>\",\"file\":\"a.xml\",\"line\":1},\n{\"rule\":\"L-01\",\"severity\":\"error\",\"message\":\"m <loc>\",\"file\":\"a.xml\",\"line\":2}\n]\n"},
		{"jsonl", 0, ""},
		{"jsonl", 1, "{\"rule\":\"L-01\",\"severity\":\"error\",\"message\":\"m <loc>\",\"file\":\"a.xml\",\"line\":1}\n"},
		{"text", 2, "a.xml:1: error L-01: m <loc>\nnote\na.xml:2: error L-01: m <loc>\nnote\n"},
	} {
		var b bytes.Buffer
		w, err := NewWriter(&b, c.format)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= c.n; i++ {
			w.Write(diag("L-01", sitemap.SeverityError, i))
			w.Line("note")
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s, %d: got %q, want %q", c.format, c.n, b.String(), c.want)
		}
		if c.format == "json" {
			var v []sitemap.Diagnostic
			if err := json.Unmarshal(b.Bytes(), &v); err != nil || len(v) != c.n {
				t.Errorf("json, %d: %d parsed, %v", c.n, len(v), err)
			}
		}
	}
	if _, err := NewWriter(nil, "csv"); err == nil {
		t.Error("csv accepted")
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n--; f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// The first write error is kept; nothing is written after it.
func TestWriterError(t *testing.T) {
	fw := &failWriter{n: 1}
	w, _ := NewWriter(fw, "json")
	w.Write(diag("L-01", sitemap.SeverityError, 1))
	w.Write(diag("L-01", sitemap.SeverityError, 2))
	w.Write(diag("L-01", sitemap.SeverityError, 3))
	if err := w.Close(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Close = %v", err)
	}
	if fw.n != -1 {
		t.Errorf("%d writes after the error", -1-fw.n)
	}
}

// Per document and rule, interleaved documents: each has its own cap and
// its notes; the tally counts everything, shown or not.
func TestReporterCaps(t *testing.T) {
	var b bytes.Buffer
	r, err := New(&b, "text", 1)
	if err != nil {
		t.Fatal(err)
	}
	a, c := r.Document("a.xml"), r.Document("c\nx.xml")
	a.Report(diag("L-01", sitemap.SeverityError, 1))
	c.Report(diag("L-01", sitemap.SeverityError, 1))
	a.Report(diag("L-01", sitemap.SeverityError, 2))
	a.Report(diag("M-07", sitemap.SeverityWarning, 3))
	a.Report(diag("", sitemap.SeverityInfo, 4))
	a.Report(diag("", sitemap.SeverityInfo, 5))
	c.Report(diag("L-01", sitemap.SeverityError, 2))
	a.End()
	c.End()
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"a.xml:1: error L-01: m <loc>",
		"a.xml:1: error L-01: m <loc>",
		"a.xml:3: warning M-07: m <loc>",
		"a.xml:4: info: m <loc>",
		"a.xml: note L-01: and 1 more L-01 diagnostics in this document (use --max-per-rule 0 to see all)",
		"a.xml: note : and 1 more diagnostics without a rule in this document (use --max-per-rule 0 to see all)",
		`c\nx.xml: note L-01: and 1 more L-01 diagnostics in this document (use --max-per-rule 0 to see all)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Errors != 4 || r.Warnings != 1 || r.Infos != 2 {
		t.Errorf("tally %+v", r.Tally)
	}
	if _, err := New(&b, "text", -1); err == nil {
		t.Error("negative cap accepted")
	}
}

// JSON output is never capped: it is for programs.
func TestReporterJSONUncapped(t *testing.T) {
	var b bytes.Buffer
	r, _ := New(&b, "jsonl", 1)
	doc := r.Document("a.xml")
	for i := 1; i <= 5; i++ {
		doc.Report(diag("L-01", sitemap.SeverityError, i))
	}
	doc.End()
	if n := strings.Count(b.String(), "\n"); n != 5 {
		t.Errorf("%d lines, want 5:\n%s", n, b.String())
	}
}

// The hint names at most MaxExplain rules, errors and warnings only.
func TestTallyHint(t *testing.T) {
	var tl Tally
	if tl.Hint() != "" {
		t.Error("hint with nothing found")
	}
	tl.Add(diag("I-01", sitemap.SeverityInfo, 0))
	for _, r := range []string{"A", "B", "A", "C", "D", "E", "F", ""} {
		tl.Add(diag(r, sitemap.SeverityWarning, 0))
	}
	if got, want := tl.Hint(), "what a rule requires and how to fix it: sitemap explain A B C D E"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
