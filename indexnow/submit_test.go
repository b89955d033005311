package indexnow

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
)

func TestBatchesBodyAndHeader(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.BatchSize = 10
	o.KeyLocation = "https://www.example.com/" + testKey + ".txt"
	var batches []Batch
	o.OnBatch = func(b Batch) { batches = append(batches, b) }
	locs := pages(25)
	sum, err := Submit(context.Background(), list(locs...), o)
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, want := range []int{10, 10, 5} {
		r := reqs[i]
		if len(r.Body.URLList) != want {
			t.Errorf("batch %d: %d URLs, want %d", i+1, len(r.Body.URLList), want)
		}
		if r.Method != http.MethodPost || r.ContentType != "application/json; charset=utf-8" {
			t.Errorf("batch %d: %s with Content-Type %q", i+1, r.Method, r.ContentType)
		}
		if r.Body.Host != "www.example.com" || r.Body.Key != testKey || r.Body.KeyLocation != o.KeyLocation {
			t.Errorf("batch %d: body %+v", i+1, r.Body)
		}
	}
	if !slices.Equal(e.urls(), locs) {
		t.Errorf("URLs received %v, want %v", e.urls(), locs)
	}
	if sum.Sent != 25 || sum.Batches != 3 || !sum.OK() || len(batches) != 3 || batches[2].Outcome != Sent {
		t.Errorf("summary %+v, batches %+v", sum, batches)
	}
}

func TestAtMost10000PerBatch(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.BatchSize = 50000 // more than IN-08 allows: MaxBatch
	if _, err := Submit(context.Background(), list(pages(MaxBatch+1)...), o); err != nil {
		t.Fatal(err)
	}
	reqs := e.requests()
	if len(reqs) != 2 || len(reqs[0].Body.URLList) != MaxBatch || len(reqs[1].Body.URLList) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
}

func TestNoKeyFieldWithoutKeyLocation(t *testing.T) {
	e := newEndpoint(t, nil)
	if _, err := Submit(context.Background(), list("https://www.example.com/a"), opts(t, e)); err != nil {
		t.Fatal(err)
	}
	if r := e.requests(); len(r) != 1 || r[0].Body.KeyLocation != "" {
		t.Fatalf("%+v", r)
	}
}

func TestRetry429Then200(t *testing.T) {
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	o := opts(t, e)
	var retried []string
	o.OnRetry = func(msg string) { retried = append(retried, msg) }
	var got Batch
	o.OnBatch = func(b Batch) { got = b }
	sum, err := Submit(context.Background(), list("https://www.example.com/a"), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.requests()) != 2 || len(retried) != 1 {
		t.Fatalf("%d requests, retries %q", len(e.requests()), retried)
	}
	if got.Outcome != Sent || got.Status != 202 || got.Retries != 1 || sum.Sent != 1 || !sum.OK() {
		t.Errorf("batch %+v, summary %+v", got, sum)
	}
}

func TestRetryAfterBeyondBound(t *testing.T) {
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	o := opts(t, e)
	o.BatchSize = 1
	sum, err := Submit(context.Background(), list("https://www.example.com/a", "https://www.example.com/b"), o)
	if err != nil {
		t.Fatal(err)
	}
	// One request: a Retry-After past the client's bound is not waited
	// for, and a 429 stops the run (b is left for later).
	if len(e.requests()) != 1 || sum.FailedBatches != 1 || sum.Deferred != 1 || sum.OK() {
		t.Fatalf("%d requests, summary %+v", len(e.requests()), sum)
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		status   int
		requests int // a 403 stops the run; a 422 does not
		words    string
	}{
		{422, 2, "not on the host"},
		{403, 1, "key is not valid"},
		{400, 2, "could not read"},
	} {
		e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tc.status)
			w.Write([]byte("  nope \n"))
		})
		o := opts(t, e)
		o.BatchSize = 1
		var bs []Batch
		o.OnBatch = func(b Batch) { bs = append(bs, b) }
		sum, err := Submit(context.Background(), list("https://www.example.com/a", "https://www.example.com/b"), o)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.requests()) != tc.requests {
			t.Errorf("%d: %d requests, want %d (not retried)", tc.status, len(e.requests()), tc.requests)
		}
		if sum.OK() || bs[0].Outcome != Failed || bs[0].Status != tc.status ||
			!strings.Contains(bs[0].Message, tc.words) || !strings.Contains(bs[0].Message, "the endpoint said: nope") {
			t.Errorf("%d: summary %+v, batch %+v", tc.status, sum, bs[0])
		}
	}
}

