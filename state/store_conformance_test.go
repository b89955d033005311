package state

// The conformance suite of Store: every test here runs against every
// implementation (SQLite, and PostgreSQL through internal/pgtest), so the
// two cannot drift apart.

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// storeOpts are the options the suite varies, for any backend.
type storeOpts struct {
	batch    int
	maxDelay time.Duration
}

// opener opens (again) the one store location of a test.
type opener func(t testing.TB, o storeOpts) Store

// backends make a new, empty store location and return its opener.
var backends = []struct {
	name string
	make func(t testing.TB) opener
}{
	{"sqlite", func(t testing.TB) opener {
		path := filepath.Join(t.TempDir(), "state.db")
		return func(t testing.TB, o storeOpts) Store {
			t.Helper()
			s, err := OpenSQLite(context.Background(), path, SQLiteOptions{BatchSize: o.batch, MaxDelay: o.maxDelay})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}},
	{"postgres", func(t testing.TB) opener {
		url := pgtest.DB(t)
		return func(t testing.TB, o storeOpts) Store {
			t.Helper()
			s, err := OpenPostgres(context.Background(), url, PostgresOptions{BatchSize: o.batch, MaxDelay: o.maxDelay})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}},
}

// eachBackend runs f once per backend, each on a new location.
func eachBackend(t *testing.T, f func(t *testing.T, open opener)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.make(t)) })
	}
}

// TestRunsAcrossReopen runs a "generator" three times over a state file it
// closes and reopens: only entries whose fields changed move their
// lastmod (M-02, M-06); new entries start without one (M-05).
func TestRunsAcrossReopen(t *testing.T) { eachBackend(t, testRunsAcrossReopen) }

