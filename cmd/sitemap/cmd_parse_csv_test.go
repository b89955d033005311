package main

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestParseCSVMixedInputs: with several INPUTs, urlsets and indexes mixed,
// the CSV stays rectangular (every row as wide as the header), so a CSV
// reader (and "sitemap generate") can read it.
func TestParseCSVMixedInputs(t *testing.T) {
	for _, args := range [][]string{
		{samples + "basic.xml", samples + "index.xml"},
		{samples + "index.xml", samples + "basic.xml"},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"parse", "--format", "csv"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("%v: not valid CSV: %v\n%s", args, err, out)
		}
		if strings.Join(rows[0], ",") != "loc,lastmod,changefreq,priority" || len(rows) != 6 {
			t.Errorf("%v: %q", args, rows)
		}
	}
	// One index alone keeps its two-column form.
	_, out, _ := runCLI(t, "", "parse", "--format", "csv", samples+"index.xml")
	if !strings.HasPrefix(out, "loc,lastmod\n") {
		t.Errorf("index alone: %q", out)
	}
}
