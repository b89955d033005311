package fetch

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want NodeKind
		bad  bool
	}{
		{"https://www.example.com", NodeStart, false},
		{"https://www.example.com/", NodeStart, false},
		{"https://www.example.com/blog/", NodeStart, false},
		{"https://www.example.com/robots.txt", NodeRobots, false},
		{"https://www.example.com/sitemap.xml", NodeSitemap, false},
		{"https://www.example.com/sitemap.xml#frag", NodeSitemap, false},
		{"www.example.com/sitemap.xml", 0, true},
		{"ftp://example.com/sitemap.xml", 0, true},
		{"/sitemap.xml", 0, true},
	} {
		k, _, err := classify(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && k != tc.want) {
			t.Errorf("classify(%q) = %v, %v; want %v (error %v)", tc.in, k, err, tc.want, tc.bad)
		}
	}
}

// From a homepage: robots.txt names an index, the index names two
// sitemaps; every URL comes once with its source, the tree has the shape
// robots → index → children (RB-07, I-02).
func TestWalkFromHomepage(t *testing.T) {
	s := newSite(t)
	u := s.URL
	s.serve("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow: /private\n\nSitemap: "+u+"/sitemap_index.xml\n"))
	s.serve("/sitemap_index.xml", "application/xml", index(u+"/a.xml", u+"/b.xml.gz"))
	s.serve("/a.xml", "application/xml", urlset("https://www.example.com/1", "https://www.example.com/2"))
	s.serve("/b.xml.gz", "application/gzip", gz(urlset("https://www.example.com/3", "https://www.example.com/2")))
	r := walk(t, u+"/", Options{})
	if r.err != nil {
		t.Fatal(r.err)
	}
	got := r.locs()
	slices.Sort(got)
	want := []string{"https://www.example.com/1", "https://www.example.com/2", "https://www.example.com/3"}
	if !slices.Equal(got, want) {
		t.Fatalf("urls = %v, want %v (every URL once)", got, want)
	}
	if r.sum.Duplicates != 1 || r.sum.Entries != 4 || r.sum.URLs != 3 || r.sum.Sitemaps != 3 || r.sum.Failed != 0 {
		t.Errorf("summary = %+v", r.sum)
	}
	for _, x := range r.urls {
		if x.Loc == "https://www.example.com/3" && x.Source != u+"/b.xml.gz" {
			t.Errorf("source of /3 = %q", x.Source)
		}
	}
	idx, ok := r.node(u + "/sitemap_index.xml")
	rb, ok2 := r.node(u + "/robots.txt")
	if !ok || !ok2 || idx.Parent != rb.ID || idx.Sitemaps != 2 || idx.Format != "sitemapindex" || rb.Parent != 1 {
		t.Errorf("tree: index %+v robots %+v", idx, rb)
	}
	if a, _ := r.node(u + "/a.xml"); a.Parent != idx.ID || a.URLs != 2 || a.Depth != 2 {
		t.Errorf("a.xml node = %+v", a)
	}
	if s.hitCount("/sitemap.xml") != 0 {
		t.Error("probed /sitemap.xml although robots.txt names a sitemap (--known-paths fallback)")
	}
	if r.sum.Bytes == 0 {
		t.Error("no bytes counted")
	}
}

func TestNoDedup(t *testing.T) {
	s := newSite(t)
	s.serve("/i.xml", "", index(s.URL+"/a.xml", s.URL+"/b.xml"))
	s.serve("/a.xml", "", urlset("https://e.com/1", "https://e.com/1"))
	s.serve("/b.xml", "", urlset("https://e.com/1"))
	o := Options{NoDedup: true}
	r := walk(t, s.URL+"/i.xml", o)
	if len(r.urls) != 3 || r.sum.Duplicates != 0 {
		t.Fatalf("NoDedup: %d urls, %d dups", len(r.urls), r.sum.Duplicates)
	}
	r = walk(t, s.URL+"/i.xml", Options{})
	if len(r.urls) != 1 || r.sum.Duplicates != 2 {
		t.Fatalf("dedup: %d urls, %d dups", len(r.urls), r.sum.Duplicates)
	}
}

