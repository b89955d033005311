package input

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// TestEntryListCSVTitles: with Options.JSONL a CSV entry list (a crawler
// export) is read as entry records, titles kept, rows the export marks
// as no page left out at info level, through Entries with and without
// Follow (sitemap html and graph): the title column of a CSV used to be
// lost, each line read as a text sitemap's URL.
func TestEntryListCSVTitles(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "export.csv")
	csv := "Address,Status Code,Title 1\n" +
		"https://www.example.com/faq?x=1&y=2,200,Questions & answers\n" +
		"https://www.example.com/old,301,\n" +
		"https://www.example.com/b,200,Bé\n"
	if err := os.WriteFile(name, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, follow := range []bool{false, true} {
		var diags []sitemap.Diagnostic
		o := Options{JSONL: true, Follow: follow, OnDiagnostic: func(d sitemap.Diagnostic) { diags = append(diags, d) }}
		var got []string
		err := Entries([]string{name}, o)(context.Background(), func(u *sitemap.URL) error {
			got = append(got, u.Loc+" "+u.Title)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"https://www.example.com/faq?x=1&y=2 Questions & answers", "https://www.example.com/b Bé"}
		if !slices.Equal(got, want) {
			t.Errorf("follow %v: %q, want %q", follow, got, want)
		}
		var left []rules.ID
		for _, d := range diags {
			if d.Severity == sitemap.SeverityError {
				t.Errorf("follow %v: error %v", follow, d)
			}
			if d.Severity == sitemap.SeverityInfo {
				left = append(left, d.Rule)
			}
		}
		if !slices.Equal(left, []rules.ID{rules.SRC07}) {
			t.Errorf("follow %v: left out %v, want SRC-07 (%v)", follow, left, diags)
		}
	}
}
