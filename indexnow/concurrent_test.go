package indexnow

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// ledgerBackends make a new state and return its name (what --state
// takes).
var ledgerBackends = []struct {
	name string
	make func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "st.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
}

// openState opens the state named name as a Ledger, closed when t ends.
func openState(t *testing.T, name string) Ledger {
	t.Helper()
	st, err := state.Open(context.Background(), name, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// received counts every URL an endpoint received, per URL.
func received(e *endpoint) map[string]int {
	n := map[string]int{}
	for _, u := range e.urls() {
		n[u]++
	}
	return n
}

// Submitters sharing one state at once, as `sitemap submit` runs and a
// server do: three values of the state each running Submit over the
// whole list (starting at different places), two goroutines sharing a
// fourth, and a "server" calling Submit again and again with small
// batches of the list. Every URL reaches the endpoint once, and the
// submitters' counts add up.
func TestConcurrentSubmittersSendOnce(t *testing.T) {
	for _, b := range ledgerBackends {
		t.Run(b.name, func(t *testing.T) {
			name := b.make(t)
			openState(t, name) // the schema, before the submitters race to it
			e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
				time.Sleep(2 * time.Millisecond) // a batch in flight while others check theirs
				w.WriteHeader(http.StatusAccepted)
			})
			locs := pages(900)
			rotated := func(k int) []string {
				k = k * len(locs) / 7
				return append(append([]string(nil), locs[k:]...), locs[:k]...)
			}
			var sent, already, failed atomic.Int64
			run := func(l Ledger, k int, in []string) {
				o := opts(t, e)
				o.Ledger, o.BatchSize, o.Submitter = l, 40, fmt.Sprintf("submitter %d", k)
				sum, err := Submit(context.Background(), list(in...), o)
				if err != nil {
					t.Error(err)
				}
				sent.Add(sum.Sent)
				already.Add(sum.Already)
				failed.Add(sum.Failed + sum.Refused + sum.Deferred)
			}
			shared := openState(t, name)
			var wg sync.WaitGroup
			for k := range 3 {
				l := openState(t, name)
				wg.Go(func() { run(l, k, rotated(k)) })
			}
			for k := 3; k < 5; k++ {
				wg.Go(func() { run(shared, k, rotated(k)) })
			}
			wg.Go(func() { // a server: the list as a stream of small changes
				l := openState(t, name)
				for i := len(locs); i > 0; i -= 25 {
					run(l, 9, locs[max(0, i-25):i])
				}
			})
			wg.Wait()
			got := received(e)
			twice := 0
			for _, u := range locs {
				if got[u] != 1 {
					twice++
					if twice <= 5 {
						t.Errorf("%s received %d times", u, got[u])
					}
				}
			}
			if twice > 0 || len(got) != len(locs) {
				t.Fatalf("%d of %d URLs not received exactly once (%d distinct received)", twice, len(locs), len(got))
			}
			if sent.Load() != int64(len(locs)) || failed.Load() != 0 || already.Load() != 6*int64(len(locs))-sent.Load() {
				t.Errorf("summaries: %d sent, %d already, %d failed or left; want %d sent and the rest already", sent.Load(), already.Load(), failed.Load(), len(locs))
			}
		})
	}
}

// The day's quota holds across concurrent submitters: it is counted in
// the ledger while the lock is held.
func TestConcurrentSubmittersQuota(t *testing.T) {
	name := filepath.Join(t.TempDir(), "st.db")
	openState(t, name)
	e := newEndpoint(t, nil)
	locs := pages(600)
	var wg sync.WaitGroup
	var deferred atomic.Int64
	for k := range 3 {
		l := openState(t, name)
		wg.Go(func() {
			o := opts(t, e)
			o.Ledger, o.BatchSize, o.MaxPerDay = l, 30, 100
			in := append(append([]string(nil), locs[k*200:]...), locs[:k*200]...)
			sum, err := Submit(context.Background(), list(in...), o)
			if err != nil {
				t.Error(err)
			}
			deferred.Add(sum.Deferred)
		})
	}
	wg.Wait()
	got := received(e)
	if n := len(e.urls()); n != 100 || len(got) != 100 {
		t.Fatalf("%d URLs received (%d distinct), want the quota of 100", n, len(got))
	}
	if deferred.Load() == 0 {
		t.Error("no URL deferred")
	}
}

// An endpoint that redirects gets nothing re-POSTed anywhere: the batch
// fails, saying where it pointed, the run stops, and the ledger records
// nothing as sent. 301 to 303 would be followed as a GET by Go's client,
// 307 and 308 as the same POST, key and URLs included.
func TestRedirectRefused(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var elsewhere atomic.Int32
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				elsewhere.Add(1)
			}))
			defer other.Close()
			target := other.URL + "/indexnow"
			e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, status)
			})
			l := openState(t, filepath.Join(t.TempDir(), "st.db"))
			o := opts(t, e)
			o.Ledger, o.BatchSize = l, 10
			var batches []Batch
			o.OnBatch = func(b Batch) { batches = append(batches, b) }
			locs := pages(25)
			sum, err := Submit(context.Background(), list(locs...), o)
			if err != nil {
				t.Fatal(err)
			}
			if elsewhere.Load() != 0 {
				t.Fatalf("the redirect's target received %d requests", elsewhere.Load())
			}
			if sum.OK() || sum.Sent != 0 || sum.FailedBatches != 1 || sum.Failed != 10 || sum.Deferred != 15 || len(e.requests()) != 1 {
				t.Fatalf("summary %+v after %d requests; want one failed batch and the run stopped", sum, len(e.requests()))
			}
			want := fmt.Sprintf("the endpoint %s redirected to %s; IndexNow submissions are not sent to another host: give it as the endpoint (--endpoint, --indexnow-endpoint) if you trust it: %s", o.Endpoint, target, target)
			if len(batches) != 1 || batches[0].Outcome != Failed || batches[0].Status != status || !strings.Contains(batches[0].Message, want) {
				t.Fatalf("batches %+v\nwant the message %q", batches, want)
			}
			for _, u := range locs {
				if done, err := l.Submitted(context.Background(), u, Version(&sitemap.URL{Loc: u})); err != nil || done {
					t.Fatalf("%s recorded as sent (%v)", u, err)
				}
			}
			if n, err := l.SentSince(context.Background(), time.Time{}); err != nil || n != 0 {
				t.Fatalf("ledger counts %d sent (%v)", n, err)
			}
		})
	}
}

// A redirect on the endpoint's own host is not followed either, and says
// so in its own words.
func TestRedirectSameHostRefused(t *testing.T) {
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/indexnow" {
			http.Redirect(w, r, "/v2/indexnow", http.StatusTemporaryRedirect)
		}
	})
	o := opts(t, e)
	var msg string
	o.OnBatch = func(b Batch) { msg = b.Message }
	sum, err := Submit(context.Background(), list(pages(3)...), o)
	if err != nil {
		t.Fatal(err)
	}
	want := "redirected to " + e.srv.URL + "/v2/indexnow; IndexNow submissions follow no redirect"
	if sum.Sent != 0 || sum.FailedBatches != 1 || len(e.requests()) != 1 || !strings.Contains(msg, want) {
		t.Fatalf("%+v, %d requests, message %q; want %q", sum, len(e.requests()), msg, want)
	}
}
