package generate

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// A crawler export publishes only its 200, indexable, self-canonical rows;
// the others are counted by rule apart from invalid entries (the run is
// clean), and AllRows publishes them all.
func TestRunCrawlerExport(t *testing.T) {
	in, err := os.ReadFile("../source/testdata/exports/screaming-frog-internal-all.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		var probs []Problem
		o := opts(store.Memory(), &probs)
		sum, err := Run(context.Background(), Read(strings.NewReader(string(in)), source.Options{Name: "internal_all.csv", AllRows: all}), o)
		if err != nil {
			t.Fatal(err)
		}
		if all {
			if sum.URLs != 6 || sum.Omitted != 0 {
				t.Errorf("AllRows: %+v", sum)
			}
			continue
		}
		if sum.URLs != 2 || sum.Skipped != 0 || sum.Omitted != 4 || sum.OmittedByRule[rules.SRC07] != 2 || sum.OmittedByRule[rules.SRC08] != 2 {
			t.Errorf("%+v", sum)
		}
		var b strings.Builder
		sum.WriteRepairs(&b, false)
		sum.WriteTable(&b)
		if !strings.Contains(b.String(), "  2  SRC-07") || !strings.Contains(b.String(), "4 left out as the export marks them") {
			t.Errorf("report:\n%s", b.String())
		}
		infos := 0
		for _, p := range probs {
			if p.Rule == rules.SRC07 || p.Rule == rules.SRC08 {
				infos++
				if p.Line < 3 || p.File != "internal_all.csv" {
					t.Errorf("not placed: %+v", p)
				}
			}
		}
		if infos != 4 {
			t.Errorf("%d omitted rows reported, want 4: %v", infos, probs)
		}
	}
}

// A title column (CSV, JSONL) is kept on the entry for the pages people
// read and never written into the sitemap.
func TestRunTitleNotInXML(t *testing.T) {
	st := store.Memory()
	in := "loc,title\n" + base + "faq,Frequently asked questions\n"
	sum, err := Run(context.Background(), Read(strings.NewReader(in), source.Options{Name: "urls.csv"}), opts(st, nil))
	if err != nil || sum.URLs != 1 {
		t.Fatal(err, sum)
	}
	if xml := string(st.Bytes("sitemap.xml")); strings.Contains(xml, "Frequently") || strings.Contains(xml, "title") {
		t.Errorf("the title reached the sitemap:\n%s", xml)
	}
}

// A lastmod with a time but no time zone is read as UTC: a repair,
// counted in the closing report; Strict refuses it.
func TestRunLastModWithoutZoneCounted(t *testing.T) {
	in := "loc,lastmod\n" + base + "a,2026-01-02 10:11:12\n" + base + "b,2026-01-03\n"
	sum, err := Run(context.Background(), Read(strings.NewReader(in), source.Options{Name: "urls.csv"}), opts(store.Memory(), nil))
	if err != nil || sum.URLs != 2 {
		t.Fatal(err, sum)
	}
	if r := repairsOf(sum); r["fixed M-01 lastmod"] != 1 {
		t.Errorf("repairs %v", r)
	}
	var b strings.Builder
	sum.WriteRepairs(&b, false)
	if !strings.Contains(b.String(), "fixed") || !strings.Contains(b.String(), "M-01") {
		t.Errorf("closing report:\n%s", b.String())
	}
	o := opts(store.Memory(), nil)
	o.Strict = true
	if _, err := Run(context.Background(), Read(strings.NewReader(in), source.Options{Name: "urls.csv"}), o); !errors.Is(err, ErrStrict) {
		t.Errorf("strict: %v", err)
	}
}
