package crawl

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestParseHTML(t *testing.T) {
	doc := `<html><head><base href="/base/"><meta name="ROBOTS" content="NOINDEX"><meta name="sitemap-crawl" content="nofollow">
<link rel="canonical" href="/c"><link rel="alternate" hreflang="de" href="/de">
<script>var a = "<a href='/not-a-link'>";</script><style>a{}</style></head>
<body><a href="/x" rel="nofollow noopener">x</a><a href="/y">y</a><img src="/i.png"><img src="/i.png"><area href="/z"></body></html>`
	p, err := parseHTML(strings.NewReader(doc), "text/html", 1<<20, "sitemap-crawl")
	if err != nil {
		t.Fatal(err)
	}
	want := []link{{"/x", true}, {"/y", false}, {"/z", false}}
	if !reflect.DeepEqual(p.Links, want) {
		t.Errorf("links %+v; want %+v", p.Links, want)
	}
	if p.Base != "/base/" || p.Canonical != "/c" || !p.Noindex || !p.Nofollow || len(p.Images) != 1 || len(p.Alternates) != 1 || p.Truncated {
		t.Errorf("page %+v", p)
	}
}

// TestParseHTMLCharset: the charset comes from the header, else from
// <meta>; the text is decoded before it is fingerprinted, so the same page
// in two encodings has one hash.
func TestParseHTMLCharset(t *testing.T) {
	utf8 := `<html><head><meta charset="utf-8"></head><body><a href="/caf%C3%A9">Café</a></body></html>`
	latin1 := []byte(strings.Replace(strings.Replace(utf8, "utf-8", "iso-8859-1", 1), "Café", "Caf\xe9", 1))
	a, err := parseHTML(strings.NewReader(utf8), "text/html", 1<<20, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseHTML(bytes.NewReader(latin1), "text/html", 1<<20, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseHTML(bytes.NewReader(latin1), "text/html; charset=windows-1252", 1<<20, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash != b.Hash || a.Hash != c.Hash {
		t.Errorf("hashes differ across charsets: %s %s %s", a.Hash, b.Hash, c.Hash)
	}
}

// TestParseHTMLCap: links after the size cap are not read.
func TestParseHTMLCap(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
	}
	p, err := parseHTML(strings.NewReader(b.String()), "text/html", 2000, "")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Truncated || len(p.Links) == 0 || len(p.Links) > 2000/20 {
		t.Errorf("truncated %v with %d links", p.Truncated, len(p.Links))
	}
}

func TestRepeats(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/a/b/a/b/a/b", true},
		{"/x/a/b/c/a/b/c/a/b/c/y", true},
		{"/a/a/a", true},
		{"/a/a/b", false},
		{"/a/b/a/b", false},
		{"/2026/11/02/post", false},
		{"/", false},
	}
	for _, tt := range tests {
		if got := repeats(tt.path, 3); got != tt.want {
			t.Errorf("repeats(%q) = %v; want %v", tt.path, got, tt.want)
		}
	}
}

func TestXRobotsTag(t *testing.T) {
	tests := []struct {
		values            []string
		noindex, nofollow bool
	}{
		{[]string{"noindex"}, true, false},
		{[]string{"none"}, true, true},
		{[]string{"googlebot: noindex"}, false, false},
		{[]string{"sitemap-crawl: noindex, nofollow"}, true, true},
		{[]string{"unavailable_after: 25 Jun 2010 15:00:00 PST"}, false, false},
		{[]string{"index, follow", "NOFOLLOW"}, false, true},
	}
	for _, tt := range tests {
		ni, nf := xRobotsTag(tt.values, "sitemap-crawl")
		if ni != tt.noindex || nf != tt.nofollow {
			t.Errorf("xRobotsTag(%q) = %v, %v; want %v, %v", tt.values, ni, nf, tt.noindex, tt.nofollow)
		}
	}
}

// TestValidHreflang follows H-06.
func TestValidHreflang(t *testing.T) {
	for s, want := range map[string]bool{"en": true, "en-GB": true, "zh-Hant": true, "x-default": true, "GB-": false, "english": false, "": false, "de-CH-1996": true, "e": false} {
		if got := validHreflang(s); got != want {
			t.Errorf("validHreflang(%q) = %v; want %v", s, got, want)
		}
	}
}

// TestLimits: hitting max-pages and max-depth is reported, never silent.
func TestLimits(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	o := siteOptions()
	o.MaxPages = 5
	sum, entries, out := crawlSite(t, site, filepath.Join(t.TempDir(), "s.db"), o)
	if len(entries) > 5 || sum.Fetched != 5 || !reflect.DeepEqual(sum.Limits, []string{"max-pages"}) || sum.Reasons[ReasonMaxPages] == 0 {
		t.Errorf("max-pages: %d entries, summary %+v", len(entries), sum)
	}
	if out["/slow"].Reason != ReasonMaxPages && out["/slow"].Included {
		t.Errorf("/slow: %+v", out["/slow"])
	}

	o = siteOptions()
	o.MaxTime = time.Nanosecond // over before the first request
	sum, entries, out = crawlSite(t, site, filepath.Join(t.TempDir(), "t.db"), o)
	if len(entries) != 0 || !reflect.DeepEqual(sum.Limits, []string{"max-time"}) || out["/"].Reason != ReasonMaxTime {
		t.Errorf("max-time: %d entries, summary %+v, home %+v", len(entries), sum, out["/"])
	}

	o = siteOptions()
	o.MaxDepth = 1
	sum, _, out = crawlSite(t, site, filepath.Join(t.TempDir(), "d.db"), o)
	if out["/older"].Reason != ReasonMaxDepth || out["/calendar?month=2"].Reason != ReasonMaxDepth || !reflect.DeepEqual(sum.Limits, []string{"max-depth"}) {
		t.Errorf("max-depth: /older %+v, summary %+v", out["/older"], sum)
	}
}

// TestRobotsUnavailable: a 5xx robots.txt disallows the whole site (RFC
// 9309 §2.3.1.4); a 404 allows everything; Crawl-delay is read.
func TestRobotsUnavailable(t *testing.T) {
	for _, tt := range []struct {
		status int
		reason string
	}{{503, ReasonRobots}, {404, ""}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.WriteHeader(tt.status)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>home</p>"))
		}))
		o := Options{Retries: -1, Rate: -1}
		c, st, err := openCrawler(context.Background(), filepath.Join(t.TempDir(), "s.db"), srv.URL, o)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got Outcome
		c.Outcomes(context.Background(), func(o Outcome) error { got = o; return nil })
		if got.Reason != tt.reason || (tt.status >= 500) != (len(sum.Warnings) > 0) {
			t.Errorf("robots.txt %d: home %+v, warnings %v", tt.status, got, sum.Warnings)
		}
		st.Close()
		srv.Close()
	}
}

