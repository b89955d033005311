package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func newTestClient(t *testing.T, o ClientOptions) *Client {
	t.Helper()
	if o.RetryBase == 0 {
		o.RetryBase = time.Millisecond
	}
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func readAll(t *testing.T, r *Response) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("reading %s: %v", r.URL, err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClientGet: one User-Agent, gzip asked for and returned as sent
// (never decompressed), the final URL after a redirect.
func TestClientGet(t *testing.T) {
	s := newSite(t)
	body := gz(urlset("https://e.com/1"))
	var ua, ae string
	s.handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		ua, ae = r.UserAgent(), r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(body)
	})
	s.handle("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/s.xml", http.StatusMovedPermanently)
	})
	c := newTestClient(t, ClientOptions{UserAgent: "probe-bot/1.0"})
	if c.UserAgent() != "probe-bot/1.0" {
		t.Errorf("UserAgent() = %q", c.UserAgent())
	}
	r, err := c.Get(context.Background(), s.URL+"/old", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != string(body) {
		t.Errorf("body decompressed or changed: %d bytes, want the %d gzip bytes", len(got), len(body))
	}
	if ua != "probe-bot/1.0" || ae != "gzip" || r.FinalURL != s.URL+"/s.xml" || r.ContentEncoding != "gzip" || r.BytesRead() != int64(len(body)) {
		t.Errorf("UA %q, Accept-Encoding %q, final %q, encoding %q, %d bytes", ua, ae, r.FinalURL, r.ContentEncoding, r.BytesRead())
	}
}

// TestClientErrorKinds: callers tell not found from blocked from a server
// failure from the network.
func TestClientErrorKinds(t *testing.T) {
	s := newSite(t)
	for _, st := range []int{http.StatusGone, http.StatusForbidden, http.StatusUnauthorized, http.StatusInternalServerError, http.StatusTeapot} {
		s.handle("/"+http.StatusText(st), func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(st) })
	}
	c := newTestClient(t, ClientOptions{Attempts: 2})
	for _, tc := range []struct {
		path string
		kind ErrorKind
		hits int
	}{
		{"/missing", KindNotFound, 1},
		{"/Gone", KindNotFound, 1},
		{"/Forbidden", KindBlocked, 1},
		{"/Unauthorized", KindBlocked, 1},
		{"/Internal Server Error", KindStatus, 2},
		{"/I'm a teapot", KindStatus, 1},
	} {
		_, err := c.Get(context.Background(), s.URL+tc.path, GetOptions{})
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != tc.kind || KindOf(err) != tc.kind || fe.Status == 0 || fe.URL != s.URL+tc.path {
			t.Errorf("%s: %#v; want an *Error of kind %s", tc.path, err, tc.kind)
		}
		if h := s.hitCount(tc.path); h != tc.hits {
			t.Errorf("%s: %d requests, want %d", tc.path, h, tc.hits)
		}
	}
	if _, err := c.Get(context.Background(), s.URL+"/Forbidden", GetOptions{}); err == nil || !strings.Contains(err.Error(), `"`+DefaultUserAgent+`"`) {
		t.Errorf("blocked: %v; want the user agent named", err)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	if _, err := c.Get(context.Background(), dead.URL+"/x", GetOptions{}); KindOf(err) != KindNetwork || !strings.Contains(err.Error(), "gave up after 2 attempts") {
		t.Errorf("closed server: %v (kind %s); want a network error after 2 attempts", err, KindOf(err))
	}
	if _, err := c.Get(context.Background(), "http://[::1", GetOptions{}); KindOf(err) != KindBadURL {
		t.Errorf("bad URL: %v", err)
	}
}

