package indexnow

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

func openLedger(t *testing.T, path string) *state.SQLite {
	t.Helper()
	st, err := state.OpenSQLite(context.Background(), path, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// dated is a sitemap.Entries of locs, each with lastmod.
func dated(lastmod map[string]string, locs ...string) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, l := range locs {
			u := &sitemap.URL{Loc: l}
			if s := lastmod[l]; s != "" {
				d, err := sitemap.ParseDate(s)
				if err != nil {
					return err
				}
				u.LastMod = d
			}
			if err := yield(u); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestExactlyOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "st.db")
	e := newEndpoint(t, nil)
	locs := []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}
	mods := map[string]string{"https://www.example.com/a": "2026-01-01", "https://www.example.com/b": "2026-01-01"}
	run := func() Summary {
		st := openLedger(t, path)
		defer st.Close()
		o := opts(t, e)
		o.Ledger = st
		sum, err := Submit(context.Background(), dated(mods, locs...), o)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if s := run(); s.Sent != 3 {
		t.Fatalf("first run: %+v", s)
	}
	if s := run(); s.Sent != 0 || s.Already != 3 || s.Batches != 0 {
		t.Fatalf("second run: %+v", s)
	}
	if n := len(e.requests()); n != 1 {
		t.Fatalf("%d requests after a re-run, want 1", n)
	}
	// a and c change again: a has a new lastmod; c gets one.
	mods["https://www.example.com/a"] = "2026-02-01"
	mods["https://www.example.com/c"] = "2026-02-01"
	if s := run(); s.Sent != 2 || s.Already != 1 {
		t.Fatalf("third run: %+v", s)
	}
	if got := e.requests()[1].Body.URLList; !slices.Equal(got, []string{"https://www.example.com/a", "https://www.example.com/c"}) {
		t.Fatalf("third run sent %q", got)
	}
}

func TestFailedBatchSentAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "st.db")
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusUnprocessableEntity)
		}
	})
	for i, want := range []int64{0, 1, 0} {
		st := openLedger(t, path)
		o := opts(t, e)
		o.Ledger = st
		sum, err := Submit(context.Background(), list("https://www.example.com/a"), o)
		st.Close()
		if err != nil || sum.Sent != want {
			t.Fatalf("run %d: %+v %v", i+1, sum, err)
		}
	}
	if n := len(e.requests()); n != 2 {
		t.Fatalf("%d requests, want 2 (the failed one, then once)", n)
	}
}

func TestKilledMidBatchResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "st.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 2 {
			cancel() // the run stops while batch 2 is in flight
			<-r.Context().Done()
		}
	})
	locs := pages(7)
	st := openLedger(t, path)
	o := opts(t, e)
	o.Ledger, o.BatchSize = st, 3
	_, err := Submit(ctx, list(locs...), o)
	st.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	st = openLedger(t, path)
	defer st.Close()
	o.Ledger = st
	sum, err := Submit(context.Background(), list(locs...), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Already != 3 || sum.Sent != 4 {
		t.Fatalf("resumed run: %+v", sum)
	}
	reqs := e.requests()
	var resumed []string
	for _, r := range reqs[2:] {
		resumed = append(resumed, r.Body.URLList...)
	}
	if !slices.Equal(resumed, locs[3:]) {
		t.Fatalf("resumed with %q, want %q", resumed, locs[3:])
	}
}

func TestMaxPerDay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "st.db")
	e := newEndpoint(t, nil)
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	run := func(at time.Time) Summary {
		st := openLedger(t, path)
		defer st.Close()
		o := opts(t, e)
		o.Ledger, o.MaxPerDay, o.BatchSize = st, 5, 2
		o.Now = func() time.Time { return at }
		sum, err := Submit(context.Background(), list(pages(8)...), o)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if s := run(now); s.Sent != 5 || s.Deferred != 3 {
		t.Fatalf("day 1: %+v", s)
	}
	if s := run(now.Add(time.Hour)); s.Sent != 0 || s.Deferred != 3 || s.Already != 5 {
		t.Fatalf("day 1 again: %+v", s)
	}
	if s := run(now.Add(25 * time.Hour)); s.Sent != 3 || s.Deferred != 0 {
		t.Fatalf("day 2: %+v", s)
	}
	if n := len(e.urls()); n != 8 {
		t.Fatalf("%d URLs received, want 8", n)
	}
}

func TestMaxPerDayWithoutLedger(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.MaxPerDay = 3
	sum, err := Submit(context.Background(), list(pages(5)...), o)
	if err != nil || sum.Sent != 3 || sum.Deferred != 2 || len(e.urls()) != 3 {
		t.Fatalf("%+v %v", sum, err)
	}
}
