package fetch

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// What real servers send: each case serves /s.xml or /s.xml.gz one way and
// says which URLs are kept and which rule is reported.
func TestServedBodies(t *testing.T) {
	three := urlset("https://e.com/1", "https://e.com/2", "https://e.com/3")
	want3 := []string{"https://e.com/1", "https://e.com/2", "https://e.com/3"}
	for _, tc := range []struct {
		name    string
		path    string
		ctype   string
		body    []byte
		headers []string
		want    []string
		rule    string // a diagnostic expected, "" for none at warning/error level
		failed  bool
	}{
		{"wrong Content-Type (text/html)", "/s.xml", "text/html; charset=utf-8", three, nil, want3, "FETCH-TYPE", false},
		{"no Content-Type", "/s.xml", "", three, nil, want3, "", false},
		{"octet-stream gzip", "/s.xml.gz", "application/octet-stream", gz(three), nil, want3, "", false},
		{"Content-Encoding: gzip", "/s.xml", "application/xml", gz(three), []string{"Content-Encoding: gzip"}, want3, "", false},
		{"plain XML behind .xml.gz", "/s.xml.gz", "application/x-gzip", three, nil, want3, "", false},
		{"gzip twice (.xml.gz with Content-Encoding: gzip)", "/s.xml.gz", "application/x-gzip", gz(gz(three)), []string{"Content-Encoding: gzip"}, want3, "", false},
		{"Content-Encoding: gzip on a plain body", "/s.xml", "application/xml", three, []string{"Content-Encoding: gzip"}, want3, "FETCH-HTTP", false},
		{"text sitemap (T-01)", "/s.txt", "text/plain", []byte("https://e.com/1\nhttps://e.com/2\r\nhttps://e.com/3\n"), nil, want3, "", false},
		{"truncated body", "/s.xml", "application/xml", three[:bytes.Index(three, []byte("https://e.com/3"))], nil, []string{"https://e.com/1", "https://e.com/2"}, "", true},
		{"truncated gzip", "/s.xml.gz", "application/gzip", gz(three)[:len(gz(three))-12], nil, nil, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			s.serve(tc.path, tc.ctype, tc.body, tc.headers...)
			r := walk(t, s.URL+tc.path, fastOpts())
			got := r.locs()
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Errorf("urls = %v, want %v", got, tc.want)
			}
			if tc.rule != "" && r.diag(tc.rule) == nil {
				t.Errorf("no %s diagnostic: %v", tc.rule, r.diags)
			}
			if (r.sum.Failed == 1) != tc.failed {
				t.Errorf("failed = %d, want %v; diags %v", r.sum.Failed, tc.failed, r.diags)
			}
			if tc.failed && r.sum.Errors == 0 {
				t.Error("a failed sitemap without an error diagnostic")
			}
			if !tc.failed && r.sum.Errors != 0 {
				t.Errorf("errors on a readable body: %v", r.diags)
			}
		})
	}
}

