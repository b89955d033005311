package fetch

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// A probe answered with 429 is rate limiting, not a miss: it is retried
// (Retry-After honoured) so a throttling site with a failing robots.txt is
// not reported as having no sitemap at all. Other failures keep the single
// try of TestProbeSingleAttempt.
func TestProbe429Retried(t *testing.T) {
	s := newSite(t)
	s.handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	var n atomic.Int32
	s.handle("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		w.Write(urlset("https://e.com/1"))
	})
	o := fastOpts()
	o.Attempts = 2
	r := walk(t, s.URL+"/", o)
	if !slices.Equal(r.locs(), []string{"https://e.com/1"}) || r.diag("FETCH-NONE") != nil {
		t.Fatalf("urls %v after %d requests; %v", r.locs(), n.Load(), r.diags)
	}
}

// When nothing is found, FETCH-NONE says why the probes failed when that
// was not a plain "not found": a host that is down or refuses the client
// must not read as a site without sitemaps.
func TestNothingFoundSaysWhy(t *testing.T) {
	s := newSite(t)
	for _, p := range ProbePaths() {
		s.handle(p, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	}
	o := fastOpts()
	o.Attempts = 1
	r := walk(t, s.URL+"/", o)
	d := r.diag("FETCH-NONE")
	if d == nil || d.Severity != sitemap.SeverityError || !strings.Contains(d.Message, "503") || !strings.Contains(d.Message, "/sitemap.xml") {
		t.Fatalf("FETCH-NONE does not say why: %v", r.diags)
	}
	// Plain 404s keep the plain message.
	s2 := newSite(t)
	r = walk(t, s2.URL+"/", o)
	if d := r.diag("FETCH-NONE"); d == nil || strings.Contains(d.Message, "HTTP 404") {
		t.Fatalf("404 probes: %v", r.diags)
	}
}

// Loop and repeat messages name both ends once each and say where the
// repeated sitemap was first listed (a node ID means nothing to a user).
func TestLoopAndDupMessages(t *testing.T) {
	s := newSite(t)
	s.serve("/a.xml", "", index(s.URL+"/b.xml", s.URL+"/x.xml", s.URL+"/c.xml"))
	s.serve("/b.xml", "", index(s.URL+"/a.xml"))
	s.serve("/c.xml", "", index(s.URL+"/x.xml"))
	s.serve("/x.xml", "", urlset("https://e.com/x"))
	r := walk(t, s.URL+"/a.xml", Options{Concurrency: 1})
	d := r.diag("FETCH-LOOP")
	if d == nil || strings.Count(d.Message, s.URL+"/a.xml") != 2 || strings.Count(d.Message, s.URL+"/b.xml") != 2 {
		t.Errorf("loop message: %v", d)
	}
	d = r.diag("FETCH-DUP")
	if d == nil || strings.Contains(d.Message, "node ") || !strings.Contains(d.Message, "first listed by "+s.URL+"/a.xml") {
		t.Errorf("dup message: %v", d)
	}
}

// A start URL without a scheme (host:port included, which url.Parse
// rejects with a cryptic message) is refused with the fix spelled out.
func TestClassifySuggestsScheme(t *testing.T) {
	for _, in := range []string{"127.0.0.1:8080", "localhost:8080/sitemap.xml", "www.example.com"} {
		_, _, err := classify(in)
		if err == nil || !strings.Contains(err.Error(), "https://"+in) {
			t.Errorf("classify(%q): %v", in, err)
		}
	}
}

// A 304 answered from the cache transfers no body: the summary's
// transferred bytes must not count the cached copy, and --max-bytes must
// not stop a walk that transfers nothing.
func TestCachedBytesNotTransferred(t *testing.T) {
	s := newSite(t)
	body := urlset("https://e.com/1", "https://e.com/2", "https://e.com/3")
	s.handle("/c.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(body)
	})
	o := fastOpts()
	o.CacheDir = t.TempDir()
	r1 := walk(t, s.URL+"/c.xml", o)
	if r1.sum.Bytes < int64(len(body)) {
		t.Fatalf("first walk: %d bytes", r1.sum.Bytes)
	}
	o.MaxBytes = 10
	r2 := walk(t, s.URL+"/c.xml", o)
	if n, _ := r2.node(s.URL + "/c.xml"); !n.Cached {
		t.Fatalf("not served from the cache: %+v", n)
	}
	if r2.sum.Bytes != 0 || len(r2.urls) != 3 || len(r2.sum.Capped) != 0 {
		t.Errorf("cached walk: %d bytes transferred, %d URLs, caps %v", r2.sum.Bytes, len(r2.urls), r2.sum.Capped)
	}
}

// TestFailedNodeSaysWhyOnce: a child that is not a sitemap (an HTML page)
// fails with the decoder's message as the node's Err, not the whole
// diagnostic line (its URL, line and rule again), which --tree printed
// after "FAILED:".
func TestFailedNodeSaysWhyOnce(t *testing.T) {
	s := newSite(t)
	s.serve("/index.xml", "application/xml", index(s.URL+"/login.xml"))
	s.serve("/login.xml", "text/html", []byte("<!doctype html><html><body>log in</body></html>"))
	r := walk(t, s.URL+"/index.xml", fastOpts())
	n, ok := r.node(s.URL + "/login.xml")
	if !ok || !n.Failed || !strings.HasPrefix(n.Err, "this is an HTML page") {
		t.Errorf("node %+v: want Failed with Err the F-04 message alone", n)
	}
}
