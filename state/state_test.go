package state

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

func mustDate(t testing.TB, s string) sitemap.Date {
	t.Helper()
	d, err := sitemap.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecide is the lastmod rule of M-02/M-05/M-06, case by case.
func TestDecide(t *testing.T) {
	run1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	run2 := time.Date(2026, 3, 8, 11, 30, 15, 500, time.FixedZone("x", 3600))
	given := mustDate(t, "2026-02-01")
	recorded := mustDate(t, "2026-01-15T08:00:00Z")
	page := sitemap.URL{Loc: "https://example.com/a", ChangeFreq: sitemap.Weekly}
	fp := Fingerprint(&page)

	tests := []struct {
		name        string
		prev        Record
		found       bool
		in          sitemap.URL
		prec        sitemap.Precision
		wantLastMod string
		wantChanged time.Time // LastChanged of the new record
		wantFirst   time.Time
	}{
		{
			name: "M-05 first sighting without lastmod stays unknown",
			in:   page, prec: sitemap.PrecisionSecond,
			wantLastMod: "", wantFirst: run2.UTC(),
		},
		{
			name: "M-02 first sighting with lastmod keeps and records it",
			in:   withLastMod(page, given), prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-02-01", wantFirst: run2.UTC(),
		},
		{
			name:  "M-06 unchanged fields keep the recorded lastmod",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "M-06 unchanged and never dated stays without lastmod",
			prev:  Record{Loc: page.Loc, ContentHash: fp, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "", wantFirst: run1,
		},
		{
			name:  "M-02 changed fields get the run time (second precision, UTC)",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, Images: []sitemap.Image{{Loc: "https://example.com/a.jpg"}}}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-02 a new changefreq or priority alone is no change: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ChangeFreq: sitemap.Daily, Priority: sitemap.Float64(0.9)}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "a fingerprint of an earlier release, same fields: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: legacyFingerprint(&page), LastMod: recorded, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "a fingerprint of an earlier release, fields changed: run time",
			prev:  Record{Loc: page.Loc, ContentHash: legacyFingerprint(&page), LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, News: &sitemap.News{Title: "t"}}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-08 changed fields at day precision",
			prev:  Record{Loc: page.Loc, ContentHash: fp, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://example.com/de/a"}}}, prec: sitemap.PrecisionDay,
			wantLastMod: "2026-03-08", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-02 a given lastmod wins over an observed change",
			prev:  Record{Loc: page.Loc, ContentHash: "old", LastMod: recorded, FirstSeen: run1},
			found: true, in: withLastMod(sitemap.URL{Loc: page.Loc, ContentHash: "new"}, given), prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-02-01", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "content_hash unchanged while fields change: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: "h1", LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ContentHash: "h1", ChangeFreq: sitemap.Daily}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "content_hash changed: run time",
			prev:  Record{Loc: page.Loc, ContentHash: "h1", FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ContentHash: "h2"}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "source and lastmod are not part of the fingerprint",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ChangeFreq: sitemap.Weekly, Source: "https://example.com/s.xml"}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.in
			r, lm := Decide(tt.prev, tt.found, &u, run2, tt.prec)
			if got := lm.String(); got != tt.wantLastMod {
				t.Errorf("lastmod = %q, want %q", got, tt.wantLastMod)
			}
			if !r.LastMod.Equal(lm) {
				t.Errorf("recorded lastmod %v differs from returned %v", r.LastMod, lm)
			}
			if !r.LastChanged.Equal(tt.wantChanged) {
				t.Errorf("LastChanged = %v, want %v", r.LastChanged, tt.wantChanged)
			}
			if !r.FirstSeen.Equal(tt.wantFirst) {
				t.Errorf("FirstSeen = %v, want %v", r.FirstSeen, tt.wantFirst)
			}
			if !r.LastSeen.Equal(run2) || !r.Included || r.Loc != tt.in.Loc {
				t.Errorf("record = %+v", r)
			}
			if tt.in.ContentHash != "" && r.ContentHash != tt.in.ContentHash {
				t.Errorf("ContentHash = %q, want the supplied %q", r.ContentHash, tt.in.ContentHash)
			}
		})
	}
}