// TestClientRetryPolicies: which statuses each policy retries, Retry-After
// given to Wait, and AnyStatus returning the last answer.
func TestClientRetryPolicies(t *testing.T) {
	s := newSite(t)
	s.handle("/500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	s.handle("/503", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	s.handle("/429", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
	})
	c := newTestClient(t, ClientOptions{Attempts: 3})
	for _, tc := range []struct {
		pol  RetryPolicy
		path string
		hits int
	}{
		{RetryDefault, "/500", 3}, {RetryBusy, "/500", 1}, {RetryBusy, "/503", 3},
		{RetryRateLimited, "/503", 1}, {RetryRateLimited, "/429", 3}, {RetryNever, "/429", 1},
	} {
		before := s.hitCount(tc.path)
		if _, err := c.Get(context.Background(), s.URL+tc.path, GetOptions{Retry: tc.pol}); KindOf(err) != KindStatus {
			t.Errorf("policy %d %s: %v", tc.pol, tc.path, err)
		}
		if h := s.hitCount(tc.path) - before; h != tc.hits {
			t.Errorf("policy %d %s: %d requests, want %d", tc.pol, tc.path, h, tc.hits)
		}
	}
	var waits []time.Duration
	var msgs []string
	r, err := c.Get(context.Background(), s.URL+"/429", GetOptions{
		AnyStatus: true, Attempts: 2,
		Wait:    func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		OnRetry: func(m string) { msgs = append(msgs, m) },
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if r.Status != 429 || r.Retries != 1 || len(waits) != 1 || waits[0] != 0 || len(msgs) != 1 || !strings.Contains(msgs[0], "attempt 2 of 2") {
		t.Errorf("status %d after %d retries, waits %v, messages %q", r.Status, r.Retries, waits, msgs)
	}
	stop := errors.New("max-time")
	if _, err := c.Get(context.Background(), s.URL+"/429", GetOptions{Wait: func(context.Context, time.Duration) error { return stop }}); err != stop {
		t.Errorf("Wait's error: got %v", err)
	}
}

// TestClientRetryAfterTooLong: a Retry-After above RetryMax ends the
// retries, or with ClampRetryAfter waits RetryMax.
func TestClientRetryAfterTooLong(t *testing.T) {
	s := newSite(t)
	n := 0
	s.handle("/s", func(w http.ResponseWriter, r *http.Request) {
		if n++; n == 1 {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(503)
			return
		}
		w.Write([]byte("ok"))
	})
	c := newTestClient(t, ClientOptions{RetryMax: 10 * time.Millisecond})
	if _, err := c.Get(context.Background(), s.URL+"/s", GetOptions{}); err == nil || !strings.Contains(err.Error(), "not retried") {
		t.Errorf("got %v; want the Retry-After refused", err)
	}
	n = 0
	c = newTestClient(t, ClientOptions{RetryMax: 10 * time.Millisecond, ClampRetryAfter: true})
	r, err := c.Get(context.Background(), s.URL+"/s", GetOptions{})
	if err != nil || readAll(t, r) != "ok" {
		t.Errorf("clamped: %v", err)
	}
}

// TestClientRedirectPolicy: not following, a caller's check per redirect,
// and the redirect limit.
func TestClientRedirectPolicy(t *testing.T) {
	s := newSite(t)
	other := newSite(t)
	other.serve("/s.xml", "application/xml", urlset("https://e.com/1"))
	s.handle("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/s.xml", http.StatusFound)
	})
	s.handle("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	c := newTestClient(t, ClientOptions{})
	r, err := c.Get(context.Background(), s.URL+"/away", GetOptions{MaxRedirects: NoRedirects, AnyStatus: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if r.Status != http.StatusFound || r.Header.Get("Location") != other.URL+"/s.xml" || r.FinalURL != s.URL+"/away" || other.hitCount("/s.xml") != 0 {
		t.Errorf("not following: status %d, Location %q, final %q", r.Status, r.Header.Get("Location"), r.FinalURL)
	}
	if _, err := c.Get(context.Background(), s.URL+"/away", GetOptions{MaxRedirects: NoRedirects}); KindOf(err) != KindStatus {
		t.Errorf("a 3xx not followed without AnyStatus: %v", err)
	}
	refuse := func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != via[0].URL.Host {
			return errors.New("redirected to another site; not followed")
		}
		return nil
	}
	if _, err := c.Get(context.Background(), s.URL+"/away", GetOptions{CheckRedirect: refuse}); KindOf(err) != KindRedirect || err.Error() != "redirected to another site; not followed" || other.hitCount("/s.xml") != 0 {
		t.Errorf("refused redirect: %v", err)
	}
	if _, err := c.Get(context.Background(), s.URL+"/loop", GetOptions{MaxRedirects: 2}); KindOf(err) != KindRedirect || !strings.Contains(err.Error(), "after 2 redirects") || s.hitCount("/loop") != 3 {
		t.Errorf("redirect loop: %v after %d requests", err, s.hitCount("/loop"))
	}
}

// TestClientCaps: MaxBodyBytes and the per-document timeout end a body
// with a typed error.
func TestClientCaps(t *testing.T) {
	s := newSite(t)
	s.serve("/big", "text/plain", []byte(strings.Repeat("x", 5000)))
	s.handle("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("a"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c := newTestClient(t, ClientOptions{MaxBodyBytes: 1000, Timeout: 3 * time.Second})
	r, err := c.Get(context.Background(), s.URL+"/big", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	r.Close()
	if KindOf(err) != KindTooLarge || KindOf(r.Err()) != KindTooLarge {
		t.Errorf("over MaxBodyBytes: %v", err)
	}
	r, err = c.Get(context.Background(), s.URL+"/stall", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	r.Close()
	if KindOf(err) != KindTimeout || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "per-document") {
		t.Errorf("stalled body: %v", err)
	}
	c = newTestClient(t, ClientOptions{IdleTimeout: 50 * time.Millisecond})
	r, err = c.Get(context.Background(), s.URL+"/stall", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	r.Close()
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "idle timeout") {
		t.Errorf("idle body: %v", err)
	}
}

// TestClientCache: a body read to its end is stored with its ETag; the
// next request is conditional and a 304 is answered from the store.
func TestClientCache(t *testing.T) {
	s := newSite(t)
	var inm []string
	s.handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		inm = append(inm, r.Header.Get("If-None-Match"))
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte("body"))
	})
	c := newTestClient(t, ClientOptions{CacheDir: t.TempDir()})
	var counted int64
	g := GetOptions{Cache: true, Count: func(n int64) error { counted += n; return nil }}
	for i := range 2 {
		r, err := c.Get(context.Background(), s.URL+"/s.xml", g)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, r); got != "body" || r.Cached != (i == 1) {
			t.Errorf("request %d: %q cached=%v", i, got, r.Cached)
		}
	}
	if len(inm) != 2 || inm[0] != "" || inm[1] != `"v1"` || counted != 4 {
		t.Errorf("If-None-Match sent %q; %d bytes counted, want 4 (the cached body is not transferred)", inm, counted)
	}
}