// Probes: robots.txt names none; /sitemap.xml is a soft 404 (HTML, 200),
// /sitemap_index.xml is the real one; the HTML page is neither read nor
// reported as a problem, and probing stops at the first hit.
func TestProbeSoft404(t *testing.T) {
	s := newSite(t)
	s.serve("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow:\n"))
	s.serve("/sitemap.xml", "text/html", []byte("<!DOCTYPE html><html><head><title>Not found</title></head><body><a href=\"/\">home</a></body></html>"))
	s.serve("/sitemap_index.xml", "application/xml", index(s.URL+"/post-sitemap.xml"))
	s.serve("/post-sitemap.xml", "application/xml", urlset("https://e.com/p1"))
	s.serve("/sitemap-index.xml", "application/xml", urlset("https://e.com/never"))
	s.serve("/sitemap_news.xml", "application/xml", urlset("https://e.com/news1"))
	r := walk(t, s.URL, fastOpts())
	got := r.locs()
	slices.Sort(got)
	if !slices.Equal(got, []string{"https://e.com/news1", "https://e.com/p1"}) {
		t.Fatalf("urls = %v", got)
	}
	if _, ok := r.node(s.URL + "/sitemap.xml"); ok {
		t.Error("the soft-404 probe became a node")
	}
	if s.hitCount("/sitemap-index.xml") != 0 {
		t.Error("probing went on after the first hit")
	}
	if r.sum.Errors != 0 || r.sum.Failed != 0 {
		t.Errorf("a missed probe was reported as a problem: %+v", r.sum)
	}
	idx, _ := r.node(s.URL + "/sitemap_index.xml")
	if !idx.Probe || idx.Parent != 1 {
		t.Errorf("probe node = %+v", idx)
	}
}

func TestKnownPaths(t *testing.T) {
	s := newSite(t)
	s.serve("/robots.txt", "text/plain", []byte("Sitemap: "+"/listed.xml\n"))
	s.serve("/listed.xml", "", urlset("https://e.com/listed"))
	s.serve("/sitemap.xml", "", urlset("https://e.com/probed"))
	for _, tc := range []struct {
		mode KnownPaths
		want []string
	}{
		{KnownPathsFallback, []string{"https://e.com/listed"}},
		{KnownPathsAlways, []string{"https://e.com/listed", "https://e.com/probed"}},
		{KnownPathsNever, []string{"https://e.com/listed"}},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			r := walk(t, s.URL+"/robots.txt", Options{KnownPaths: tc.mode})
			got := r.locs()
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("urls = %v, want %v", got, tc.want)
			}
		})
	}
	if k, err := ParseKnownPaths("always"); err != nil || k != KnownPathsAlways {
		t.Error("ParseKnownPaths(always)")
	}
	if _, err := ParseKnownPaths("sometimes"); err == nil {
		t.Error("ParseKnownPaths accepted sometimes")
	}
}

// Nothing anywhere: FETCH-NONE, an error.
func TestNothingFound(t *testing.T) {
	s := newSite(t)
	r := walk(t, s.URL+"/", fastOpts())
	d := r.diag("FETCH-NONE")
	if d == nil || d.Severity != sitemap.SeverityError {
		t.Fatalf("no FETCH-NONE error: %v", r.diags)
	}
	if r.diag("FETCH-ROBOTS") == nil {
		t.Error("404 robots.txt not noted")
	}
	r = walk(t, s.URL+"/", Options{KnownPaths: KnownPathsNever})
	if d := r.diag("FETCH-NONE"); d == nil || !strings.Contains(d.Message, "off") {
		t.Errorf("never: %v", r.diags)
	}
}

// robots.txt 5xx: unreachable, a warning; probing goes on (RB-12).
func TestRobotsUnreachable(t *testing.T) {
	s := newSite(t)
	s.handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	s.serve("/sitemap.xml", "", urlset("https://e.com/1"))
	o := fastOpts()
	o.Attempts = 2
	r := walk(t, s.URL, o)
	if d := r.diag("FETCH-ROBOTS"); d == nil || d.Severity != sitemap.SeverityWarning || !strings.Contains(d.Message, "503") {
		t.Fatalf("diags %v", r.diags)
	}
	if !slices.Equal(r.locs(), []string{"https://e.com/1"}) {
		t.Fatalf("urls %v", r.locs())
	}
	if s.hitCount("/robots.txt") != 2 {
		t.Errorf("robots.txt tried %d times, want 2", s.hitCount("/robots.txt"))
	}
}

