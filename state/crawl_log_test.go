package state

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

const ex = "https://example.com"

// crash drops the store's connection with its batch open, as a killed
// process does (SQLite rolls the open transaction back).
func crash(s *SQLite) {
	s.mu.Lock()
	s.closed = true
	s.closeAll()
	s.mu.Unlock()
}

// crawlStore is a Store with its crawl log: SQLite and Postgres.
type crawlStore interface {
	Store
	Crawl() CrawlLog
}

func beginCrawl(t *testing.T, s crawlStore, start string, now time.Time) (CrawlLog, CrawlRun) {
	t.Helper()
	log := s.Crawl()
	run, err := log.Begin(context.Background(), start, now)
	if err != nil {
		t.Fatal(err)
	}
	return log, run
}

func update(t *testing.T, log CrawlLog, fn func(ctx context.Context, tx CrawlTx) error) {
	t.Helper()
	ctx := context.Background()
	if err := log.Update(ctx, func(tx CrawlTx) error { return fn(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
}

func outcomes(t *testing.T, log CrawlLog) map[string]CrawlOutcome {
	t.Helper()
	m := map[string]CrawlOutcome{}
	after := ""
	for {
		page, err := log.Outcomes(context.Background(), after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range page {
			if o.Loc <= after {
				t.Fatalf("Outcomes not sorted: %q after %q", o.Loc, after)
			}
			m[o.Loc] = o
			after = o.Loc
		}
		if len(page) < 2 {
			return m
		}
	}
}

func pending(t *testing.T, log CrawlLog) []CrawlURL {
	t.Helper()
	var all []CrawlURL
	for {
		d, ok, err := log.NextDepth(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return all
		}
		after := ""
		for {
			page, err := log.Pending(context.Background(), d, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, page...)
			if len(page) < 2 {
				break
			}
			after = page[len(page)-1].Loc
		}
		// Decide this depth so that NextDepth moves on.
		update(t, log, func(ctx context.Context, tx CrawlTx) error {
			for _, u := range all {
				if u.Depth == d {
					if err := tx.Skip(ctx, u.Loc, "test"); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
}

// TestCrawlBeginResume: an unfinished run of the same start URL resumes
// with its time and seeded flag; a finished run, or another start URL,
// starts a new run that forgets the old run's URLs but not the Store's
// records.
func TestCrawlBeginResume(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	t1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.FixedZone("x", 3600))
	t2 := t1.Add(24 * time.Hour)
	s := openTemp(t, path, SQLiteOptions{})
	log, run := beginCrawl(t, s, ex+"/", t1)
	if run != (CrawlRun{Start: ex + "/", Time: t1.UTC()}) {
		t.Fatalf("first Begin = %+v", run)
	}
	u := sitemap.URL{Loc: ex + "/", ContentHash: "v1"}
	if err := s.Stamp(ctx, &u, t1); err != nil {
		t.Fatal(err)
	}
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		if err := tx.Enqueue(ctx, CrawlLink{Loc: ex + "/"}); err != nil {
			return err
		}
		return tx.Seeded(ctx)
	})
	crash(s)

	tests := []struct {
		name        string
		start       string
		finishFirst bool
		want        CrawlRun
		wantSeen    bool
	}{
		{"unfinished run of the same start resumes", ex + "/", false, CrawlRun{Start: ex + "/", Time: t1.UTC(), Resumed: true, Seeded: true}, true},
		{"a finished run starts anew", ex + "/", true, CrawlRun{Start: ex + "/", Time: t2.UTC()}, false},
		{"another start URL starts anew", ex + "/other/", false, CrawlRun{Start: ex + "/other/", Time: t2.UTC(), Discarded: ex + "/"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each case starts from the crashed file of the first run.
			p := filepath.Join(t.TempDir(), "c.db")
			copyState(t, path, p)
			s := openTemp(t, p, SQLiteOptions{})
			defer s.Close()
			if tt.finishFirst {
				log, _ := beginCrawl(t, s, ex+"/", t2)
				update(t, log, func(ctx context.Context, tx CrawlTx) error { return tx.Finish(ctx, "") })
			}
			log, run := beginCrawl(t, s, tt.start, t2)
			if run != tt.want {
				t.Errorf("Begin = %+v, want %+v", run, tt.want)
			}
			seen, err := log.Seen(ctx, ex+"/")
			if err != nil || seen != tt.wantSeen {
				t.Errorf("Seen(start) = %v, %v; want %v", seen, err, tt.wantSeen)
			}
			if _, found, err := s.Lookup(ctx, ex+"/"); err != nil || !found {
				t.Errorf("a new run lost the Store's record (stamped before the Update): %v %v", found, err)
			}
		})
	}
}

// copyState copies a closed state file (WAL included) by reading it
// through a fresh connection and vacuuming into dst.
func copyState(t *testing.T, src, dst string) {
	t.Helper()
	s := openTemp(t, src, SQLiteOptions{})
	if _, err := s.conn.ExecContext(context.Background(), `VACUUM INTO ?`, dst); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCrawlEnqueueRules: the first sighting wins, except that a followed
// link makes a nofollow URL pending and a smaller referrer at the same
// depth replaces the stored one while the URL is not fetched.
func TestCrawlEnqueueRules(t *testing.T) {
	a := ex + "/a"
	tests := []enqueueCase{
		{"new link is pending", []CrawlLink{{Loc: a, Depth: 1, Referrer: ex + "/"}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/"}, true},
		{"a reason decides at once", []CrawlLink{{Loc: a, Depth: 1, Reason: "robots"}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Reason: "robots"}, false},
		{"nofollow is not pending", []CrawlLink{{Loc: a, Depth: 1, Referrer: ex + "/x", Reason: "nofollow", Nofollow: true}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/x", Reason: "nofollow"}, false},
		{"a followed link makes nofollow pending, with its depth and referrer", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/x", Reason: "nofollow", Nofollow: true},
			{Loc: a, Depth: 2, Referrer: ex + "/y"}}, false,
			CrawlOutcome{Loc: a, Depth: 2, Referrer: ex + "/y"}, true},
		{"a nofollow link leaves pending alone", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/y"},
			{Loc: a, Depth: 1, Referrer: ex + "/b", Reason: "nofollow", Nofollow: true}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/b"}, true},
		{"smaller referrer at the same depth wins", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/y"},
			{Loc: a, Depth: 1, Referrer: ex + "/b"}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/b"}, true},
		{"larger referrer at the same depth loses", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/b"},
			{Loc: a, Depth: 1, Referrer: ex + "/y"}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/b"}, true},
		{"a deeper link changes nothing", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/y"},
			{Loc: a, Depth: 2, Referrer: ex + "/b"}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Referrer: ex + "/y"}, true},
		{"a fetched URL keeps its referrer", []CrawlLink{
			{Loc: a, Depth: 1, Referrer: ex + "/y"},
			{Loc: a, Depth: 1, Referrer: ex + "/b"}}, true,
			CrawlOutcome{Loc: a, Status: 404, Depth: 1, Referrer: ex + "/y", Reason: "status:404"}, false},
		{"a decided URL stays decided", []CrawlLink{
			{Loc: a, Depth: 1, Reason: "robots"},
			{Loc: a, Depth: 1}}, false,
			CrawlOutcome{Loc: a, Depth: 1, Reason: "robots"}, false},
	}
	for _, b := range backends {
		for _, tt := range tests {
			t.Run(b.name+"/"+tt.name, func(t *testing.T) {
				testEnqueueRule(t, b.make(t)(t, storeOpts{}).(*DB), tt)
			})
		}
	}
}

// enqueueCase is one row of TestCrawlEnqueueRules.
type enqueueCase struct {
	name  string
	links []CrawlLink
	fetch bool // Record the URL before the last link
	want  CrawlOutcome
	pend  bool
}

func testEnqueueRule(t *testing.T, s *DB, tt enqueueCase) {
	defer s.Close()
	a := ex + "/a"
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		for i, l := range tt.links {
			if tt.fetch && i == len(tt.links)-1 {
				if err := tx.Record(ctx, CrawlResult{Loc: a, Status: 404, Reason: "status:404"}); err != nil {
					return err
				}
			}
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	ps, err := log.Pending(context.Background(), tt.want.Depth, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if tt.pend {
		if len(ps) != 1 || ps[0] != (CrawlURL{Loc: a, Depth: tt.want.Depth, Referrer: tt.want.Referrer}) {
			t.Errorf("pending = %+v, want %s depth %d from %s", ps, a, tt.want.Depth, tt.want.Referrer)
		}
		return
	}
	if len(ps) != 0 {
		t.Errorf("pending = %+v, want none", ps)
	}
	tt.want.Clicks = -1 // the run is not finished
	if got := outcomes(t, log)[a]; got != tt.want {
		t.Errorf("outcome = %+v, want %+v", got, tt.want)
	}
}

// TestCrawlPendingOrder: the frontier is handed out depth by depth, each
// depth in loc order, a page at a time.
func TestCrawlPendingOrder(t *testing.T) { eachBackend(t, testCrawlPendingOrder) }

func testCrawlPendingOrder(t *testing.T, open opener) {
	s := open(t, storeOpts{}).(crawlStore)
	defer s.Close()
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		for _, l := range []CrawlLink{
			{Loc: ex + "/z", Depth: 1}, {Loc: ex + "/deep", Depth: 2}, {Loc: ex + "/", Depth: 0},
			{Loc: ex + "/b", Depth: 1}, {Loc: ex + "/a", Depth: 1}, {Loc: ex + "/out", Depth: 1, Reason: "scope"},
		} {
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	var got []string
	for _, u := range pending(t, log) {
		got = append(got, fmt.Sprintf("%d %s", u.Depth, u.Loc))
	}
	want := []string{"0 " + ex + "/", "1 " + ex + "/a", "1 " + ex + "/b", "1 " + ex + "/z", "2 " + ex + "/deep"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("frontier order = %q, want %q", got, want)
	}
}

// TestCrawlVariants: counted URLs of one path key are counted in (depth,
// loc) order, inside the transaction that counts them; resuming clears
// the marks of URLs still pending.
func TestCrawlVariants(t *testing.T) { eachBackend(t, testCrawlVariants) }

func testCrawlVariants(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{}).(crawlStore)
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	key := ex + "/cal"
	locs := []string{key + "?m=1", key + "?m=2", key + "?m=3"}
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		for _, l := range locs {
			if err := tx.Enqueue(ctx, CrawlLink{Loc: l, Depth: 1, PathKey: key}); err != nil {
				return err
			}
		}
		for i, l := range locs {
			n, err := tx.Variants(ctx, key, 1, l)
			if err != nil {
				return err
			}
			if n != i {
				t.Errorf("Variants before %s = %d, want %d (own writes visible)", l, n, i)
			}
			if err := tx.Count(ctx, l); err != nil {
				return err
			}
		}
		if n, _ := tx.Variants(ctx, key, 2, ""); n != 3 {
			t.Errorf("Variants at a deeper depth = %d, want 3", n)
		}
		if n, _ := tx.Variants(ctx, "other", 2, ""); n != 0 {
			t.Errorf("Variants of another key = %d, want 0", n)
		}
		// The first one was fetched: its mark stays on resume.
		return tx.Record(ctx, CrawlResult{Loc: locs[0], Status: 200, Reason: "not-html"})
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, storeOpts{}).(crawlStore)
	defer s.Close()
	log, run := beginCrawl(t, s, ex+"/", time.Now())
	if !run.Resumed {
		t.Fatal("not resumed")
	}
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		if n, _ := tx.Variants(ctx, key, 2, ""); n != 1 {
			t.Errorf("after resume Variants = %d, want 1 (pending claims recounted)", n)
		}
		return nil
	})
	if ps, _ := log.Pending(ctx, 1, "", 10); len(ps) != 2 || ps[0].PathKey != key {
		t.Errorf("pending after resume = %+v", ps)
	}
}

// TestCrawlUpdateAtomic: an Update whose fn fails leaves nothing behind.
func TestCrawlUpdateAtomic(t *testing.T) { eachBackend(t, testCrawlUpdateAtomic) }

func testCrawlUpdateAtomic(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{}).(crawlStore)
	defer s.Close()
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	boom := errors.New("boom")
	err := log.Update(ctx, func(tx CrawlTx) error {
		if err := tx.Enqueue(ctx, CrawlLink{Loc: ex + "/a"}); err != nil {
			return err
		}
		if err := tx.Finish(ctx, ""); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want fn's error", err)
	}
	if seen, _ := log.Seen(ctx, ex+"/a"); seen {
		t.Error("a rolled-back Enqueue is visible")
	}
	if run, _ := log.Begin(ctx, ex+"/", time.Now()); !run.Resumed {
		t.Error("a rolled-back Finish finished the run")
	}
}

// TestCrawlUpdateCommitsStoreFirst: a crash after an Update never leaves
// a page decided whose Store record (its truthful lastmod, M-02) was
// lost; Store writes after the Update may be lost, and only they.
func TestCrawlUpdateCommitsStoreFirst(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "o.db")
	s := openTemp(t, path, SQLiteOptions{BatchSize: 1 << 20, MaxDelay: time.Hour})
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	a := sitemap.URL{Loc: ex + "/a", ContentHash: "v1"}
	if err := s.Stamp(ctx, &a, now); err != nil {
		t.Fatal(err)
	}
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		if err := tx.Enqueue(ctx, CrawlLink{Loc: a.Loc}); err != nil {
			return err
		}
		return tx.Record(ctx, CrawlResult{Loc: a.Loc, Status: 200, Entry: &a})
	})
	b := sitemap.URL{Loc: ex + "/b", ContentHash: "v1"}
	if err := s.Stamp(ctx, &b, now); err != nil { // never committed
		t.Fatal(err)
	}
	crash(s)

	s = openTemp(t, path, SQLiteOptions{})
	defer s.Close()
	log, _ = beginCrawl(t, s, ex+"/", time.Now())
	if _, found, err := s.Lookup(ctx, a.Loc); err != nil || !found {
		t.Errorf("record of the decided page /a lost: %v %v", found, err)
	}
	if _, found, _ := s.Lookup(ctx, b.Loc); found {
		t.Error("the uncommitted Stamp of /b survived the crash; the test does not test a crash")
	}
	if _, listed, err := log.Entry(ctx, a.Loc); err != nil || !listed {
		t.Errorf("Entry(/a) = %v, %v; want listed", listed, err)
	}
}

// TestCrawlReadBack: listed entries, outcomes and counts come back sorted
// by loc, a page at a time; Finish decides what a limit left pending.
func TestCrawlReadBack(t *testing.T) { eachBackend(t, testCrawlReadBack) }

func testCrawlReadBack(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{}).(crawlStore)
	defer s.Close()
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	lm := mustDate(t, "2026-02-01")
	entry := func(loc string) *sitemap.URL {
		return &sitemap.URL{Loc: loc, LastMod: lm, Alternates: []sitemap.Alternate{{Hreflang: "de", Href: loc + "/de"}}}
	}
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		for _, l := range []string{"/e", "/c", "/a", "/d", "/b", "/gone", "/left"} {
			if err := tx.Enqueue(ctx, CrawlLink{Loc: ex + l, Depth: 1, Referrer: ex + "/"}); err != nil {
				return err
			}
		}
		if err := tx.Enqueue(ctx, CrawlLink{Loc: ex + "/nf", Depth: 2, Reason: "nofollow", Nofollow: true}); err != nil {
			return err
		}
		for _, l := range []string{"/e", "/c", "/a", "/d", "/b"} {
			if err := tx.Record(ctx, CrawlResult{Loc: ex + l, Status: 200, Entry: entry(ex + l)}); err != nil {
				return err
			}
		}
		if err := tx.Record(ctx, CrawlResult{Loc: ex + "/gone", Status: 404, Reason: "status:404"}); err != nil {
			return err
		}
		return tx.Finish(ctx, "limit:max-pages")
	})
	var got []string
	after := ""
	for {
		page, err := log.Listed(ctx, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page {
			if !reflect.DeepEqual(e.Entry, entry(e.Loc)) {
				t.Errorf("entry of %s = %+v", e.Loc, e.Entry)
			}
			got = append(got, e.Loc)
		}
		if len(page) < 2 {
			break
		}
		after = page[len(page)-1].Loc
	}
	want := []string{ex + "/a", ex + "/b", ex + "/c", ex + "/d", ex + "/e"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Listed = %q, want %q", got, want)
	}
	if u, listed, err := log.Entry(ctx, ex+"/c"); err != nil || !listed || !reflect.DeepEqual(u, entry(ex+"/c")) {
		t.Errorf("Entry(/c) = %+v %v %v", u, listed, err)
	}
	if _, listed, _ := log.Entry(ctx, ex+"/gone"); listed {
		t.Error("a 404 is listed")
	}
	out := outcomes(t, log)
	if len(out) != 8 || out[ex+"/left"].Reason != "limit:max-pages" || out[ex+"/gone"].Status != 404 || !out[ex+"/a"].Included {
		t.Errorf("outcomes = %+v", out)
	}
	reasons, err := log.Reasons(ctx)
	wantR := map[string]int{"": 5, "status:404": 1, "limit:max-pages": 1, "nofollow": 1}
	if err != nil || !reflect.DeepEqual(reasons, wantR) {
		t.Errorf("Reasons = %v, %v; want %v", reasons, err, wantR)
	}
	if n, err := log.Fetched(ctx); err != nil || n != 6 {
		t.Errorf("Fetched = %d, %v; want 6", n, err)
	}
	if _, ok, _ := log.NextDepth(ctx); ok {
		t.Error("Finish with a reason left URLs pending")
	}
}

// TestCrawlConcurrentWithStamp: the crawl log and the Store share one
// connection; workers stamping while the coordinator updates and reads
// the log stay consistent (run with -race).
func TestCrawlConcurrentWithStamp(t *testing.T) { eachBackend(t, testCrawlConcurrentWithStamp) }

func testCrawlConcurrentWithStamp(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{batch: 7}).(crawlStore)
	defer s.Close()
	log, _ := beginCrawl(t, s, ex+"/", time.Now())
	const workers, per = 4, 100
	var wg sync.WaitGroup
	errs := make(chan error, workers+1)
	for w := range workers {
		wg.Go(func() {
			for i := range per {
				u := sitemap.URL{Loc: fmt.Sprintf("%s/%d/%d", ex, w, i)}
				if err := s.Stamp(ctx, &u, time.Now()); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range workers * per {
			loc := fmt.Sprintf("%s/q/%d", ex, i)
			err := log.Update(ctx, func(tx CrawlTx) error { return tx.Enqueue(ctx, CrawlLink{Loc: loc}) })
			if err == nil {
				var seen bool
				seen, err = log.Seen(ctx, loc)
				if err == nil && !seen {
					err = fmt.Errorf("%s not seen after its Update", loc)
				}
			}
			if err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	ps, err := log.Pending(ctx, 0, "", 2*workers*per)
	if err != nil || len(ps) != workers*per {
		t.Errorf("pending = %d, %v; want %d", len(ps), err, workers*per)
	}
	for w := range workers {
		if _, found, _ := s.Lookup(ctx, fmt.Sprintf("%s/%d/%d", ex, w, per-1)); !found {
			t.Errorf("worker %d's last record missing", w)
		}
	}
}