// TestClientRobots: robots.txt is fetched once per site, a 4xx means no
// rules and a 5xx an unreachable file (RFC 9309).
func TestClientRobots(t *testing.T) {
	s := newSite(t)
	s.serve("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow: /private\n\nSitemap: /s.xml\n"))
	c := newTestClient(t, ClientOptions{Attempts: 1})
	for range 3 {
		r, err := c.Robots(context.Background(), s.URL+"/some/page?q=1")
		if err != nil {
			t.Fatal(err)
		}
		if r.File == nil || r.Unreachable() || r.File.Allowed("bot", "/private/x") || r.Status != 200 || r.URL != s.URL+"/robots.txt" {
			t.Fatalf("robots %+v", r)
		}
	}
	if h := s.hitCount("/robots.txt"); h != 1 {
		t.Errorf("robots.txt requested %d times; want once per site", h)
	}
	missing := newSite(t)
	r, err := c.Robots(context.Background(), missing.URL)
	if err != nil || r.File != nil || r.Unreachable() || r.Status != 404 || KindOf(r.Err) != KindNotFound {
		t.Errorf("404: %+v, %v", r, err)
	}
	down := newSite(t)
	down.handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	r, err = c.Robots(context.Background(), down.URL+"/")
	if err != nil || r.File != nil || !r.Unreachable() || r.Status != 503 {
		t.Errorf("503: %+v, %v", r, err)
	}
	if _, err := c.Robots(context.Background(), "ftp://e.com/"); KindOf(err) != KindBadURL {
		t.Errorf("ftp: %v", err)
	}
}