// Relative Sitemap: lines are resolved against robots.txt with an RB-12
// warning; a UTF-16 robots.txt is read (RB-02 warning).
func TestRobotsRelativeAndUTF16(t *testing.T) {
	s := newSite(t)
	s.serve("/robots.txt", "text/plain", []byte("User-agent: *\nSitemap: /rel.xml\n"))
	s.serve("/rel.xml", "", urlset("https://e.com/rel"))
	r := walk(t, s.URL, Options{})
	if !slices.Equal(r.locs(), []string{"https://e.com/rel"}) {
		t.Fatalf("urls %v", r.locs())
	}
	if d := r.diag("RB-12"); d == nil || d.Line != 2 || d.URL != s.URL+"/robots.txt" {
		t.Errorf("RB-12 diag = %+v", d)
	}

	s2 := newSite(t)
	text := "User-agent: *\r\nSitemap: " + s2.URL + "/u16.xml\r\n"
	b := []byte{0xFF, 0xFE}
	for _, r := range text {
		b = append(b, byte(r), 0)
	}
	s2.serve("/robots.txt", "text/plain; charset=utf-16", b)
	s2.serve("/u16.xml", "", urlset("https://e.com/u16"))
	r = walk(t, s2.URL+"/robots.txt", Options{})
	if !slices.Equal(r.locs(), []string{"https://e.com/u16"}) {
		t.Fatalf("UTF-16 robots: urls %v, diags %v", r.locs(), r.diags)
	}
	if r.diag("RB-02") == nil {
		t.Errorf("UTF-16 not reported: %v", r.diags)
	}
}

// Loops: A ↔ B, an index listing itself, a child redirecting to its
// parent. Each document is read once and a FETCH-LOOP names both ends.
func TestLoops(t *testing.T) {
	t.Run("A<->B", func(t *testing.T) {
		s := newSite(t)
		s.serve("/a.xml", "", index(s.URL+"/b.xml", s.URL+"/leaf.xml"))
		s.serve("/b.xml", "", index(s.URL+"/a.xml"))
		s.serve("/leaf.xml", "", urlset("https://e.com/leaf"))
		r := walk(t, s.URL+"/a.xml", Options{})
		d := r.diag("FETCH-LOOP")
		if d == nil || !strings.Contains(d.Message, s.URL+"/a.xml") || !strings.Contains(d.Message, s.URL+"/b.xml") {
			t.Fatalf("loop diag = %v", d)
		}
		if s.hitCount("/a.xml") != 1 || s.hitCount("/b.xml") != 1 {
			t.Errorf("hits a=%d b=%d", s.hitCount("/a.xml"), s.hitCount("/b.xml"))
		}
		if !slices.Equal(r.locs(), []string{"https://e.com/leaf"}) {
			t.Errorf("urls %v", r.locs())
		}
		// b.xml is an index listed by an index: I-07.
		if r.diag("I-07") == nil {
			t.Error("nested index not reported (I-07)")
		}
	})
	t.Run("self", func(t *testing.T) {
		s := newSite(t)
		s.serve("/i.xml", "", index(s.URL+"/i.xml", s.URL+"/leaf.xml"))
		s.serve("/leaf.xml", "", urlset("https://e.com/leaf"))
		r := walk(t, s.URL+"/i.xml", Options{})
		if d := r.diag("FETCH-LOOP"); d == nil || !strings.Contains(d.Message, "itself") {
			t.Fatalf("diags %v", r.diags)
		}
		if s.hitCount("/i.xml") != 1 || len(r.urls) != 1 {
			t.Errorf("hits %d urls %v", s.hitCount("/i.xml"), r.locs())
		}
	})
	t.Run("redirect-to-parent", func(t *testing.T) {
		s := newSite(t)
		s.serve("/index.xml", "", index(s.URL+"/child.xml", s.URL+"/ok.xml"))
		s.handle("/child.xml", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/index.xml", http.StatusMovedPermanently)
		})
		s.serve("/ok.xml", "", urlset("https://e.com/ok"))
		r := walk(t, s.URL+"/index.xml", Options{})
		d := r.diag("FETCH-LOOP")
		if d == nil || !strings.Contains(d.Message, s.URL+"/child.xml") || !strings.Contains(d.Message, s.URL+"/index.xml") {
			t.Fatalf("loop diag = %v (all %v)", d, r.diags)
		}
		if s.hitCount("/index.xml") != 2 { // once read, once the end of the redirect (not read)
			t.Logf("index hits %d", s.hitCount("/index.xml"))
		}
		if !slices.Equal(r.locs(), []string{"https://e.com/ok"}) || r.sum.Failed != 0 {
			t.Errorf("urls %v, sum %+v", r.locs(), r.sum)
		}
	})
	t.Run("listed-twice", func(t *testing.T) {
		s := newSite(t)
		s.serve("/i.xml", "", index(s.URL+"/x.xml", s.URL+"/y.xml"))
		s.serve("/x.xml", "", urlset("https://e.com/x"))
		s.serve("/y.xml", "", urlset("https://e.com/y"))
		s.serve("/robots.txt", "", []byte("Sitemap: "+s.URL+"/i.xml\nSitemap: "+s.URL+"/x.xml\n"))
		r := walk(t, s.URL+"/robots.txt", Options{Concurrency: 1})
		if s.hitCount("/x.xml") != 1 {
			t.Errorf("x.xml read %d times", s.hitCount("/x.xml"))
		}
		if r.diag("FETCH-DUP") == nil || r.diag("FETCH-LOOP") != nil {
			t.Errorf("diags %v", r.diags)
		}
	})
}