func testRunsAcrossReopen(t *testing.T, open opener) {
	ctx := context.Background()
	entries := func(n int, changed map[int]bool) []sitemap.URL {
		var us []sitemap.URL
		for i := range n {
			u := sitemap.URL{Loc: fmt.Sprintf("https://example.com/p/%d", i), ChangeFreq: sitemap.Weekly}
			if changed[i] {
				u.Images = []sitemap.Image{{Loc: "https://example.com/p.jpg"}}
			}
			if i == 3 {
				u.LastMod = mustDate(t, "2025-12-24") // given on input: always wins
			}
			us = append(us, u)
		}
		return us
	}
	run := func(now time.Time, us []sitemap.URL) map[string]string {
		s := open(t, storeOpts{batch: 3})
		defer func() {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}()
		out := map[string]string{}
		for i := range us {
			if err := s.Stamp(ctx, &us[i], now); err != nil {
				t.Fatal(err)
			}
			out[us[i].Loc] = us[i].LastMod.String()
		}
		return out
	}
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(24 * time.Hour)
	t3 := t2.Add(24 * time.Hour)

	got1 := run(t1, entries(6, nil))
	for loc, lm := range got1 {
		want := ""
		if loc == "https://example.com/p/3" {
			want = "2025-12-24"
		}
		if lm != want {
			t.Errorf("run 1: %s lastmod %q, want %q (M-05: unknown on first sight)", loc, lm, want)
		}
	}
	got2 := run(t2, entries(7, map[int]bool{1: true, 3: true}))
	want2 := map[string]string{
		"https://example.com/p/0": "",
		"https://example.com/p/1": "2026-01-02T00:00:00Z",
		"https://example.com/p/2": "",
		"https://example.com/p/3": "2025-12-24",
		"https://example.com/p/4": "",
		"https://example.com/p/5": "",
		"https://example.com/p/6": "", // new in run 2
	}
	for loc, want := range want2 {
		if got2[loc] != want {
			t.Errorf("run 2: %s lastmod %q, want %q", loc, got2[loc], want)
		}
	}
	// Run 3: entry 1 as in run 2 (unchanged: keeps run 2's date), entry 2
	// changes now, entry 5 is gone.
	us3 := entries(7, map[int]bool{1: true, 2: true})
	us3 = append(us3[:5], us3[6:]...)
	got3 := run(t3, us3)
	want3 := map[string]string{
		"https://example.com/p/0": "",
		"https://example.com/p/1": "2026-01-02T00:00:00Z",
		"https://example.com/p/2": "2026-01-03T00:00:00Z",
		"https://example.com/p/3": "2025-12-24",
		"https://example.com/p/6": "",
	}
	for loc, want := range want3 {
		if got3[loc] != want {
			t.Errorf("run 3: %s lastmod %q, want %q", loc, got3[loc], want)
		}
	}

	// The record keeps first/last seen and the observed change.
	s := open(t, storeOpts{})
	defer s.Close()
	r, ok, err := s.Lookup(ctx, "https://example.com/p/1")
	if err != nil || !ok {
		t.Fatalf("lookup: %v %v", ok, err)
	}
	if !r.FirstSeen.Equal(t1) || !r.LastSeen.Equal(t3) || !r.LastChanged.Equal(t2) {
		t.Errorf("p/1 record = %+v; want first %v, last %v, changed %v", r, t1, t3, t2)
	}
	// Sweep: p/5 was not seen in run 3.
	var unseen []string
	if err := s.Unseen(ctx, t3, func(r Record) error { unseen = append(unseen, r.Loc); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(unseen) != 1 || unseen[0] != "https://example.com/p/5" {
		t.Errorf("unseen = %v, want [p/5]", unseen)
	}
}

func TestPutLookupRoundTrip(t *testing.T) { eachBackend(t, testPutLookupRoundTrip) }

func testPutLookupRoundTrip(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{})
	defer s.Close()
	if _, ok, err := s.Lookup(ctx, "https://example.com/none"); ok || err != nil {
		t.Fatalf("lookup of a missing URL: %v %v", ok, err)
	}
	now := time.Date(2026, 5, 4, 3, 2, 1, 0, time.UTC)
	tests := []Record{
		{Loc: "https://example.com/a", ContentHash: "h", LastMod: mustDate(t, "2026-05-01T10:00:00.25+02:00"),
			FirstSeen: now, LastSeen: now, LastChanged: now, Status: 200, Included: true},
		{Loc: "https://example.com/b", Status: 404, Reason: "status 404", FirstSeen: now, LastSeen: now},
		{Loc: "https://example.com/c?q=1&r=2", LastMod: mustDate(t, "2026-05")},
	}
	for _, want := range tests {
		if err := s.Put(ctx, want); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.Lookup(ctx, want.Loc)
		if err != nil || !ok {
			t.Fatalf("lookup %s: %v %v", want.Loc, ok, err)
		}
		if got.LastMod.String() != want.LastMod.String() || got.ContentHash != want.ContentHash ||
			!got.FirstSeen.Equal(want.FirstSeen) || !got.LastSeen.Equal(want.LastSeen) ||
			!got.LastChanged.Equal(want.LastChanged) || got.Status != want.Status ||
			got.Included != want.Included || got.Reason != want.Reason {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
		}
	}
}

// TestFlushMakesDurable: a flushed write is visible to another
// connection (another process, in effect) while the store is open.
func TestFlushMakesDurable(t *testing.T) { eachBackend(t, testFlushMakesDurable) }

func testFlushMakesDurable(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{batch: 1000, maxDelay: time.Hour})
	if err := s.Put(ctx, Record{Loc: "https://example.com/1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// A second connection (another process, in effect) sees the flushed
	// write while the first store is still open.
	other := open(t, storeOpts{})
	if _, ok, err := other.Lookup(ctx, "https://example.com/1"); !ok || err != nil {
		t.Errorf("flushed write not visible to another connection: %v %v", ok, err)
	}
	other.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != ErrClosed {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if _, _, err := s.Lookup(ctx, "x"); err != ErrClosed {
		t.Errorf("Lookup after Close = %v, want ErrClosed", err)
	}
}

// TestConcurrentStamp: the crawler stamps from several goroutines (run
// with -race); every entry is recorded exactly once per run and changed
// ones move.
func TestConcurrentStamp(t *testing.T) { eachBackend(t, testConcurrentStamp) }

func testConcurrentStamp(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{batch: 50})
	defer s.Close()
	const workers, per = 8, 200
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	stampAll := func(now time.Time, hash func(i int) string) map[string]string {
		var mu sync.Mutex
		got := map[string]string{}
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w * per; i < (w+1)*per; i++ {
					u := sitemap.URL{Loc: fmt.Sprintf("https://example.com/%d", i), ContentHash: hash(i)}
					if err := s.Stamp(ctx, &u, now); err != nil {
						errs <- err
						return
					}
					mu.Lock()
					got[u.Loc] = u.LastMod.String()
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		return got
	}
	stampAll(t1, func(int) string { return "v1" })
	got := stampAll(t2, func(i int) string {
		if i%3 == 0 {
			return "v2"
		}
		return "v1"
	})
	if len(got) != workers*per {
		t.Fatalf("stamped %d URLs, want %d", len(got), workers*per)
	}
	for i := range workers * per {
		loc := fmt.Sprintf("https://example.com/%d", i)
		want := ""
		if i%3 == 0 {
			want = "2026-01-01T01:00:00Z"
		}
		if got[loc] != want {
			t.Fatalf("%s: lastmod %q, want %q", loc, got[loc], want)
		}
	}
}

// StampMany gives every entry (on every backend) the lastmod Stamp one by one would, a loc
// given twice included.
func TestStampMany(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			one := b.make(t)(t, storeOpts{batch: 7}).(*DB)
			defer one.Close()
			many := b.make(t)(t, storeOpts{batch: 7}).(*DB)
			defer many.Close()
			testStampMany(t, one, many)
		})
	}
}

func testStampMany(t *testing.T, one, many *DB) {
	ctx := context.Background()
	entries := func(run int) []*sitemap.URL {
		var us []*sitemap.URL
		for i := range 40 {
			u := &sitemap.URL{Loc: fmt.Sprintf("https://example.com/%d", i%37), ContentHash: "v1"}
			if run == 1 && i%4 == 0 {
				u.ContentHash = "v2"
			}
			if i == 5 {
				u.LastMod = mustDate(t, "2025-01-02")
			}
			us = append(us, u)
		}
		return us
	}
	for run := range 2 {
		now := time.Date(2026, 1, 1+run, 0, 0, 0, 0, time.UTC)
		a, b := entries(run), entries(run)
		for _, u := range a {
			if err := one.Stamp(ctx, u, now); err != nil {
				t.Fatal(err)
			}
		}
		// In three batches, the second starting with writes still buffered.
		for _, part := range [][]*sitemap.URL{b[:3], b[3:20], b[20:]} {
			if err := many.StampMany(ctx, part, now); err != nil {
				t.Fatal(err)
			}
		}
		changed := 0
		for i := range a {
			if a[i].LastMod.String() != b[i].LastMod.String() {
				t.Errorf("run %d entry %d (%s): StampMany lastmod %q, Stamp %q", run, i, a[i].Loc, b[i].LastMod, a[i].LastMod)
			}
			if run == 1 && a[i].LastMod.String() == "2026-01-02T00:00:00Z" {
				changed++
			}
		}
		if run == 1 && changed == 0 {
			t.Error("no entry changed in run 2: the test proves nothing")
		}
	}
}
