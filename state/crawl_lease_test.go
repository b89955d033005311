package state

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// openShared opens the crawl log of a new PostgreSQL database twice, as
// two worker processes would.
func openShared(t *testing.T) (SharedCrawlLog, SharedCrawlLog) {
	t.Helper()
	url := pgtest.DB(t)
	var logs [2]SharedCrawlLog
	for i := range logs {
		s, err := OpenPostgres(context.Background(), url, PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		logs[i] = s.Crawl().(SharedCrawlLog)
	}
	return logs[0], logs[1]
}

func admitAll(CrawlTx, CrawlURL, bool) (bool, error) { return true, nil }

func leased(t *testing.T, l SharedCrawlLog, worker string, n int, ttl time.Duration) []string {
	t.Helper()
	us, err := l.Lease(context.Background(), worker, 0, n, ttl, admitAll)
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, u := range us {
		locs = append(locs, u.Loc)
	}
	return locs
}

func held(t *testing.T, l SharedCrawlLog, loc, worker string) bool {
	t.Helper()
	var ok bool
	err := l.Update(context.Background(), func(tx CrawlTx) error {
		var err error
		ok, err = tx.(LeaseTx).Held(context.Background(), loc, worker)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// Workers lease different URLs of the frontier, in URL order; a lease
// that runs out, or is given back, is taken by another worker; renewed,
// it is not; a worker writes only what it still holds.
func TestCrawlLeases(t *testing.T) {
	ctx := context.Background()
	a, b := openShared(t)
	const start = "https://x/"
	now := time.Unix(1700000000, 0)
	if _, err := a.Join(ctx, start, now, CrawlWorker{ID: "A", Lease: time.Hour}, false); err != nil {
		t.Fatal(err)
	}
	r, err := b.Join(ctx, start, now.Add(time.Hour), CrawlWorker{ID: "B", Lease: time.Hour}, false)
	if err != nil || !r.Resumed || !r.Time.Equal(now) {
		t.Fatalf("second worker's join: %+v %v, want the first's run resumed", r, err)
	}
	err = a.Update(ctx, func(tx CrawlTx) error {
		for _, p := range []string{"e", "d", "c", "b", "a"} {
			if err := tx.Enqueue(ctx, CrawlLink{Loc: start + p}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(leased(t, a, "A", 2, time.Hour)); got != "[https://x/a https://x/b]" {
		t.Fatalf("A leased %s", got)
	}
	if got := fmt.Sprint(leased(t, b, "B", 10, time.Hour)); got != "[https://x/c https://x/d https://x/e]" {
		t.Fatalf("B leased %s, want what A does not hold", got)
	}
	if got := leased(t, a, "A", 10, time.Hour); got != nil {
		t.Fatalf("A leased %v while every URL is held", got)
	}
	if n, err := a.(FrontierCounter).Frontier(ctx); err != nil || n != 5 {
		t.Fatalf("frontier %d %v, want 5 (leased URLs are pending)", n, err)
	}
	// B's leases run out (renewed for no time): A takes them, and B may
	// no longer write c.
	if err := b.Renew(ctx, "B", 0, 0); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(leased(t, a, "A", 1, 0)); got != "[https://x/c]" {
		t.Fatalf("A leased %s, want B's expired lease of c", got)
	}
	if held(t, b, start+"c", "B") || !held(t, a, start+"c", "A") {
		t.Fatal("Held: c should be A's alone")
	}
	err = b.Update(ctx, func(tx CrawlTx) error {
		hs, err := tx.(LeaseTx).Holds(ctx, "B", []string{start + "a", start + "c", start + "d", start + "e", start + "zz"})
		if err == nil && fmt.Sprint(hs) != "map[https://x/d:true https://x/e:true]" {
			t.Errorf("Holds of B: %v, want d and e", hs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if hs, err := b.Holding(ctx, "B", []string{start + "a", start + "c", start + "d", start + "e", start + "zz"}); err != nil || fmt.Sprint(hs) != "map[https://x/d:true https://x/e:true]" {
		t.Fatalf("Holding of B: %v %v, want d and e", hs, err)
	}
	// A renews: B cannot take c.
	if err := a.Renew(ctx, "A", time.Hour, 3); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(leased(t, b, "B", 10, time.Hour)); got != "[https://x/d https://x/e]" {
		t.Fatalf("B leased %s after A renewed c", got)
	}
	// Leave gives A's URLs back.
	if err := a.Leave(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if err := a.Renew(ctx, "A", time.Hour, 3); !errors.Is(err, ErrCrawlLeft) {
		t.Fatalf("Renew after Leave: %v, want ErrCrawlLeft", err)
	}
	if got := fmt.Sprint(leased(t, b, "B", 10, time.Hour)); got != "[https://x/a https://x/b https://x/c]" {
		t.Fatalf("B leased %s after A left", got)
	}
	// admit may decide a URL instead of leasing it.
	if err := b.Leave(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	us, err := b.Lease(ctx, "B", 0, 10, time.Hour, func(tx CrawlTx, u CrawlURL, _ bool) (bool, error) {
		if u.Loc == start+"b" {
			return false, tx.Skip(ctx, u.Loc, "trap")
		}
		return true, nil
	})
	if err != nil || len(us) != 4 {
		t.Fatalf("lease with admit: %v %v", us, err)
	}
	if rs, err := b.Reasons(ctx); err != nil || rs["trap"] != 1 {
		t.Fatalf("reasons %v %v: admit's Skip not kept", rs, err)
	}
}

// The run is finished by one worker, once nothing is pending; a new run
// waits until the old one's workers are gone.
func TestCrawlFinishShared(t *testing.T) {
	ctx := context.Background()
	a, b := openShared(t)
	const start = "https://x/"
	now := time.Unix(1700000000, 0)
	for _, w := range []struct {
		l  SharedCrawlLog
		id string
	}{{a, "A"}, {b, "B"}} {
		if _, err := w.l.Join(ctx, start, now, CrawlWorker{ID: w.id, Host: "h", PID: 7, Lease: time.Hour}, false); err != nil {
			t.Fatal(err)
		}
	}
	err := a.Update(ctx, func(tx CrawlTx) error {
		if err := tx.Enqueue(ctx, CrawlLink{Loc: start}); err != nil {
			return err
		}
		return tx.Seeded(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if won, err := a.FinishShared(ctx, ""); err != nil || won {
		t.Fatalf("finish with a URL pending: %v %v", won, err)
	}
	leased(t, a, "A", 1, time.Hour)
	st, err := b.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != "running" || st.Start != start || st.Pending != 1 || st.Leased != 1 || st.Alive() != 2 || st.Workers[0].ID != "A" || st.Workers[0].PID != 7 {
		t.Fatalf("status %+v", st)
	}
	err = a.Update(ctx, func(tx CrawlTx) error {
		return tx.Record(ctx, CrawlResult{Loc: start, Status: 200, Reason: "noindex"})
	})
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for _, l := range []SharedCrawlLog{a, b, a} {
		won, err := l.FinishShared(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if won {
			wins++
		}
	}
	if wins != 1 {
		t.Fatalf("%d workers finished the run, want 1", wins)
	}
	if st, err = b.Status(ctx); err != nil || st.State != "finished" || st.Fetched != 1 || st.Recent != 1 || st.Pending != 0 {
		t.Fatalf("status %+v %v", st, err)
	}
	// One process does not crawl beside live workers.
	if _, err := a.Begin(ctx, start, now); !errors.Is(err, ErrCrawlBusy) {
		t.Fatalf("Begin while workers live: %v, want ErrCrawlBusy", err)
	}
	// A is publishing (alive): no new run yet.
	if err := b.Leave(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Join(ctx, start, now, CrawlWorker{ID: "C", Lease: time.Hour}, true); !errors.Is(err, ErrCrawlBusy) {
		t.Fatalf("join while the finished run's worker lives: %v, want ErrCrawlBusy", err)
	}
	if err := a.Leave(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	// A worker joining late, when the run is finished (its publisher
	// gone or not), is told so; it starts a new run only when asked to.
	if _, err := b.Join(ctx, start, now.Add(time.Hour), CrawlWorker{ID: "C", Lease: time.Hour}, false); !errors.Is(err, ErrCrawlFinished) {
		t.Fatalf("late join of the finished run: %v, want ErrCrawlFinished", err)
	}
	if st, err := b.Status(ctx); err != nil || st.State != "finished" || st.Fetched != 1 || len(st.Workers) != 0 {
		t.Fatalf("status after a late join: %+v %v, want the finished run as it was", st, err)
	}
	r, err := b.Join(ctx, start, now.Add(time.Hour), CrawlWorker{ID: "C", Lease: time.Hour}, true)
	if err != nil || r.Resumed {
		t.Fatalf("join after the run: %+v %v, want a new run", r, err)
	}
	if n, err := b.(FrontierCounter).Frontier(ctx); err != nil || n != 0 {
		t.Fatalf("new run's frontier %d %v", n, err)
	}
}

// Slots are a gap apart whichever worker takes them; the largest gap
// asked for holds; a pause moves the next slot.
func TestCrawlSlots(t *testing.T) {
	ctx := context.Background()
	a, b := openShared(t)
	if _, err := a.Join(ctx, "https://x/", time.Now(), CrawlWorker{ID: "A", Lease: time.Hour}, false); err != nil {
		t.Fatal(err)
	}
	if w, err := a.Slot(ctx, "x"); err != nil || w != 0 {
		t.Fatalf("slot of a host without politeness: %v %v, want 0", w, err)
	}
	if err := a.Politeness(ctx, "x", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := b.Politeness(ctx, "x", time.Second); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	for _, l := range []SharedCrawlLog{a, b, a} {
		w, err := l.Slot(ctx, "x")
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w)
	}
	// Each slot is an hour after the one before, less the time between
	// the calls.
	if waits[0] > 0 || waits[1] < 59*time.Minute || waits[1] > time.Hour || waits[2] < 119*time.Minute || waits[2] > 2*time.Hour {
		t.Fatalf("waits %v, want <= 0, ~1h, ~2h (the larger gap)", waits)
	}
	if err := b.Pause(ctx, "y", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := b.Politeness(ctx, "y", 0); err != nil {
		t.Fatal(err)
	}
	if err := b.Pause(ctx, "y", time.Hour); err != nil {
		t.Fatal(err)
	}
	if w, err := a.Slot(ctx, "y"); err != nil || w < 59*time.Minute {
		t.Fatalf("slot after a pause of an hour: %v %v", w, err)
	}
}

// One worker seeds the run: the first to claim it; the others wait
// until it is seeded, or take the seeding over when the seeder is gone.
// No worker finishes a run that is not seeded (its frontier is empty
// only because the seeds are not in yet).
func TestCrawlSeedClaim(t *testing.T) {
	ctx := context.Background()
	a, b := openShared(t)
	const start = "https://x/"
	now := time.Unix(1700000000, 0)
	for _, w := range []struct {
		l  SharedCrawlLog
		id string
	}{{a, "A"}, {b, "B"}} {
		r, err := w.l.Join(ctx, start, now, CrawlWorker{ID: w.id, Lease: time.Hour}, false)
		if err != nil || r.Seeded {
			t.Fatalf("join of %s: %+v %v, want a run not seeded", w.id, r, err)
		}
	}
	if won, err := b.FinishShared(ctx, ""); err != nil || won {
		t.Fatalf("finish of a run not seeded: %v %v, want false", won, err)
	}
	claim := func(l SharedCrawlLog, id string, wantMine, wantSeeded bool) {
		t.Helper()
		mine, seeded, err := l.ClaimSeed(ctx, id)
		if err != nil || mine != wantMine || seeded != wantSeeded {
			t.Fatalf("ClaimSeed of %s: mine %v, seeded %v, %v; want %v, %v", id, mine, seeded, err, wantMine, wantSeeded)
		}
	}
	claim(a, "A", true, false)
	claim(b, "B", false, false) // A seeds
	claim(a, "A", true, false)  // still A's
	// A leaves before it is done: B takes the seeding over.
	if err := a.Leave(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	claim(b, "B", true, false)
	if _, err := a.Join(ctx, start, now, CrawlWorker{ID: "A", Lease: time.Hour}, false); err != nil {
		t.Fatal(err)
	}
	claim(a, "A", false, false) // B seeds
	err := b.Update(ctx, func(tx CrawlTx) error {
		if err := tx.Enqueue(ctx, CrawlLink{Loc: start}); err != nil {
			return err
		}
		return tx.Seeded(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	claim(a, "A", false, true)
	claim(b, "B", false, true)
	r, err := a.Join(ctx, start, now, CrawlWorker{ID: "C", Lease: time.Hour}, false)
	if err != nil || !r.Seeded {
		t.Fatalf("join of a seeded run: %+v %v", r, err)
	}
	if won, err := a.FinishShared(ctx, ""); err != nil || won {
		t.Fatalf("finish with the start URL pending: %v %v", won, err)
	}
	err = a.Update(ctx, func(tx CrawlTx) error { return tx.Record(ctx, CrawlResult{Loc: start, Status: 404}) })
	if err != nil {
		t.Fatal(err)
	}
	if won, err := a.FinishShared(ctx, ""); err != nil || !won {
		t.Fatalf("finish of the seeded run with nothing pending: %v %v", won, err)
	}
}

// The crawl log's transactions are READ COMMITTED whatever the
// database's default (its statements rely on it): a database set to
// SERIALIZABLE does not fail them with serialization errors.
func TestCrawlReadCommitted(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s, err := OpenPostgres(ctx, url, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_isolation = serializable', current_database()); END $$`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = OpenPostgres(ctx, url, PostgresOptions{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var def, got string
	if err := s.db.QueryRowContext(ctx, `SHOW transaction_isolation`).Scan(&def); err != nil || def != "serializable" {
		t.Fatalf("the database's default isolation: %q %v", def, err)
	}
	err = s.Crawl().Update(ctx, func(tx CrawlTx) error {
		return tx.(leaseTx).x.QueryRowContext(ctx, `SHOW transaction_isolation`).Scan(&got)
	})
	if err != nil || got != "read committed" {
		t.Fatalf("the crawl log's transaction: %q %v, want read committed", got, err)
	}
}

// A link to a URL whose row another transaction holds (a worker
// writing its result for it) does not wait for that transaction when
// the link changes nothing: two workers each holding a URL the other
// links to would deadlock, and every page linking to the home page
// would queue on its row.
func TestCrawlEnqueueTakesNoLock(t *testing.T) {
	ctx := context.Background()
	a, b := openShared(t)
	const start = "https://x/"
	if _, err := a.Join(ctx, start, time.Now(), CrawlWorker{ID: "A", Lease: time.Hour}, false); err != nil {
		t.Fatal(err)
	}
	err := a.Update(ctx, func(tx CrawlTx) error {
		for _, l := range []CrawlLink{{Loc: start}, {Loc: start + "a", Depth: 1, Referrer: start}} {
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A holds both rows until it is told to end.
	locked, end, done := make(chan error, 1), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- a.Update(ctx, func(tx CrawlTx) error {
			_, err := tx.(LeaseTx).Holds(ctx, "", []string{start, start + "a"})
			locked <- err
			<-end
			return err
		})
	}()
	if err := <-locked; err != nil {
		t.Fatal(err)
	}
	defer func() {
		close(end)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	// B links to both, changing neither (the same depth and a later
	// referrer; an earlier depth): it does not wait for A.
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err = b.Update(wctx, func(tx CrawlTx) error {
		for _, l := range []CrawlLink{{Loc: start + "a", Depth: 1, Referrer: start + "z"}, {Loc: start, Depth: 2, Referrer: start + "a"}, {Loc: start + "new", Depth: 2, Referrer: start + "a"}} {
			if err := tx.Enqueue(wctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("links to rows another transaction holds, changing nothing: %v", err)
	}
	if ok, err := b.Seen(ctx, start+"new"); err != nil || !ok {
		t.Fatalf("the new URL: seen %v %v", ok, err)
	}
}