// Content the decoder must survive, seen through fetch: the kept URLs and
// the decoder's rule IDs arrive with the sitemap's URL.
func TestDecoderFindings(t *testing.T) {
	t.Run("ISO-8859-1", func(t *testing.T) {
		s := newSite(t)
		body := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/caf\xe9</loc></url></urlset>\n")
		s.serve("/latin1.xml", "text/xml; charset=ISO-8859-1", body)
		r := walk(t, s.URL+"/latin1.xml", fastOpts())
		if len(r.urls) != 1 || !strings.HasPrefix(r.urls[0].Loc, "https://e.com/caf") || !strings.Contains(r.urls[0].Loc, "é") && !strings.Contains(r.urls[0].Loc, "%C3%A9") {
			t.Fatalf("urls %q, diags %v", r.locs(), r.diags)
		}
	})
	t.Run("bad priority beside good URLs (P-01)", func(t *testing.T) {
		s := newSite(t)
		body := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://e.com/a</loc><priority>0.5</priority></url>
<url><loc>https://e.com/b</loc><priority>1.7</priority></url>
<url><loc>https://e.com/c</loc></url>
</urlset>`
		s.serve("/p.xml", "application/xml", []byte(body))
		r := walk(t, s.URL+"/p.xml", fastOpts())
		if !slices.Equal(r.locs(), []string{"https://e.com/a", "https://e.com/b", "https://e.com/c"}) {
			t.Fatalf("urls %v", r.locs())
		}
		d := r.diag("P-01")
		if d == nil || d.URL != s.URL+"/p.xml" || d.Line != 4 {
			t.Fatalf("P-01 = %+v (all %v)", d, r.diags)
		}
		if n, _ := r.node(s.URL + "/p.xml"); n.Failed {
			t.Error("a bad priority failed the sitemap")
		}
	})
	t.Run("whitespace around loc (X-12)", func(t *testing.T) {
		s := newSite(t)
		body := "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>\n   https://e.com/ws  \n</loc></url></urlset>"
		s.serve("/ws.xml", "application/xml", []byte(body))
		r := walk(t, s.URL+"/ws.xml", fastOpts())
		if !slices.Equal(r.locs(), []string{"https://e.com/ws"}) {
			t.Fatalf("urls %q", r.locs())
		}
		if r.diag("X-12") == nil {
			t.Errorf("untrimmed loc not reported: %v", r.diags)
		}
	})
	t.Run("billion laughs", func(t *testing.T) {
		s := newSite(t)
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">`)
		prev := "lol"
		for i := 1; i <= 9; i++ {
			name := "lol" + strconv.Itoa(i)
			b.WriteString(`<!ENTITY ` + name + ` "` + strings.Repeat("&"+prev+";", 10) + `">`)
			prev = name
		}
		b.WriteString(`]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/&lol9;</loc></url><url><loc>https://e.com/plain</loc></url></urlset>`)
		s.serve("/lol.xml", "application/xml", []byte(b.String()))
		r := walk(t, s.URL+"/lol.xml", fastOpts())
		for _, u := range r.urls {
			if len(u.Loc) > 1000 {
				t.Fatalf("an entity was expanded: loc of %d bytes", len(u.Loc))
			}
		}
		if len(r.diags) == 0 {
			t.Fatal("DOCTYPE with entities not reported")
		}
	})
	t.Run("gzip bomb", func(t *testing.T) {
		s := newSite(t)
		// A multi-member gzip stream: the head, then 64 members of 1 MiB of
		// zeros each (about 1 KB apiece): 64 MiB inflated from ~70 KB.
		var zb bytes.Buffer
		zb.Write(gz([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/first</loc></url><!--`)))
		zeros := gz(make([]byte, 1<<20))
		for range 64 {
			zb.Write(zeros)
		}
		s.serve("/bomb.xml.gz", "application/gzip", zb.Bytes())
		o := fastOpts()
		o.MaxSitemapBytes = 1 << 20
		r := walk(t, s.URL+"/bomb.xml.gz", o)
		if !slices.Equal(r.locs(), []string{"https://e.com/first"}) {
			t.Errorf("urls %v", r.locs())
		}
		if r.diag(string(sitemap.RuleMaxBytes)) == nil || r.sum.Failed != 1 {
			t.Fatalf("bomb not stopped and reported: %+v %v", r.sum, r.diags)
		}
		if r.sum.Bytes > int64(zb.Len()) {
			t.Errorf("counted %d wire bytes for a %d-byte body", r.sum.Bytes, zb.Len())
		}
	})
}

// 401/403 are "blocked" errors naming the user agent; a server that
// refuses unknown agents lets a known one through (--user-agent).
func TestBlocked(t *testing.T) {
	s := newSite(t)
	s.handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("User-Agent"), "Mozilla") {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Write(urlset("https://e.com/ok"))
	})
	r := walk(t, s.URL+"/s.xml", fastOpts())
	d := r.diag("FETCH-BLOCKED")
	if d == nil || d.Severity != sitemap.SeverityError || !strings.Contains(d.Message, "403") || !strings.Contains(d.Message, DefaultUserAgent) || r.sum.Failed != 1 {
		t.Fatalf("diag %+v sum %+v", d, r.sum)
	}
	if s.hitCount("/s.xml") != 1 {
		t.Errorf("a 403 was retried (%d requests)", s.hitCount("/s.xml"))
	}
	o := fastOpts()
	o.UserAgent = "Mozilla/5.0 (compatible; test)"
	r = walk(t, s.URL+"/s.xml", o)
	if !slices.Equal(r.locs(), []string{"https://e.com/ok"}) || r.sum.Errors != 0 {
		t.Fatalf("with a browser UA: %v %v", r.locs(), r.diags)
	}
}

// 429 with Retry-After: the request is retried after the delay and the
// sitemap is read; an info diagnostic says so.
func TestRetryAfter(t *testing.T) {
	s := newSite(t)
	var n atomic.Int32
	var first, second atomic.Int64
	s.handle("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			first.Store(time.Now().UnixNano())
			w.Header().Set("Retry-After", "1")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		default:
			second.Store(time.Now().UnixNano())
			w.Write(urlset("https://e.com/after"))
		}
	})
	r := walk(t, s.URL+"/s.xml", fastOpts())
	if !slices.Equal(r.locs(), []string{"https://e.com/after"}) || n.Load() != 2 {
		t.Fatalf("urls %v after %d requests; %v", r.locs(), n.Load(), r.diags)
	}
	if d := r.diag("FETCH-HTTP"); d == nil || d.Severity != sitemap.SeverityInfo || !strings.Contains(d.Message, "429") {
		t.Errorf("retry not noted: %v", r.diags)
	}
	// Retry-After was honoured, not the 10 ms backoff of fastOpts. This is
	// an ordering fact (the server saw the second request at least 1 s after
	// the first), not a speed assertion.
	if gap := time.Duration(second.Load() - first.Load()); gap < 900*time.Millisecond {
		t.Errorf("retried after %v, Retry-After said 1s", gap)
	}

	// 503 on every attempt: bounded attempts, then an error.
	s.handle("/down.xml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	o := fastOpts()
	o.Attempts = 3
	r = walk(t, s.URL+"/down.xml", o)
	if s.hitCount("/down.xml") != 3 || r.sum.Failed != 1 || !strings.Contains(r.diags[len(r.diags)-1].Message, "3 attempts") {
		t.Fatalf("hits %d, %v", s.hitCount("/down.xml"), r.diags)
	}
	// A Retry-After longer than RetryMax ends the retries at once.
	s.handle("/later.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "later", http.StatusServiceUnavailable)
	})
	r = walk(t, s.URL+"/later.xml", o)
	if s.hitCount("/later.xml") != 1 || !strings.Contains(r.diags[len(r.diags)-1].Message, "Retry-After") {
		t.Fatalf("hits %d, %v", s.hitCount("/later.xml"), r.diags)
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"Mon, 02 Nov 2026 10:00:30 GMT", 30 * time.Second, true},
		{"Mon, 02 Nov 2026 09:00:00 GMT", 0, true},
		{"-5", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	} {
		d, ok := retryAfter(tc.in, now)
		if d != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tc.in, d, ok, tc.want, tc.ok)
		}
	}
	for a := 1; a <= 5; a++ {
		base := 100 * time.Millisecond << (a - 1)
		if d := backoff(100*time.Millisecond, a); d < base/2 || d >= base*3/2 {
			t.Errorf("backoff attempt %d = %v, want within [%v, %v)", a, d, base/2, base*3/2)
		}
	}
}

// A server that dribbles a byte at a time slower than the idle timeout, and
// one that sends an endless body fast: neither hangs the walk; what came
// before is kept.
func TestSlowAndEndless(t *testing.T) {
	head := `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/early</loc></url>`
	t.Run("slow drip", func(t *testing.T) {
		s := newSite(t)
		s.handle("/drip.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(head))
			w.(http.Flusher).Flush()
			for _, c := range []byte("<url><loc>https://e.com/late</loc></url></urlset>") {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(time.Second):
				}
				w.Write([]byte{c})
				w.(http.Flusher).Flush()
			}
		})
		o := fastOpts()
		o.IdleTimeout = 300 * time.Millisecond // well under the drip's second
		r := walk(t, s.URL+"/drip.xml", o)
		d := r.diag("FETCH-HTTP")
		if d == nil || !strings.Contains(d.Message, "idle") || r.sum.Failed != 1 {
			t.Fatalf("diags %v", r.diags)
		}
		if !slices.Equal(r.locs(), []string{"https://e.com/early"}) {
			t.Errorf("urls %v", r.locs())
		}
	})
	t.Run("drip under the idle timeout", func(t *testing.T) {
		s := newSite(t)
		s.handle("/drip.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(head))
			for {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
				w.Write([]byte(" "))
				w.(http.Flusher).Flush()
			}
		})
		o := fastOpts()
		// The idle timeout well above the deadline: on a loaded machine
		// a 50 ms drip could stall past 300 ms and end the read as idle.
		o.IdleTimeout = 5 * time.Second
		o.SitemapTimeout = 700 * time.Millisecond
		r := walk(t, s.URL+"/drip.xml", o)
		d := r.diag("FETCH-HTTP")
		if d == nil || !strings.Contains(d.Message, "per-sitemap deadline") || r.sum.Failed != 1 {
			t.Fatalf("diags %v", r.diags)
		}
	})
	t.Run("a try timed out, not the sitemap", func(t *testing.T) {
		s := newSite(t)
		s.handle("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done() // never answers
		})
		for _, client := range []bool{false, true} {
			o := fastOpts()
			o.HeaderTimeout = 200 * time.Millisecond
			if client { // the Client's own per-try Timeout, as --timeout sets
				c, err := NewClient(ClientOptions{Timeout: 200 * time.Millisecond, HeaderTimeout: 200 * time.Millisecond, Attempts: 2, RetryBase: 10 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				o.HTTP = c
			}
			o.Attempts = 2
			o.SitemapTimeout = time.Minute
			r := walk(t, s.URL+"/slow.xml", o)
			var d *sitemap.Diagnostic
			for i := range r.diags {
				if r.diags[i].Rule == rules.FetchHTTP && r.diags[i].Severity == sitemap.SeverityError {
					d = &r.diags[i]
				}
			}
			if d == nil || strings.Contains(d.Message, "per-sitemap deadline") || !strings.Contains(d.Message, "timed out") || r.sum.Failed != 1 {
				t.Fatalf("client timeout %v: diags %v", client, r.diags)
			}
		}
	})
	t.Run("endless body", func(t *testing.T) {
		s := newSite(t)
		s.handle("/endless.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(head))
			chunk := bytes.Repeat([]byte("<url><loc>https://e.com/x</loc></url>\n"), 1000)
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		})
		o := fastOpts()
		o.MaxSitemapBytes = 2 << 20
		r := walk(t, s.URL+"/endless.xml", o)
		if r.sum.Failed != 1 || r.sum.Errors == 0 {
			t.Fatalf("sum %+v diags %v", r.sum, r.diags)
		}
		if got := r.locs(); len(got) < 2 || got[0] != "https://e.com/early" || got[1] != "https://e.com/x" {
			t.Errorf("kept %d urls", len(got))
		}
	})
}

// With a cache directory: the first walk stores body and validators, the
// second sends If-None-Match / If-Modified-Since and reuses the body on 304.
func TestCache(t *testing.T) {
	s := newSite(t)
	body := gz(urlset("https://e.com/c1", "https://e.com/c2"))
	var conditional atomic.Int32
	s.handle("/c.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Encoding", "gzip")
		if r.Header.Get("If-None-Match") == `"v1"` {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(body)
	})
	lm := "Mon, 02 Nov 2026 10:00:00 GMT"
	s.handle("/lm.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", lm)
		if r.Header.Get("If-Modified-Since") == lm {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(urlset("https://e.com/lm"))
	})
	s.serve("/i.xml", "", index(s.URL+"/c.xml", s.URL+"/lm.xml"))
	o := fastOpts()
	o.CacheDir = filepath.Join(t.TempDir(), "cache")
	r1 := walk(t, s.URL+"/i.xml", o)
	r2 := walk(t, s.URL+"/i.xml", o)
	a, b := r1.locs(), r2.locs()
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, []string{"https://e.com/c1", "https://e.com/c2", "https://e.com/lm"}) || !slices.Equal(a, b) {
		t.Fatalf("first %v second %v (%v)", a, b, r2.diags)
	}
	if conditional.Load() != 2 {
		t.Fatalf("%d conditional requests answered 304, want 2", conditional.Load())
	}
	if n, _ := r2.node(s.URL + "/c.xml"); !n.Cached || n.Status != 304 {
		t.Errorf("node %+v", n)
	}
	if n, _ := r1.node(s.URL + "/c.xml"); n.Cached {
		t.Error("first walk marked cached")
	}
	// A truncated body is never cached.
	s.serve("/t.xml", "", urlset("https://e.com/t")[:60], "ETag: \"t\"")
	walk(t, s.URL+"/t.xml", o)
	entries, _ := os.ReadDir(o.CacheDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".body") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if _, ok := (&cache{dir: o.CacheDir}).lookup(s.URL + "/t.xml"); ok {
		t.Error("a truncated body was cached")
	}
}

// The idle timeout measures the server, not the consumer: a callback that
// takes longer than the idle timeout (a paused pipe) does not fail the
// sitemap.
func TestIdleTimeoutIgnoresSlowConsumer(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 3000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	o := fastOpts()
	o.IdleTimeout = 300 * time.Millisecond // a loaded machine's server may pause 100 ms
	o.Concurrency = 1                      // two batches in flight: the reader waits for the callback
	n := 0
	sum, err := Walk(t.Context(), s.URL+"/s.xml", o, func(ev Event) error {
		if ev.Kind == EventURL {
			n++
			if n == 1 || n == 1500 {
				time.Sleep(500 * time.Millisecond)
			}
		}
		return nil
	})
	if err != nil || sum.Failed != 0 || n != 3000 {
		t.Fatalf("err %v, sum %+v, %d URLs", err, sum, n)
	}
}
