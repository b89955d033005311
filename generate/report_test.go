package generate

import (
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/rules"
)

// WriteRepairs lines up one row per repair and per rule of the skipped
// entries, duplicates counted under L-17, with the rule book's title.
func TestWriteRepairs(t *testing.T) {
	sum := Summary{
		Summary:       build.Summary{},
		Duplicates:    2,
		SkippedByRule: map[rules.ID]int{"L-01": 1, "": 3},
		Repairs: []Repair{
			{Rule: "L-18", Action: "normalized", Field: "loc", Count: 12},
			{Rule: "V-01", Action: "dropped", Field: "videos", Count: 1},
		},
	}
	var b strings.Builder
	if err := sum.WriteRepairs(&b, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"sitemap: repairs; the pages were kept and would be published (sitemap explain RULE says more):",
		"  12  normalized  loc     L-18  ",
		"   1  dropped     videos  V-01  ",
		"sitemap: entries skipped, by rule:",
		"  3  -     ",
		"  1  L-01  ",
		"  2  L-17  ",
	}
	if len(lines) != len(want) {
		t.Fatalf("got:\n%s", b.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to begin %q", i+1, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], "normal form") {
		t.Errorf("no rule title on %q", lines[1])
	}
	if sum.Dropped() != 1 {
		t.Errorf("Dropped %d, want 1", sum.Dropped())
	}
	b.Reset()
	if (Summary{}).WriteRepairs(&b, false); b.Len() != 0 {
		t.Errorf("a clean run wrote %q", b.String())
	}
}
