package audit

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/state"
)

// judge over runs a day apart: each case is a page's sequence of what
// the runs saw, and the rules and verdict each run must give. The model
// is the span in which the content changed: between the last run that
// saw the old content and the first that saw the new one; a lastmod is
// honest when it dates the current content within that span (or, before
// any change was seen, stays where it was).
func TestJudgeRuns(t *testing.T) {
	t1 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	at := func(d time.Duration) string { return t1.Add(d).Format(time.RFC3339) }
	lmHeader := func(d time.Duration) string { return t1.Add(d).Format(http.TimeFormat) }
	type step struct {
		seen
		rules   string // the rules found, space-separated
		verdict string
		msg     string // in the first finding's message
	}
	page := func(lastmod, fp string) seen { return seen{lastMod: lastmod, fingerprint: fp} }
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"honest", []step{
			{page(at(-30*day), "A"), "", VerdictNew, ""},
			{page(at(-30*day), "A"), "", VerdictHonest, ""},
			{page(at(day+time.Hour), "B"), "", VerdictHonest, ""}, // changed between runs 2 and 3, dated so
			{page(at(day+time.Hour), "B"), "", VerdictHonest, ""},
		}},
		{"churn", []step{
			{page(at(-30*day), "A"), "", VerdictNew, ""},
			{page(at(time.Hour), "A"), "AUD-27", VerdictChurning, "lastmod moved from " + at(-30*day) + " to " + at(time.Hour)},
			{page(at(time.Hour), "A"), "", VerdictHonest, ""},
		}},
		{"churn, the ETag unchanged too", []step{
			{seen{lastMod: at(-day), etag: `"v1"`, fingerprint: "A"}, "", VerdictNew, ""},
			{seen{lastMod: at(time.Hour), etag: `"v1"`, fingerprint: "A"}, "AUD-27", VerdictChurning, "and so is its ETag"},
		}},
		{"stale until the lastmod catches up", []step{
			{page(at(-30*day), "A"), "", VerdictNew, ""},
			{page(at(-30*day), "B"), "AUD-28", VerdictStale, "changed between the runs of " + at(0) + " and " + at(day)},
			{page(at(-30*day), "B"), "AUD-28", VerdictStale, ""},
			{page(at(12*time.Hour), "B"), "", VerdictHonest, ""}, // now dated within the span of the change
			{page(at(12*time.Hour), "C"), "AUD-28", VerdictStale, ""},
		}},
		{"late", []step{
			{page(at(-30*day), "A"), "", VerdictNew, ""},
			{page(at(-30*day), "B"), "AUD-28", VerdictStale, ""},
			{page(at(day+time.Hour), "B"), "AUD-29", VerdictChurning, "dates the change after " + at(day)},
		}},
		{"backwards", []step{
			{page(at(-day), "A"), "", VerdictNew, ""},
			{page(at(-2*day), "A"), "AUD-29", VerdictChurning, "went backwards"},
			{page(at(-2*day), "A"), "", VerdictHonest, ""},
		}},
		{"a date alone covers its day", []step{
			{page("2026-10-01", "A"), "", VerdictNew, ""},
			{page("2026-11-02", "B"), "", VerdictHonest, ""}, // 2 November: the day the change was seen
			{page("2026-11-02", "B"), "", VerdictHonest, ""},
			{page("2026-11-02", "C"), "AUD-28", VerdictStale, ""},
		}},
		{"a changed date that is the same instant", []step{
			{page("2026-10-01T00:00:00Z", "A"), "", VerdictNew, ""},
			{page("2026-10-01T02:00:00+02:00", "A"), "", VerdictHonest, ""},
		}},
		{"lastmod after a Last-Modified that does not move", []step{
			{seen{lastMod: at(-day), lastModified: lmHeader(-10 * day), fingerprint: "A"}, "", VerdictNew, ""},
			{seen{lastMod: at(-day), lastModified: lmHeader(-10 * day), fingerprint: "A"}, "AUD-31", VerdictChurning, "later than the server's Last-Modified " + at(-10*day)},
		}},
		{"a Last-Modified of every request says nothing", []step{
			{seen{lastMod: at(-day), lastModified: lmHeader(0), fingerprint: "A"}, "", VerdictNew, ""},
			{seen{lastMod: at(-day), lastModified: lmHeader(day), fingerprint: "A"}, "", VerdictHonest, ""},
		}},
		{"no lastmod", []step{
			{page("", "A"), "", VerdictNew, ""},
			{page("", "B"), "", VerdictUnknown, ""},
		}},
		{"not HTML: the ETag is the content", []step{
			{seen{lastMod: at(-day), etag: `"1"`}, "", VerdictNew, ""},
			{seen{lastMod: at(-day), etag: `"2"`}, "AUD-28", VerdictStale, ""},
			{seen{lastMod: at(-day)}, "", VerdictUnknown, ""},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var prev *state.AuditHistory
			for i, s := range c.steps {
				now := t1.Add(time.Duration(i) * day)
				row, h, fs := judge("https://e.com/p", prev, s.seen, now)
				var got []string
				for _, f := range fs {
					got = append(got, string(f.Rule))
				}
				if strings.Join(got, " ") != s.rules || h.Verdict != s.verdict || h.Runs != i+1 {
					t.Errorf("run %d: %v %s after %d runs (%+v); want [%s] %s", i+1, got, h.Verdict, h.Runs, fs, s.rules, s.verdict)
				}
				if s.msg != "" && (len(fs) == 0 || !strings.Contains(fs[0].Message, s.msg)) {
					t.Errorf("run %d: %+v; want a message with %q", i+1, fs, s.msg)
				}
				if row.Seen != now || row.Key != "https://e.com/p" || row.LastMod != s.lastMod || row.Fingerprint != s.fingerprint {
					t.Errorf("run %d: row %+v", i+1, row)
				}
				prev = &row
			}
		})
	}
}

// A second sighting in the same run (another spelling of the URL) keeps
// the row as it is and compares nothing.
func TestJudgeSameRun(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	prev := state.AuditHistory{Key: "k", LastMod: "2026-10-01", Fingerprint: "A", Seen: now, Runs: 3, Since: now.Add(-time.Hour)}
	row, h, fs := judge("k", &prev, sawPage("2026-11-01", "B"), now)
	if row != prev || h.Verdict != VerdictNew || len(fs) != 0 {
		t.Errorf("row %+v, history %+v, findings %+v", row, h, fs)
	}
	if !slices.Equal([]string{section("https://e.com/blog/x"), section("https://e.com/about"), section("https://e.com/"), section("https://e.com/a/b/c")},
		[]string{"/blog/", "/", "/", "/a/"}) {
		t.Error("sections")
	}
}

// sawPage is what a run saw of an HTML page.
func sawPage(lastmod, fp string) seen { return seen{lastMod: lastmod, fingerprint: fp} }