func TestSlowEndpoint(t *testing.T) {
	release := make(chan struct{})
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	o := opts(t, e)
	o.Client = testClient(t, fetch.ClientOptions{HeaderTimeout: 50 * time.Millisecond, Timeout: 50 * time.Millisecond, Attempts: 1})
	var b Batch
	o.OnBatch = func(x Batch) { b = x }
	sum, err := Submit(context.Background(), list("https://www.example.com/a"), o)
	if err != nil {
		t.Fatal(err)
	}
	if b.Outcome != Failed || b.Status != 0 || !strings.Contains(b.Message, "no answer") || sum.FailedBatches != 1 {
		t.Fatalf("batch %+v, summary %+v", b, sum)
	}
}

func TestForeignHostNotSent(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.KeyLocation = "https://www.example.com/blog/" + testKey + ".txt"
	var diags []sitemap.Diagnostic
	o.OnDiagnostic = func(d sitemap.Diagnostic) { diags = append(diags, d) }
	sum, err := Submit(context.Background(), list(
		"https://www.example.com/blog/a",
		"https://cdn.example.net/blog/b",
		"https://www.example.com/shop/c",
		"https://WWW.example.com/blog/a", // the same URL, spelt otherwise: a duplicate (L-18)
		"https://www.example.com/blog/a", // a duplicate
	), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.urls(); !slices.Equal(got, []string{"https://www.example.com/blog/a"}) {
		t.Errorf("sent %q", got)
	}
	if len(diags) != 3 || diags[0].Rule != "IN-08" || diags[0].URL != "https://cdn.example.net/blog/b" ||
		!strings.Contains(diags[0].Message, "cdn.example.net") || diags[1].Rule != "IN-05" || diags[1].URL != "https://www.example.com/shop/c" ||
		diags[2].Rule != "L-18" || diags[2].URL != "https://WWW.example.com/blog/a" {
		t.Errorf("diagnostics %v", diags)
	}
	if sum.Refused != 2 || sum.Duplicates != 2 || sum.OK() {
		t.Errorf("summary %+v", sum)
	}
}

func TestBadKeyRefusedBeforeAnyRequest(t *testing.T) {
	e := newEndpoint(t, nil)
	for _, key := range []string{"short", "has space in it", "under_score", strings.Repeat("k", 129), ""} {
		o := opts(t, e)
		o.Key = key
		_, err := Submit(context.Background(), list("https://www.example.com/a"), o)
		var ke *KeyError
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), "IN-03") {
			t.Errorf("key %q: %v", key, err)
		}
	}
	if n := len(e.requests()); n != 0 {
		t.Fatalf("%d requests with a bad key", n)
	}
}

func TestOptionsRefused(t *testing.T) {
	e := newEndpoint(t, nil)
	for _, tc := range []struct {
		mod  func(*Options)
		want string
	}{
		{func(o *Options) { o.Host = "" }, "no host"},
		{func(o *Options) { o.Host = "www.example.com/path" }, "not a host name"},
		{func(o *Options) { o.KeyLocation = "https://other.example.com/k.txt" }, "not on host"},
		{func(o *Options) { o.KeyLocation = "/k.txt" }, "not an http(s) URL"},
		{func(o *Options) { o.Endpoint = "ftp://x/" }, "endpoint"},
		{func(o *Options) { o.Client = nil }, "no HTTP client"},
	} {
		o := opts(t, e)
		tc.mod(&o)
		if _, err := Submit(context.Background(), list("https://www.example.com/a"), o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want %q, got %v", tc.want, err)
		}
	}
	if n := len(e.requests()); n != 0 {
		t.Fatalf("%d requests", n)
	}
}

func TestHostWithPortAndURL(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.Host = "http://127.0.0.1:8080/"
	var diags []sitemap.Diagnostic
	o.OnDiagnostic = func(d sitemap.Diagnostic) { diags = append(diags, d) }
	if _, err := Submit(context.Background(), list("http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b"), o); err != nil {
		t.Fatal(err)
	}
	if r := e.requests(); len(r) != 1 || r[0].Body.Host != "127.0.0.1:8080" || len(r[0].Body.URLList) != 1 || len(diags) != 1 {
		t.Fatalf("%+v %v", r, diags)
	}
}

func TestDryRunSendsNothing(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.DryRun, o.BatchSize = true, 2
	var bs []Batch
	o.OnBatch = func(b Batch) { bs = append(bs, b) }
	sum, err := Submit(context.Background(), list(pages(5)...), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.requests()) != 0 || len(bs) != 3 || bs[0].Outcome != Planned || sum.Sent != 5 || !strings.Contains(sum.String(), "dry run") {
		t.Fatalf("%d requests, %+v, %v", len(e.requests()), bs, sum)
	}
}
