package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

// The HTML report of the planted site, in Chromium: the counts by class
// are shown above the table, a class filter and the text filter narrow
// the table, and a click on a column heading sorts it.
func TestReportInBrowser(t *testing.T) {
	ps := newPlantedSite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	ctx := context.Background()
	a, err := New(ctx, st.Audit(), []string{ps.srv.URL + "/"}, Options{HTTP: testClient(t), Rate: -1, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := a.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rw := NewReportWriter(&b, ReportInfo{Start: sum.Start, Listed: sum.Listed, Sampled: sum.Sampled, Time: time.Now()})
	tally, err := a.Records(ctx, rw.Add)
	if err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	// Self-contained: nothing is loaded from anywhere (the only URLs are
	// the links of the table).
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).Find(b.Bytes()); m != nil {
		t.Fatalf("the report loads a resource: %s", m)
	}
	p := filepath.Join(t.TempDir(), "audit.html")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	tab := browsertest.New(t)
	tab.LoadFile(p)
	tab.WaitVisible("#counts")
	tab.NoErrors()
	rows := func() int {
		return browsertest.Eval[int](tab, `document.querySelectorAll("#table tbody tr:not([hidden])").length`)
	}

	// The counts: shown, above the table, equal to the tally.
	if got := tab.Text(`#counts td.count[data-rule="AUD-07"]`); got != "3" {
		t.Errorf("AUD-07 count shows %q, want 3", got)
	}
	if got := tab.Text(`#counts tfoot td.count`); got != strconv.Itoa(tally.Records) {
		t.Errorf("total shows %q, want %d", got, tally.Records)
	}
	if above := browsertest.Eval[bool](tab, `document.getElementById("summary").getBoundingClientRect().top < document.getElementById("urls").getBoundingClientRect().top`); !above {
		t.Error("the counts are not shown above the table")
	}
	if got := rows(); got != tally.Records {
		t.Fatalf("%d rows shown, want %d", got, tally.Records)
	}

	// A class narrows the table to its rows: a click on its count.
	tab.Click(`#counts button[data-rule="AUD-02"]`)
	if got := rows(); got != 3 {
		t.Errorf("class AUD-02: %d rows shown, want 3", got)
	}
	if got := tab.Text("#shown"); got != "3 of "+strconv.Itoa(tally.Records)+" URLs shown" {
		t.Errorf("shown: %q", got)
	}
	// The text filter narrows it further.
	tab.Type("#filter", "old2")
	if got := rows(); got != 1 {
		t.Errorf("class AUD-02 and text old2: %d rows shown, want 1", got)
	}

	// Back to every row; a click on Status sorts by it.
	browsertest.Eval[bool](tab, `(() => {
		const s = document.getElementById("class-filter"), q = document.getElementById("filter");
		s.value = ""; s.dispatchEvent(new Event("change"));
		q.value = ""; q.dispatchEvent(new Event("input"));
		return true })()`)
	if got := rows(); got != tally.Records {
		t.Fatalf("after clearing the filters: %d rows, want %d", got, tally.Records)
	}
	tab.Click(`#table th:nth-child(2)`)
	first := browsertest.Eval[string](tab, `document.querySelector("#table tbody tr td:nth-child(2)").textContent`)
	last := browsertest.Eval[string](tab, `(() => { const r = document.querySelectorAll("#table tbody tr"); return r[r.length-1].cells[1].textContent })()`)
	if first != "200" || last != "" {
		t.Errorf("sorted by status: first %q, last %q (want 200 first, the unrequested last)", first, last)
	}
	tab.NoErrors()
	tab.Screenshot("report")
}
