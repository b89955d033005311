package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Three workers sharing a PostgreSQL crawl log find what one process
// finds: the same entries, the same report (depths and referrers
// included), and exactly one of them finishes the crawl. One of them
// seeds the crawl: the seed sitemap is read once.
func TestWorkersCrawlTogether(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	o := siteOptions()
	_, wantEntries, wantOut := crawlSite(t, site, filepath.Join(t.TempDir(), "state.db"), o)

	site.sitemaps.Store(0)
	ctx := context.Background()
	db := pgtest.DB(t)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		finished []*Crawler
		fetched  int // by the workers, each its own
		total    int // the finisher's summary
	)
	// All three join before any runs, as processes started at once do.
	var workers []*Crawler
	for i := range 3 {
		st := openPostgres(t, db)
		o := o
		o.Concurrency = 2
		c, err := NewWorker(ctx, st, st.Crawl().(state.SharedCrawlLog), site.URL+"/", o, WorkerOptions{Lease: 10 * time.Second, ID: "w" + string(rune('0'+i))})
		if err != nil {
			t.Fatal(err)
		}
		workers = append(workers, c)
	}
	for _, c := range workers {
		wg.Go(func() {
			sum, err := c.Run(ctx)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			fetched += int(c.pages.Load())
			if sum.Finished {
				total = sum.Fetched
				finished = append(finished, c)
			} else if err := c.Leave(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := site.sitemaps.Load(); n != 1 {
		t.Errorf("the seed sitemap was read %d times, want once (by the worker that seeds)", n)
	}
	if len(finished) != 1 {
		t.Fatalf("%d workers finished the crawl, want 1", len(finished))
	}
	if total != fetched {
		t.Errorf("the finisher's summary: %d pages fetched, want the crawl's %d", total, fetched)
	}
	c := finished[0]
	defer c.Leave(ctx)
	var entries []sitemap.URL
	if err := c.Entries(ctx, func(u *sitemap.URL) error { entries = append(entries, *u); return nil }); err != nil {
		t.Fatal(err)
	}
	out := map[string]Outcome{}
	if err := c.Outcomes(ctx, func(o Outcome) error { out[strings.TrimPrefix(o.URL, site.URL)] = o; return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(entries, wantEntries) {
		t.Errorf("entries of the workers:\n%v\nof one process:\n%v", entries, wantEntries)
	}
	if !reflect.DeepEqual(out, wantOut) {
		for k, v := range wantOut {
			if out[k] != v {
				t.Errorf("%s: workers %+v, one process %+v", k, out[k], v)
			}
		}
		for k, v := range out {
			if _, ok := wantOut[k]; !ok {
				t.Errorf("%s: only the workers report %+v", k, v)
			}
		}
	}
	// Every page once (the /busy page's 429 is one fetch with a retry).
	if want := len(wantOut) - countReasons(wantOut); fetched != want {
		t.Errorf("the workers fetched %d pages, want %d", fetched, want)
	}
	// A reader of the finished crawl: Finish says it is done.
	st := openPostgres(t, db)
	r, err := Open(st, st.Crawl(), site.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Finish(ctx)
	if err != nil || sum.Finished || sum.Fetched != fetched || sum.Listed != len(wantEntries) {
		t.Fatalf("Finish of the finished crawl: %+v %v", sum, err)
	}
}

// countReasons counts the URLs decided without a fetch.
func countReasons(out map[string]Outcome) int {
	n := 0
	for _, o := range out {
		if o.Status == 0 {
			n++
		}
	}
	return n
}

// A worker that dies holding URLs loses nothing: its leases run out and
// another worker fetches them. Finish refuses while URLs are pending.
func TestWorkerDiesHoldingLeases(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	o := siteOptions()
	_, wantEntries, _ := crawlSite(t, site, filepath.Join(t.TempDir(), "state.db"), o)

	ctx := context.Background()
	db := pgtest.DB(t)
	// The dead worker joined, enqueued and leased the start URL, then
	// stopped (before its seed sitemap): no renewal, no write, no Leave.
	dead := openPostgres(t, db)
	log := dead.Crawl().(state.SharedCrawlLog)
	if _, err := log.Join(ctx, site.URL+"/", time.Now(), state.CrawlWorker{ID: "dead", Lease: time.Second}, false); err != nil {
		t.Fatal(err)
	}
	err := log.Update(ctx, func(tx state.CrawlTx) error {
		return tx.Enqueue(ctx, state.CrawlLink{Loc: site.URL + "/"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if us, err := log.Lease(ctx, "dead", 0, 10, time.Second, func(state.CrawlTx, state.CrawlURL, bool) (bool, error) { return true, nil }); err != nil || len(us) != 1 {
		t.Fatalf("lease: %v %v", us, err)
	}
	rd := openPostgres(t, db)
	r, err := Open(rd, rd.Crawl(), site.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(ctx); !errors.Is(err, ErrPending) {
		t.Fatalf("Finish with the start URL leased: %v, want ErrPending", err)
	}
	st := openPostgres(t, db)
	c, err := NewWorker(ctx, st, st.Crawl().(state.SharedCrawlLog), site.URL+"/", o, WorkerOptions{Lease: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Leave(ctx)
	sum, err := c.Run(ctx)
	if err != nil || !sum.Finished {
		t.Fatalf("the live worker: %+v %v", sum, err)
	}
	var entries []sitemap.URL
	if err := c.Entries(ctx, func(u *sitemap.URL) error { entries = append(entries, *u); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(entries, wantEntries) {
		t.Errorf("entries:\n%v\nwant:\n%v", entries, wantEntries)
	}
}

// Finish finishes a shared crawl whose frontier is empty but that no
// worker finished (they died after their last write): once.
func TestFinishOrphanedCrawl(t *testing.T) {
	ctx := context.Background()
	db := pgtest.DB(t)
	st := openPostgres(t, db)
	const start = "https://www.example.com/"
	log := st.Crawl().(state.SharedCrawlLog)
	if _, err := log.Join(ctx, start, time.Now(), state.CrawlWorker{ID: "dead", Lease: time.Second}, false); err != nil {
		t.Fatal(err)
	}
	err := log.Update(ctx, func(tx state.CrawlTx) error {
		if err := tx.Enqueue(ctx, state.CrawlLink{Loc: start}); err != nil {
			return err
		}
		return tx.Record(ctx, state.CrawlResult{Loc: start, Status: 200, Entry: &sitemap.URL{Loc: start}})
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(st, st.Crawl(), start, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The seeding did not end (the transaction above is not it).
	if _, err := r.Finish(ctx); !errors.Is(err, ErrPending) || !strings.Contains(err.Error(), "seeds") {
		t.Fatalf("Finish of a crawl not seeded: %v, want ErrPending (the seeds are not in)", err)
	}
	if err := log.Update(ctx, func(tx state.CrawlTx) error { return tx.Seeded(ctx) }); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Finish(ctx)
	if err != nil || !sum.Finished || sum.Listed != 1 || sum.Fetched != 1 {
		t.Fatalf("Finish: %+v %v, want the crawl finished by this call, one page listed", sum, err)
	}
	if sum, err := r.Finish(ctx); err != nil || sum.Finished || sum.Listed != 1 {
		t.Fatalf("second Finish: %+v %v, want the finished crawl read, not finished again", sum, err)
	}
	o, err := Open(st, st.Crawl(), "https://other.example/", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Finish(ctx); err == nil || !strings.Contains(err.Error(), "holds a crawl of "+start) {
		t.Fatalf("Finish of another start URL: %v", err)
	}
}

// lateLog is a shared crawl log whose first FinishShared finds a URL
// pending (another worker's last result, written just after).
type lateLog struct {
	state.SharedCrawlLog
	calls int
}

func (l *lateLog) FinishShared(ctx context.Context, reason string) (bool, error) {
	if l.calls++; l.calls == 1 {
		return false, nil
	}
	return l.SharedCrawlLog.FinishShared(ctx, reason)
}

// A worker whose FinishShared lost to a URL written after it looked, and
// then finds nothing pending, finishes the run itself (it left the run
// unfinished: had the worker that wrote the URL died before finishing,
// no worker would publish).
func TestWorkerFinishesAfterLateWrite(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	st := openPostgres(t, pgtest.DB(t))
	log := &lateLog{SharedCrawlLog: st.Crawl().(state.SharedCrawlLog)}
	c, err := NewWorker(ctx, st, log, site.URL+"/", siteOptions(), WorkerOptions{Lease: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Leave(ctx)
	sum, err := c.Run(ctx)
	if err != nil || !sum.Finished || log.calls < 2 {
		t.Fatalf("Run: finished %v, %d FinishShared calls, %v; want the run finished by this worker", sum.Finished, log.calls, err)
	}
}

// A worker whose Run fails stops renewing its leases: they run out even
// though it does not Leave.
func TestWorkerRunErrorStopsHeartbeat(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	db := pgtest.DB(t)
	st := openPostgres(t, db)
	log := st.Crawl().(state.SharedCrawlLog)
	c, err := NewWorker(ctx, st, log, site.URL+"/", siteOptions(), WorkerOptions{Lease: time.Second, ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Leave(ctx)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Run(cctx); err == nil {
		t.Fatal("Run with its context ended: no error")
	}
	// Without the heartbeat the worker is dead a lease after it was
	// last heard of; with it, it is renewed every third of a second.
	deadline := time.Now().Add(20 * time.Second)
	for {
		s, err := log.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s.Alive() == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker whose Run failed is still alive 20s later: %+v", s.Workers)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stealingLog takes the URLs of the worker's first lease away from it at
// once (its lease ran out and another worker leased them), as a
// worker stalled past its lease finds when it writes.
type stealingLog struct {
	state.SharedCrawlLog
	t      *testing.T
	stolen []string
}

func (l *stealingLog) Lease(ctx context.Context, worker string, depth, n int, ttl time.Duration, admit func(state.CrawlTx, state.CrawlURL, bool) (bool, error)) ([]state.CrawlURL, error) {
	us, err := l.SharedCrawlLog.Lease(ctx, worker, depth, n, ttl, admit)
	if err != nil || l.stolen != nil || len(us) == 0 {
		return us, err
	}
	all := func(state.CrawlTx, state.CrawlURL, bool) (bool, error) { return true, nil }
	for try := 0; len(l.stolen) < len(us); try++ {
		if try == 10 {
			l.t.Fatalf("could not take %d URLs from the worker", len(us))
		}
		// The worker's leases run out (its heartbeat may renew them
		// in between: then again), and the thief leases them for a
		// second.
		if err := l.SharedCrawlLog.Renew(ctx, worker, 0, 0); err != nil {
			return nil, err
		}
		got, err := l.SharedCrawlLog.Lease(ctx, "thief", depth, n, time.Second, all)
		if err != nil {
			return nil, err
		}
		for _, u := range got {
			l.stolen = append(l.stolen, u.Loc)
		}
	}
	return us, nil
}

// stampCounter counts the entries stamped in the store, by loc.
type stampCounter struct {
	state.Store
	mu sync.Mutex
	n  map[string]int
}

func (s *stampCounter) Stamp(ctx context.Context, u *sitemap.URL, now time.Time) error {
	s.mu.Lock()
	s.n[u.Loc]++
	s.mu.Unlock()
	return s.Store.Stamp(ctx, u, now)
}

// A worker whose lease ran out while it fetched (another worker took the
// URL) writes nothing of its result: not in the crawl log, not in the
// state store (its result would overwrite the new holder's); it counts
// no page for it.
func TestWorkerLostLeaseWritesNothing(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	pg := openPostgres(t, pgtest.DB(t))
	st := &stampCounter{Store: pg, n: map[string]int{}}
	log := &stealingLog{SharedCrawlLog: pg.Crawl().(state.SharedCrawlLog), t: t}
	c, err := NewWorker(ctx, st, log, site.URL+"/", siteOptions(), WorkerOptions{Lease: 5 * time.Second, ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Leave(ctx)
	sum, err := c.Run(ctx)
	if err != nil || !sum.Finished {
		t.Fatalf("Run: %+v %v", sum, err)
	}
	// The stolen URLs came back when the thief's lease ran out, and
	// were fetched again: each stamped once, by the second fetch.
	for _, loc := range log.stolen {
		if n := st.n[loc]; n > 1 {
			t.Errorf("%s stamped %d times: the result of the lost lease was stamped too", loc, n)
		}
	}
	if n, err := log.Fetched(ctx); err != nil || sum.Fetched != n || sum.Fetched != int(c.pages.Load()) {
		t.Errorf("pages counted %d (heartbeat %d), fetched by the crawl log %d %v", sum.Fetched, c.pages.Load(), n, err)
	}
}

// A 429's pause holds the requests whose slots were reserved before it:
// none is made until the Retry-After is over.
func TestWorkerPauseHoldsReservedSlots(t *testing.T) {
	var (
		mu     sync.Mutex
		busyAt time.Time   // when the 429 was answered
		times  []time.Time // page requests after it
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
			return
		case r.URL.Path == "/":
			fmt.Fprint(w, `<html><body><a href="/p0">0</a><a href="/p1">1</a><a href="/p2">2</a><a href="/p3">3</a></body></html>`)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if busyAt.IsZero() {
			busyAt = time.Now()
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		times = append(times, time.Now())
		fmt.Fprint(w, "<html><body>page</body></html>")
	}))
	defer srv.Close()
	ctx := context.Background()
	st := openPostgres(t, pgtest.DB(t))
	o := siteOptions()
	o.Rate, o.Concurrency, o.MaxRetryAfter = 4, 4, 5*time.Second // slots 250 ms apart, four reserved at once
	c, err := NewWorker(ctx, st, st.Crawl().(state.SharedCrawlLog), srv.URL+"/", o, WorkerOptions{Lease: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Leave(ctx)
	if sum, err := c.Run(ctx); err != nil || !sum.Finished || sum.Listed != 5 {
		t.Fatalf("Run: %+v %v", sum, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, at := range times {
		// The pause is 2 s; half a second of it is left for the
		// clocks and the machine's load.
		if d := at.Sub(busyAt); d < 1500*time.Millisecond {
			t.Errorf("a page requested %s after the 429 that asked for a pause of 2s", d)
		}
	}
}

// openPostgres opens the crawl tests' PostgreSQL state store at db,
// closed when the test ends.
func openPostgres(t *testing.T, db string) *state.Postgres {
	t.Helper()
	st, err := state.OpenPostgres(t.Context(), db, state.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
