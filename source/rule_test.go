package source

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// Every problem of an input names its rule, so that the closing report
// counts it under one ("entries skipped, by rule") and 'sitemap explain'
// says how to fix it: a line of bad JSON, a CSV without a loc column, an
// unclosed quote were reported without one (a row "2  -" in generate's
// report).
func TestEveryProblemNamesItsRule(t *testing.T) {
	long := "https://www.example.com/" + strings.Repeat("a", 200)
	for _, c := range []struct {
		name   string
		format Format
		cols   []ColumnMap
		in     string
		rules  []string // of the errors and warnings, in order
	}{
		{"bad JSON", FormatJSONL, nil, "{bad json\n", []string{"SRC-01"}},
		{"not an object", FormatJSONL, nil, "[1,2]\n", []string{"SRC-01"}},
		{"JSON type", FormatJSONL, nil, `{"loc":"https://www.example.com/","videos":{"a":1}}` + "\n", []string{"V-01"}},
		{"unknown JSON field", FormatJSONL, nil, `{"loc":"https://www.example.com/","lastMod":"2026-01-01"}` + "\n", []string{"SRC-04"}},
		{"no loc column", FormatCSV, nil, "a,b\n1,2\n", []string{"SRC-02"}},
		{"column twice", FormatCSV, nil, "loc,loc\nhttps://www.example.com/,x\n", []string{"SRC-02"}},
		{"mapping to no column", FormatCSV, []ColumnMap{{"loc", "Link"}}, "URL\nhttps://www.example.com/\n", []string{"SRC-02"}},
		{"unclosed quote", FormatCSV, nil, "loc\n\"https://www.example.com/\n", []string{"SRC-03"}},
		{"not UTF-8", FormatCSV, nil, "loc\nhttps://www.example.com/\xff\n", []string{"E-03"}},
		{"ignored column", FormatCSV, nil, "loc,notes\nhttps://www.example.com/,x\n", []string{"SRC-04"}},
		{"long text line", FormatText, nil, long + "\n", []string{"LIM-04"}},
		{"long CSV record", FormatCSV, nil, "loc\n" + long + "\n", []string{"LIM-04"}},
	} {
		var got []string
		warn := func(e *Error) { got = append(got, string(e.Rule)) }
		r, err := New(strings.NewReader(c.in), Options{Name: "in", Format: c.format, Columns: c.cols, Warn: warn, MaxLineBytes: 100})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			got = append(got, string(e.Rule))
		} else {
			for {
				_, err := r.Next()
				if err == io.EOF {
					break
				}
				var he *headerError
				if errors.As(err, &he) {
					got = append(got, string(he.e.Rule))
					break
				}
				var e *Error
				if !errors.As(err, &e) {
					if err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
					if err != nil {
						break
					}
					continue
				}
				got = append(got, string(e.Rule))
				if e.Line == 0 { // fatal
					break
				}
			}
		}
		if strings.Join(got, " ") != strings.Join(c.rules, " ") {
			t.Errorf("%s: rules %q, want %q", c.name, got, c.rules)
		}
	}
}
