package state

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The audit history outlives runs: a row written with a result is read
// back after the file or database is reopened and a new run begins, a
// second write replaces it, and the lastmod most listed URLs share is
// found (and none when no lastmod has a majority).
func TestAuditHistoryAcrossRuns(t *testing.T) { eachBackend(t, testAuditHistoryAcrossRuns) }

func testAuditHistoryAcrossRuns(t *testing.T, open opener) {
	ctx := context.Background()
	st := open(t, storeOpts{}).(*DB)
	log := st.Audit()
	t1 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	run, err := log.Begin(ctx, "https://e.com/", t1)
	if err != nil {
		t.Fatal(err)
	}
	var rows []AuditListed
	for i := range 12 {
		lm := "2026-10-01T00:00:00Z"
		if i == 0 {
			lm = "2026-09-01"
		}
		if i == 1 {
			lm = ""
		}
		loc := fmt.Sprintf("https://e.com/p%02d", i)
		rows = append(rows, AuditListed{Loc: loc, Key: loc, Source: "s", LastMod: lm, Rand: int64(i)})
	}
	if err := log.AddListed(ctx, rows); err != nil {
		t.Fatal(err)
	}
	if err := log.EndListing(ctx, 0); err != nil {
		t.Fatal(err)
	}
	lm, n, with, err := log.SharedLastMod(ctx)
	if err != nil || lm != "2026-10-01T00:00:00Z" || n != 10 || with != 11 {
		t.Fatalf("shared lastmod %q %d of %d, %v; want 2026-10-01T00:00:00Z 10 of 11", lm, n, with, err)
	}
	h := AuditHistory{Key: "https://e.com/p00", LastMod: "2026-09-01", ETag: `"a"`, LastModified: "Sun, 01 Nov 2026 09:00:00 GMT",
		Fingerprint: "html:1", Seen: run.Time, Runs: 1, Since: run.Time}
	if err := log.Record(ctx, []AuditResult{{Loc: h.Key, Key: h.Key, Status: 200, HTML: true, Data: []byte(`{}`), History: &h}}); err != nil {
		t.Fatal(err)
	}
	if err := log.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st = open(t, storeOpts{}).(*DB)
	defer st.Close()
	log = st.Audit()
	t2 := t1.Add(24 * time.Hour)
	if run, err = log.Begin(ctx, "https://e.com/", t2); err != nil || run.Resumed {
		t.Fatalf("second run: %+v %v", run, err)
	}
	got, err := log.History(ctx, []string{"https://e.com/p00", "https://e.com/p01"})
	if err != nil || len(got) != 1 || got[0] != h {
		t.Fatalf("history after a new run: %+v %v; want [%+v]", got, err, h)
	}
	h2 := h
	h2.Fingerprint, h2.Seen, h2.Runs, h2.Since, h2.PrevSeen = "html:2", t2, 2, t2, t1
	if err := log.AddListed(ctx, rows[:1]); err != nil {
		t.Fatal(err)
	}
	if err := log.Record(ctx, []AuditResult{{Loc: h.Key, Key: h.Key, Status: 200, Data: []byte(`{}`), History: &h2}}); err != nil {
		t.Fatal(err)
	}
	if got, err = log.History(ctx, []string{"https://e.com/p00"}); err != nil || len(got) != 1 || got[0] != h2 {
		t.Fatalf("history replaced: %+v %v; want [%+v]", got, err, h2)
	}
	if got, err = log.History(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("history of no key: %+v %v", got, err)
	}
	// One listed URL: its lastmod is shared by all (1 of 1).
	if lm, n, with, err = log.SharedLastMod(ctx); err != nil || lm != "2026-09-01" || n != 1 || with != 1 {
		t.Fatalf("shared lastmod of one: %q %d of %d, %v", lm, n, with, err)
	}
	if err := log.AddListed(ctx, rows[1:4]); err != nil {
		t.Fatal(err)
	}
	// 2026-09-01 once, 2026-10-01 twice, p01 none: no majority of 3.
	if lm, n, with, err = log.SharedLastMod(ctx); err != nil || lm != "2026-10-01T00:00:00Z" || n != 2 || with != 3 {
		t.Fatalf("shared lastmod of three: %q %d of %d, %v", lm, n, with, err)
	}
	if err := log.AddListed(ctx, []AuditListed{{Loc: "https://e.com/q", Key: "https://e.com/q", LastMod: "2026-08-01"}}); err != nil {
		t.Fatal(err)
	}
	if lm, n, with, err = log.SharedLastMod(ctx); err != nil || lm != "" || n != 0 || with != 4 {
		t.Fatalf("no majority: %q %d of %d, %v", lm, n, with, err)
	}
}
