package state

import (
	"context"
	"testing"
	"time"
)

// The audit log counts copies, draws a sample per source, hands out what
// is left to do, and resumes an unfinished run with its rows.
func TestAuditLogSampleAndResume(t *testing.T) { eachBackend(t, testAuditLogSampleAndResume) }

func testAuditLogSampleAndResume(t *testing.T, open opener) {
	ctx := context.Background()
	st := open(t, storeOpts{}).(*DB)
	log := st.Audit()
	if _, err := log.Begin(ctx, "https://e.com/", time.Now()); err != nil {
		t.Fatal(err)
	}
	var rows []AuditListed
	for i, loc := range []string{"a", "b", "c", "d", "e"} {
		rows = append(rows, AuditListed{Loc: "https://e.com/" + loc, Key: "https://e.com/" + loc, Source: "s1", Rand: int64(10 - i)})
	}
	rows = append(rows, AuditListed{Loc: "https://e.com/x", Key: "https://e.com/x", Source: "s2", Rand: 1},
		AuditListed{Loc: "https://e.com/a", Key: "https://e.com/a", Source: "s2", Rand: 0})
	if err := log.AddListed(ctx, rows); err != nil {
		t.Fatal(err)
	}
	if err := log.EndListing(ctx, 2); err != nil {
		t.Fatal(err)
	}
	listed, sampled, err := log.Count(ctx)
	if err != nil || listed != 6 || sampled != 3 {
		t.Fatalf("count %d listed, %d sampled, %v; want 6, 3", listed, sampled, err)
	}
	todo, err := log.Todo(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range todo {
		got = append(got, r.Loc[len("https://e.com/"):])
	}
	// s1's two smallest keys are e (6) and d (7); s2 has x; a (listed
	// twice, first by s1 with key 10) is not in s1's sample.
	if want := "d e x"; join(got) != want {
		t.Fatalf("todo %q, want %q", join(got), want)
	}
	if err := log.Record(ctx, []AuditResult{{Loc: "https://e.com/d", Key: "https://e.com/d", Status: 200, HTML: true, Data: []byte(`{}`),
		Alternates: []AuditAlternate{{Hreflang: "de", Href: "https://e.com/x"}}}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := log.IsListed(ctx, "https://e.com/a", ""); err != nil || !ok {
		t.Fatalf("a listed: %v %v", ok, err)
	}
	st.Close()

	st = open(t, storeOpts{}).(*DB)
	defer st.Close()
	log = st.Audit()
	run, err := log.Begin(ctx, "https://e.com/", time.Now())
	if err != nil || !run.Resumed || !run.Listed {
		t.Fatalf("resume: %+v %v", run, err)
	}
	todo, _ = log.Todo(ctx, "", 10)
	if len(todo) != 2 {
		t.Fatalf("todo after resume %+v", todo)
	}
	// x is listed and unread: its alternates are not known yet, so it is
	// not reported as failing to link back.
	if bad, err := log.NotReciprocal(ctx, "https://e.com/d"); err != nil || len(bad) != 0 {
		t.Fatalf("not reciprocal before x is read: %+v %v", bad, err)
	}
	if err := log.Record(ctx, []AuditResult{{Loc: "https://e.com/x", Key: "https://e.com/x", Status: 200, HTML: true, Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if bad, err := log.NotReciprocal(ctx, "https://e.com/d"); err != nil || len(bad) != 1 || bad[0].Href != "https://e.com/x" {
		t.Fatalf("not reciprocal: %+v %v", bad, err)
	}
	res, err := log.Results(ctx, "", "", 10)
	if err != nil || len(res) != 2 || res[0].Loc != "https://e.com/d" {
		t.Fatalf("results %+v %v", res, err)
	}
	if err := log.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if run, _ := log.Begin(ctx, "https://e.com/", time.Now()); run.Resumed {
		t.Fatal("a finished run was resumed")
	}
	if l, _, _ := log.Count(ctx); l != 0 {
		t.Fatalf("a new run kept %d rows", l)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
