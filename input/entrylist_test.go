package input

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestEntryListRelativeLocSaid: a relative loc in an entry list read as
// entries ("/contact") is skipped with an L-01 error that says what to
// do; it used to vanish from html's pages without a word.
func TestEntryListRelativeLocSaid(t *testing.T) {
	name := filepath.Join(t.TempDir(), "pages.csv")
	if err := os.WriteFile(name, []byte("loc,title\n/contact,Contact\nhttps://www.example.com/a,A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, follow := range []bool{false, true} {
		var diags []sitemap.Diagnostic
		o := Options{JSONL: true, Follow: follow, OnDiagnostic: func(d sitemap.Diagnostic) { diags = append(diags, d) }}
		var got []string
		err := Entries([]string{name}, o)(context.Background(), func(u *sitemap.URL) error {
			got = append(got, u.Loc)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, []string{"https://www.example.com/a"}) {
			t.Errorf("follow %v: %q", follow, got)
		}
		if len(diags) != 1 || diags[0].Rule != rules.L01 || diags[0].Line != 2 || !strings.Contains(diags[0].Message, "sitemap generate resolves") {
			t.Errorf("follow %v: %v", follow, diags)
		}
	}
}
