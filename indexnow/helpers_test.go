package indexnow

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
)

const testKey = "0123456789abcdef-KEY"

// request is one POST the recording endpoint received.
type request struct {
	Method, ContentType string
	Body                body
}

// endpoint is a recording IndexNow endpoint on 127.0.0.1 (IN-12). answer
// says what the n-th request (from 1) gets; nil: 200.
type endpoint struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []request
	answer func(n int, w http.ResponseWriter, r *http.Request)
}

func newEndpoint(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *endpoint {
	t.Helper()
	e := &endpoint{answer: answer}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var b body
		if err := json.Unmarshal(data, &b); err != nil {
			t.Errorf("request body is not JSON: %v: %q", err, data)
		}
		e.mu.Lock()
		e.reqs = append(e.reqs, request{r.Method, r.Header.Get("Content-Type"), b})
		n := len(e.reqs)
		e.mu.Unlock()
		if e.answer != nil {
			e.answer(n, w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) requests() []request {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]request(nil), e.reqs...)
}

// urls returns every URL the endpoint received, in order.
func (e *endpoint) urls() []string {
	var out []string
	for _, r := range e.requests() {
		out = append(out, r.Body.URLList...)
	}
	return out
}

func testClient(t *testing.T, o fetch.ClientOptions) *fetch.Client {
	t.Helper()
	if o.RetryBase == 0 {
		o.RetryBase = time.Millisecond
	}
	if o.RetryMax == 0 {
		o.RetryMax = time.Second
	}
	c, err := fetch.NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// list is a sitemap.Entries of locs.
func list(locs ...string) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, l := range locs {
			if err := yield(&sitemap.URL{Loc: l}); err != nil {
				return err
			}
		}
		return nil
	}
}

func pages(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "https://www.example.com/p/" + strings.Repeat("x", i%3) + itoa(i)
	}
	return out
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

func opts(t *testing.T, e *endpoint) Options {
	return Options{Key: testKey, Host: "www.example.com", Endpoint: e.srv.URL + "/indexnow", Client: testClient(t, fetch.ClientOptions{})}
}