func FuzzParseHTML(f *testing.F) {
	for _, s := range []string{
		`<a href="/x" rel=nofollow>x</a><img src=/i.png><link rel=canonical href=/c>`,
		`<meta charset="iso-8859-1"><p>caf` + "\xe9" + `</p>`,
		`<script><a href="/no"></script><base href="//h/"><link rel="alternate" hreflang="de" href="/de">`,
		`<meta name=robots content="none">`,
	} {
		f.Add(s, "text/html")
	}
	f.Fuzz(func(t *testing.T, doc, ct string) {
		p, err := parseHTML(strings.NewReader(doc), ct, 4096, "bot")
		if err != nil {
			return
		}
		if len(p.Images) > maxImagesPerPage || len(p.Links) > maxLinksPerPage {
			t.Fatalf("caps broken: %d images, %d links", len(p.Images), len(p.Links))
		}
		if p.Hash == "" {
			t.Fatal("no hash")
		}
	})
}

// TestPoliteness: Crawl-delay lowers the rate (robots.txt for the
// crawler's product token); a request slower than Timeout is an "error";
// a 429 is retried once, after Retry-After.
func TestPoliteness(t *testing.T) {
	var busy atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /x\nCrawl-delay: 5\n\nUser-agent: polite-bot\nDisallow: /x\nCrawl-delay: 0.25\n")
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/slow">s</a><a href="/busy">b</a>`)
		case "/slow":
			// Far slower than Timeout, which is far above what a page
			// takes on a loaded machine; it ends when the crawler hangs up.
			select {
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "slow")
		case "/busy":
			if busy.Add(1) == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "ok")
		}
	}))
	defer srv.Close()
	c, st, err := openCrawler(context.Background(), filepath.Join(t.TempDir(), "s.db"), srv.URL, Options{UserAgent: "polite-bot/2.0 (+https://example.com)", Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := c.limiter.Limit(), rate.Every(250*time.Millisecond); got != want {
		t.Errorf("rate %v; want %v from the polite-bot group's Crawl-delay", got, want)
	}
	out := map[string]Outcome{}
	c.Outcomes(context.Background(), func(o Outcome) error { out[strings.TrimPrefix(o.URL, srv.URL)] = o; return nil })
	if o := out["/slow"]; o.Reason != ReasonError {
		t.Errorf("/slow: %+v; want reason error (request timeout)", o)
	}
	if o := out["/busy"]; !o.Included || o.Status != 200 || busy.Load() != 2 {
		t.Errorf("/busy: %+v after %d requests; want listed after one retry", o, busy.Load())
	}
}

func TestLinkCanonical(t *testing.T) {
	for _, tt := range []struct {
		values []string
		want   string
	}{
		{[]string{`<https://example.com/a>; rel="canonical"`}, "https://example.com/a"},
		{[]string{`<https://example.com/s.css>; rel=preload, <https://example.com/b>; rel=canonical`}, "https://example.com/b"},
		{[]string{`<https://example.com/de>; rel="alternate"; hreflang="de"`}, ""},
		{[]string{`garbage`}, ""},
	} {
		if got := linkCanonical(tt.values); got != tt.want {
			t.Errorf("linkCanonical(%q) = %q; want %q", tt.values, got, tt.want)
		}
	}
}