func TestRedirectLimit(t *testing.T) {
	s := newSite(t)
	for i := range 8 {
		s.handle("/r"+strconv.Itoa(i), func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/r"+strconv.Itoa(i+1), http.StatusFound)
		})
	}
	s.serve("/r8", "", urlset("https://e.com/far"))
	r := walk(t, s.URL+"/r0", fastOpts())
	if d := r.diag("FETCH-HTTP"); d == nil || !strings.Contains(d.Message, "redirects") || r.sum.Failed != 1 {
		t.Fatalf("diags %v sum %+v", r.diags, r.sum)
	}
	r = walk(t, s.URL+"/r4", fastOpts())
	if !slices.Equal(r.locs(), []string{"https://e.com/far"}) {
		t.Fatalf("4 redirects: %v %v", r.locs(), r.diags)
	}
	if n, _ := r.node(s.URL + "/r4"); n.FinalURL != s.URL+"/r8" {
		t.Errorf("final URL %q", n.FinalURL)
	}
}

// Caps: depth, sitemaps, URLs and bytes, each reported once (I-10).
func TestCaps(t *testing.T) {
	s := newSite(t)
	// a chain of nested indexes d1 → d2 → … → d7 → leaf
	for i := 1; i <= 7; i++ {
		s.serve("/d"+strconv.Itoa(i)+".xml", "", index(s.URL+"/d"+strconv.Itoa(i+1)+".xml"))
	}
	s.serve("/d8.xml", "", urlset("https://e.com/deep"))
	var many []string
	for i := range 30 {
		many = append(many, s.URL+"/m"+strconv.Itoa(i)+".xml")
		var locs []string
		for k := range 20 {
			locs = append(locs, "https://e.com/m"+strconv.Itoa(i)+"/"+strconv.Itoa(k))
		}
		s.serve("/m"+strconv.Itoa(i)+".xml", "", urlset(locs...))
	}
	s.serve("/many.xml", "", index(many...))

	t.Run("depth", func(t *testing.T) {
		r := walk(t, s.URL+"/d1.xml", Options{MaxDepth: 3})
		if d := r.diag("FETCH-CAP"); d == nil || !slices.Contains(r.sum.Capped, "depth") {
			t.Fatalf("diags %v", r.diags)
		}
		if r.sum.Sitemaps != 3 || len(r.urls) != 0 {
			t.Errorf("read %d sitemaps, %d urls", r.sum.Sitemaps, len(r.urls))
		}
		if r.sum.Problems["I-07"] != 2 {
			t.Errorf("I-07 count %d", r.sum.Problems["I-07"])
		}
	})
	t.Run("sitemaps", func(t *testing.T) {
		r := walk(t, s.URL+"/many.xml", Options{MaxSitemaps: 5})
		if r.sum.Sitemaps != 5 || r.sum.Problems["FETCH-CAP"] != 1 || !slices.Contains(r.sum.Capped, "sitemaps") {
			t.Fatalf("sum %+v", r.sum)
		}
	})
	t.Run("urls", func(t *testing.T) {
		r := walk(t, s.URL+"/many.xml", Options{MaxURLs: 50})
		if len(r.urls) != 50 || r.sum.URLs != 50 || !slices.Contains(r.sum.Capped, "urls") || r.sum.Problems["FETCH-CAP"] != 1 {
			t.Fatalf("%d urls, sum %+v", len(r.urls), r.sum)
		}
		if r.err != nil {
			t.Errorf("err %v", r.err)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		r := walk(t, s.URL+"/many.xml", Options{MaxBytes: 3000, Concurrency: 1})
		if !slices.Contains(r.sum.Capped, "bytes") || r.sum.Problems["FETCH-CAP"] != 1 || r.sum.URLs >= 600 {
			t.Fatalf("sum %+v", r.sum)
		}
	})
	t.Run("time", func(t *testing.T) {
		s2 := newSite(t)
		s2.handle("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
		o := fastOpts()
		o.IdleTimeout = 10 * time.Second
		o.Timeout = 300 * time.Millisecond
		r := walk(t, s2.URL+"/slow.xml", o)
		if !slices.Contains(r.sum.Capped, "time") || r.err != nil || r.diag("FETCH-HTTP") != nil {
			t.Fatalf("sum %+v err %v diags %v", r.sum, r.err, r.diags)
		}
	})
}

// The callback's error stops the walk and is returned.
func TestCallbackError(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 2000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	stop := errors.New("enough")
	var n atomic.Int64
	_, err := Walk(t.Context(), s.URL+"/s.xml", Options{}, func(ev Event) error {
		if ev.Kind == EventURL && n.Add(1) == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n.Load() != 10 {
		t.Fatalf("err %v after %d URLs", err, n.Load())
	}
	if _, err := Walk(t.Context(), "not a url", Options{}, func(Event) error { return nil }); err == nil {
		t.Fatal("bad start URL accepted")
	}
}

// A probe is a guess: one try, even on 503 (a down host must not cost
// every probe path several backoffs).
func TestProbeSingleAttempt(t *testing.T) {
	s := newSite(t)
	s.handle("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	s.serve("/sitemap_index.xml", "", urlset("https://e.com/1"))
	o := fastOpts()
	o.Attempts = 3
	r := walk(t, s.URL+"/", o)
	if s.hitCount("/sitemap.xml") != 1 || !slices.Equal(r.locs(), []string{"https://e.com/1"}) {
		t.Fatalf("probe tried %d times; urls %v", s.hitCount("/sitemap.xml"), r.locs())
	}
}

// --known-paths always: a probe that misses (503) never hides the same
// URL listed later by an index, which is then read.
func TestProbeMissDoesNotHideListed(t *testing.T) {
	s := newSite(t)
	var n atomic.Int32
	probed := make(chan struct{})
	s.handle("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			close(probed)
			return
		}
		w.Write(urlset("https://e.com/listed"))
	})
	// The index answers only after the probe was answered, so the probe
	// has missed before the index names /sitemap.xml.
	s.handle("/slow-index.xml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-probed:
		case <-time.After(5 * time.Second):
		}
		w.Write(index(s.URL + "/sitemap.xml"))
	})
	s.serve("/robots.txt", "", []byte("Sitemap: "+s.URL+"/slow-index.xml\n"))
	o := fastOpts()
	o.KnownPaths = KnownPathsAlways
	o.Attempts = 1
	o.Concurrency = 4
	r := walk(t, s.URL+"/", o)
	if !slices.Equal(r.locs(), []string{"https://e.com/listed"}) || r.diag("FETCH-DUP") != nil {
		t.Fatalf("urls %v, diags %v", r.locs(), r.diags)
	}
}

// TestStartErr: a start sitemap that cannot be fetched is reported in
// Summary.StartErr (the caller could not run); a child that cannot be
// fetched, or a start that is fetched but broken, is not.
func TestStartErr(t *testing.T) {
	s := newSite(t)
	s.serve("/index.xml", "application/xml", index(s.URL+"/missing.xml"))
	s.serve("/broken.xml", "application/xml", []byte("<urlset"))
	r := walk(t, s.URL+"/missing.xml", fastOpts())
	if KindOf(r.sum.StartErr) != KindNotFound || r.sum.Failed != 1 {
		t.Errorf("404 start: StartErr %v, %d failed", r.sum.StartErr, r.sum.Failed)
	}
	for _, p := range []string{"/index.xml", "/broken.xml"} {
		if r := walk(t, s.URL+p, fastOpts()); r.sum.StartErr != nil || r.sum.Failed != 1 {
			t.Errorf("%s: StartErr %v, %d failed; want no StartErr, one sitemap failed", p, r.sum.StartErr, r.sum.Failed)
		}
	}
}

// TestSiteUnreachable: a homepage or robots.txt start on a site that
// answers nothing (robots.txt and every probe fail without a response)
// is Summary.StartErr, the caller could not run, and not FETCH-NONE, "no
// sitemap found", a problem found about a site that may well have some.
// A site that answers, even with errors, is still FETCH-NONE.
func TestSiteUnreachable(t *testing.T) {
	s := newSite(t)
	gone := s.URL
	s.Close() // connections to its port are refused from now on
	for _, start := range []string{gone + "/", gone + "/robots.txt"} {
		r := walk(t, start, fastOpts())
		if KindOf(r.sum.StartErr) != KindNetwork || r.diag("FETCH-NONE") != nil {
			t.Errorf("%s: StartErr %v, diagnostics %v; want a network StartErr and no FETCH-NONE", start, r.sum.StartErr, r.diags)
		}
	}
	// A start the scope refuses (a loopback address with NoPrivate) is
	// not requested at all: StartErr too.
	sc := newSite(t)
	o := fastOpts()
	o.Scope = Scope{NoPrivate: true}
	if r := walk(t, sc.URL+"/", o); KindOf(r.sum.StartErr) != KindScope || r.diag("FETCH-NONE") != nil {
		t.Errorf("start out of scope: StartErr %v, diagnostics %v; want a scope StartErr and no FETCH-NONE", r.sum.StartErr, r.diags)
	}
	up := newSite(t)
	up.handle("/", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	if r := walk(t, up.URL+"/", fastOpts()); r.sum.StartErr != nil || r.diag("FETCH-NONE") == nil {
		t.Errorf("a site answering 503: StartErr %v, diagnostics %v; want FETCH-NONE", r.sum.StartErr, r.diags)
	}
}

// TestDiscover: with Options.Discover the walk finds a site's sitemaps and
// reads none: the ones robots.txt names are not requested, a well-known
// path is read only until it proves to be a sitemap, and no URL or child
// comes out.
func TestDiscover(t *testing.T) {
	s := newSite(t)
	u := s.URL
	s.serve("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow:\n\nSitemap: "+u+"/sitemap_index.xml\nSitemap: "+u+"/news.xml\n"))
	s.serve("/sitemap_index.xml", "application/xml", index(u+"/a.xml"))
	s.serve("/a.xml", "application/xml", urlset("https://www.example.com/1"))
	r := walk(t, u+"/", Options{Discover: true})
	if r.err != nil {
		t.Fatal(r.err)
	}
	var found []string
	for _, n := range r.nodes {
		if n.Kind == NodeSitemap {
			found = append(found, n.URL)
		}
	}
	slices.Sort(found)
	if want := []string{u + "/news.xml", u + "/sitemap_index.xml"}; !slices.Equal(found, want) || len(r.urls) != 0 || len(r.diags) != 0 {
		t.Errorf("found %q, %d URLs, diagnostics %v; want %q and nothing else", found, len(r.urls), r.diags, want)
	}
	if s.hitCount("/sitemap_index.xml") != 0 || s.hitCount("/a.xml") != 0 || s.hitCount("/news.xml") != 0 {
		t.Error("a sitemap was requested")
	}

	// No Sitemap line: the known paths, sniffed; the one that answers
	// with a sitemap is found, its children are not read.
	s2 := newSite(t)
	s2.serve("/sitemap_index.xml", "application/xml", index(s2.URL+"/a.xml"))
	r = walk(t, s2.URL+"/", Options{Discover: true})
	found = found[:0]
	for _, n := range r.nodes {
		if n.Kind == NodeSitemap {
			found = append(found, n.FinalURL)
		}
	}
	if want := []string{s2.URL + "/sitemap_index.xml"}; r.err != nil || !slices.Equal(found, want) || len(r.urls) != 0 || s2.hitCount("/a.xml") != 0 {
		t.Errorf("probed: found %q (%v), %d URLs, a.xml requested %d times; want %q", found, r.err, len(r.urls), s2.hitCount("/a.xml"), want)
	}
}
