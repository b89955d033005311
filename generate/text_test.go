package generate

import (
	"fmt"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/rules"
)

// The Reporter writes Max invalid entries and Max remarks of each
// severity and rule, counts the rest in WriteHeld, and writes every
// invalid entry under Strict and every remark of the run itself.
func TestReporterCaps(t *testing.T) {
	for _, c := range []struct {
		name            string
		strict          bool
		invalid, warned int
		wantLines       int
		wantHeld        string
	}{
		{"under the cap", false, 2, 2, 2 + 2 + 1, ""},
		{"over the cap", false, 5, 4, 3 + 3 + 1, "… and 2 more invalid entries\n… and 1 more warning L-18 lines (counted below)\n"},
		{"strict", true, 5, 0, 5 + 1, "… and 2 more invalid entries\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			r := &Reporter{Max: 3, Strict: c.strict, Print: func(l string) { lines = append(lines, l) }}
			for i := range c.invalid {
				r.Report(Problem{Rule: rules.L01, Severity: sitemap.SeverityError, File: "u.txt", Line: i + 1, Message: "bad"})
			}
			for i := range c.warned {
				r.Report(Problem{Rule: rules.L18, Severity: sitemap.SeverityWarning, URL: fmt.Sprint("https://e.com/", i), Message: "m"})
			}
			r.Report(Problem{Rule: rules.O03, Severity: sitemap.SeverityWarning, Message: "of the run"})
			if len(lines) != c.wantLines {
				t.Errorf("%d lines, want %d: %q", len(lines), c.wantLines, lines)
			}
			if last := lines[len(lines)-1]; last != "sitemap: warning O-03: of the run" {
				t.Errorf("run remark written as %q", last)
			}
			var held strings.Builder
			r.WriteHeld(&held, c.invalid)
			if held.String() != c.wantHeld {
				t.Errorf("WriteHeld = %q, want %q", held.String(), c.wantHeld)
			}
		})
	}
}

// What a run says at its end: why nothing was published, the closing
// line and its verdict, what was done to robots.txt.
func TestSummaryText(t *testing.T) {
	for _, c := range []struct {
		sum           Summary
		shard, shards int
		want          string
	}{
		{Summary{Summary: build.Summary{Skipped: 2}}, 0, 0, "no valid entries"},
		{Summary{Excluded: 3}, 0, 0, "no entry left to publish: 3 left out by --include/--exclude"},
		{Summary{OtherShards: 4}, 2, 3, "shard 2 of 3 has no entry: 'sitemap index --shards 3' cannot be written over it; give fewer shards, or --shard-by input (4 left to other shards)"},
		{Summary{}, 0, 0, "the input holds no entries (empty, or only blank and # lines)"},
	} {
		if got := c.sum.WhyEmpty(c.shard, c.shards); got != c.want {
			t.Errorf("WhyEmpty = %q, want %q", got, c.want)
		}
	}
	for _, c := range []struct {
		sum    Summary
		dryRun bool
		want   string
	}{
		{Summary{}, false, ""},
		{Summary{Summary: build.Summary{Skipped: 1}}, false, "sitemap: 1 invalid entry skipped; the valid ones were published\n"},
		{Summary{Summary: build.Summary{Skipped: 2}}, true, "sitemap: 2 invalid entries skipped; dry run, nothing written\n"},
		{Summary{Repairs: []Repair{{Count: 2, Action: "dropped"}}}, false, "sitemap: 2 fields or blocks dropped from pages that were kept; published\n"},
	} {
		var b strings.Builder
		if problems := c.sum.WriteClosing(&b, c.dryRun); b.String() != c.want || problems != (c.want != "") {
			t.Errorf("WriteClosing = %q, %v; want %q", b.String(), problems, c.want)
		}
	}
	var b strings.Builder
	(*RobotsUpdate)(nil).WriteText(&b)
	(&RobotsUpdate{Path: "r.txt", Sitemap: "https://e.com/s.xml"}).WriteText(&b)
	(&RobotsUpdate{Path: "r.txt", Sitemap: "https://e.com/s.xml", Added: true, Removed: []string{"https://e.com/old.xml"}}).WriteText(&b)
	want := "r.txt: already lists Sitemap: https://e.com/s.xml\nr.txt: added Sitemap: https://e.com/s.xml\nr.txt: removed Sitemap: https://e.com/old.xml (no longer published)\n"
	if b.String() != want {
		t.Errorf("RobotsUpdate.WriteText = %q, want %q", b.String(), want)
	}
}