func withLastMod(u sitemap.URL, d sitemap.Date) sitemap.URL {
	u.LastMod = d
	return u
}

func TestFingerprint(t *testing.T) {
	a := sitemap.URL{Loc: "https://example.com/a", Images: []sitemap.Image{{Loc: "https://cdn.example.com/1.jpg"}}}
	b := a
	b.LastMod = sitemap.DayOf(time.Now())
	b.Source = "x.xml"
	if Fingerprint(&a) != Fingerprint(&b) {
		t.Error("lastmod or source changed the fingerprint")
	}
	c := a
	c.Images = []sitemap.Image{{Loc: "https://cdn.example.com/2.jpg"}}
	if Fingerprint(&a) == Fingerprint(&c) {
		t.Error("a changed image did not change the fingerprint")
	}
	d := a
	d.Loc = "https://example.com/b"
	if Fingerprint(&a) == Fingerprint(&d) {
		t.Error("a different loc has the same fingerprint")
	}
	e := a
	e.ChangeFreq, e.Priority = sitemap.Daily, sitemap.Float64(0.2)
	if Fingerprint(&a) != Fingerprint(&e) {
		t.Error("changefreq or priority changed the fingerprint; they are not the page's content")
	}
}

func openTemp(t testing.TB, path string, o SQLiteOptions) *SQLite {
	t.Helper()
	s, err := OpenSQLite(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunsAcrossReopen runs a "generator" three times over a state file it
// closes and reopens: only entries whose fields changed move their
// lastmod (M-02, M-06); new entries start without one (M-05).
func TestRunsAcrossReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
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
		s := openTemp(t, path, SQLiteOptions{BatchSize: 3})
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
	s := openTemp(t, path, SQLiteOptions{})
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

func TestPutLookupRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "s.db"), SQLiteOptions{})
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

// TestUncommittedWritesLostOnCrash documents the batching trade-off: a
// write not yet flushed is not in the file after a crash, one flushed is.
func TestFlushMakesDurable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	s := openTemp(t, path, SQLiteOptions{BatchSize: 1000, MaxDelay: time.Hour})
	if err := s.Put(ctx, Record{Loc: "https://example.com/1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// A second connection (another process, in effect) sees the flushed
	// write while the first store is still open (WAL readers).
	other := openTemp(t, path, SQLiteOptions{})
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
func TestConcurrentStamp(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "c.db"), SQLiteOptions{BatchSize: 50})
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

func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v.db")
	s := openTemp(t, path, SQLiteOptions{})
	if _, err := s.conn.ExecContext(ctx, `UPDATE meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenSQLite(ctx, path, SQLiteOptions{}); err == nil {
		t.Error("opened a state file of a newer schema")
	}
	if _, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "missing-dir", "x.db"), SQLiteOptions{}); err == nil {
		t.Error("opened a state file in a missing directory")
	}
}

// BenchmarkStamp stamps 100k URLs per iteration (two runs over the same
// file, the second with a tenth of the entries changed) and reports
// stamps per second.
func BenchmarkStamp(b *testing.B) {
	ctx := context.Background()
	const n = 100_000
	for b.Loop() {
		b.StopTimer()
		s := openTemp(b, filepath.Join(b.TempDir(), "b.db"), SQLiteOptions{})
		b.StartTimer()
		start := time.Now()
		for run := range 2 {
			now := time.Date(2026, 1, 1+run, 0, 0, 0, 0, time.UTC)
			for i := range n {
				u := sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/products/item-%d", i), ChangeFreq: sitemap.Weekly}
				if run == 1 && i%10 == 0 {
					u.ChangeFreq = sitemap.Daily
				}
				if err := s.Stamp(ctx, &u, now); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(2*n)/time.Since(start).Seconds(), "stamps/s")
	}
}
