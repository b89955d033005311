package audit

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/browsertest"
)

// The report of a second audit with history, in Chromium: the section
// "Is lastmod honest?" is shown between the counts and the table, with
// the site's score and build-time stamp, and a bar per section whose
// honest, churning and stale parts are as wide as their shares; the
// classes of the history filter the table like any other, and the page
// passes the automated accessibility check.
func TestHistoryChartInBrowser(t *testing.T) {
	hs := newHistorySite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	o := Options{HTTP: testClient(t), Rate: -1, Retries: -1, History: true}
	runAudit(t, st, []string{hs.srv.URL + "/"}, o)
	hs.next()
	time.Sleep(10 * time.Millisecond)
	ctx := context.Background()
	a, err := New(ctx, st.Audit(), []string{hs.srv.URL + "/"}, o)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := a.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out, rep bytes.Buffer
	tally, err := a.WriteRecords(ctx, sum, &out, "jsonl", &rep, false)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `{"site":"`+hs.srv.URL+`/","honest":12,"churning":1,"stale":1,`) || !strings.Contains(last, `"rule":"AUD-30"`) {
		t.Errorf("the JSONL's last line is %s; want the site's history", last)
	}
	p := filepath.Join(t.TempDir(), "audit.html")
	if err := os.WriteFile(p, rep.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	tab := browsertest.New(t)
	tab.LoadFile(p)
	tab.WaitVisible("#history-chart")
	tab.NoErrors()
	order := browsertest.Eval[[]float64](tab, `["summary", "history", "urls"].map(id => document.getElementById(id).getBoundingClientRect().top)`)
	if !(order[0] < order[1] && order[1] < order[2]) {
		t.Errorf("tops of the counts, the history and the table: %v; want the history between the other two", order)
	}
	if got := tab.Text("#history-score"); !strings.HasPrefix(got, "86% honest: of the 14 URLs compared") {
		t.Errorf("score: %q", got)
	}
	if got := tab.Text("#history .site-finding"); !strings.Contains(got, "AUD-30") || !strings.Contains(got, "13 listed URLs of 14 with a lastmod share lastmod") {
		t.Errorf("site finding: %q", got)
	}
	type row struct {
		Section string
		Counts  []string
		Widths  map[string]float64 // share of the bar's width, by part
	}
	rows := browsertest.Eval[[]row](tab, `Array.from(document.querySelectorAll("#history-chart tbody tr")).map(tr => {
		const bar = tr.querySelector(".bar"), w = bar.getBoundingClientRect().width, widths = {};
		bar.querySelectorAll("span").forEach(s => widths[s.className] = s.getBoundingClientRect().width / w);
		return {Section: tr.cells[0].textContent, Counts: [2, 3, 4].map(i => tr.cells[i].textContent), Widths: widths};
	})`)
	want := []struct {
		section                 string
		honest, churning, stale int
	}{{"/", 2, 0, 0}, {"/blog/", 5, 0, 1}, {"/docs/", 5, 1, 0}}
	if len(rows) != len(want) {
		t.Fatalf("chart rows %+v; want %d sections", rows, len(want))
	}
	for i, w := range want {
		r := rows[i]
		total := float64(w.honest + w.churning + w.stale)
		if r.Section != w.section || strings.Join(r.Counts, " ") != strings.Join([]string{strconv.Itoa(w.honest), strconv.Itoa(w.churning), strconv.Itoa(w.stale)}, " ") {
			t.Errorf("row %d: %+v; want %+v", i, r, w)
		}
		for part, n := range map[string]int{VerdictHonest: w.honest, VerdictChurning: w.churning, VerdictStale: w.stale} {
			if math.Abs(r.Widths[part]-float64(n)/total) > 0.01 {
				t.Errorf("%s: the %s part is %.3f of the bar, want %.3f", w.section, part, r.Widths[part], float64(n)/total)
			}
		}
	}
	if n := browsertest.Eval[int](tab, `document.querySelectorAll('#class-filter option[value="AUD-30"], #counts button[data-rule="AUD-30"]').length`); n != 0 {
		t.Errorf("AUD-30, about the site, is offered as a filter of the URLs (%d elements)", n)
	}
	if got := tab.Text(`#counts td.count[data-rule="AUD-30"] a[href="#history"]`); got != "1" {
		t.Errorf("AUD-30's count %q, want 1 linking to the history", got)
	}
	if v := tab.Accessibility(); len(v) > 0 {
		t.Errorf("accessibility violations with the history's section: %q", v)
	}
	tab.Screenshot("history")
	tab.Click(`#counts button[data-rule="AUD-28"]`)
	if got := browsertest.Eval[int](tab, `document.querySelectorAll("#table tbody tr:not([hidden])").length`); got != 1 || tally.Rules["AUD-28"] != 1 {
		t.Errorf("class AUD-28: %d rows shown, want 1", got)
	}
	tab.NoErrors()
}
