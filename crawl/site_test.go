package crawl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// testSite is the synthetic site of the crawl tests, with known answers.
type testSite struct {
	*httptest.Server
	requests atomic.Int64
	sitemaps atomic.Int64 // requests of /sitemap.xml (the seed sitemap)
	mu       sync.Mutex
	busy     map[string]int // /busy: requests so far (429 first)
	version  map[string]string
	chrome   string // site-wide navigation and footer text (setChrome)
}

func newTestSite() *testSite {
	s := &testSite{busy: map[string]int{}, version: map[string]string{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Start()
	return s
}

// setVersion changes the text of a page (a content change without a
// Last-Modified header: the state store decides its lastmod).
func (s *testSite) setVersion(path, v string) {
	s.mu.Lock()
	s.version[path] = v
	s.mu.Unlock()
}

// setChrome changes the navigation and footer of every page (a site-wide
// template change, not a content change: M-05).
func (s *testSite) setChrome(c string) {
	s.mu.Lock()
	s.chrome = c
	s.mu.Unlock()
}

func (s *testSite) page(w http.ResponseWriter, path, head, body string) {
	s.mu.Lock()
	v, chrome := s.version[path], s.chrome
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title>%s</head><body><nav>%s</nav><p>Page %s %s</p>%s<footer>%s</footer></body></html>", path, head, chrome, path, v, body, chrome)
}

func (s *testSite) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	base := s.URL
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: other-bot\nDisallow: /\n\nSitemap: %s/sitemap.xml\n", base)
	case p == "/sitemap.xml":
		s.sitemaps.Add(1)
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/</loc></url><url><loc>%s/from-sitemap</loc></url></urlset>`, base, base)
	case p == "/":
		s.page(w, p, "", `<a href="/a">a</a> <a href="b">b</a> <a href="/missing">404</a>
<a href="/noindex-meta">m</a> <a href="/noindex-header">h</a> <a href="/dup#x">dup</a>
<a href="/private/secret">secret</a> <a href="/old">old</a> <a href="/calendar?month=1">cal</a>
<a href="/en/page">en</a> <a href="/slow">slow</a> <a href="/busy">busy</a> <a href="/img-page">img</a>
<a href="/hidden" rel="nofollow">hidden</a> <a href="/a/b/a/b/a/b/">trap</a>
<a href="https://other.example/x">ext</a> <a href="/file.pdf">pdf</a> <a href="/lastmod">lm</a>
<a href="mailto:x@example.com">mail</a> <a href="/it/page">it</a> <a href="/hdr-canon">hc</a> <a href="/meta-nofollow">mn</a> <a href="/long/`+strings.Repeat("x", 2100)+`">long</a> <a href="/A/../a">same a</a>`)
	case p == "/a", p == "/b", p == "/new", p == "/canon-target", p == "/from-sitemap":
		s.page(w, p, "", `<a href="/">home</a>`)
	case p == "/a/b/a/b/a/b/":
		s.page(w, p, "", "")
	case p == "/noindex-meta":
		s.page(w, p, `<meta name="robots" content="noindex, follow">`, `<a href="/via-noindex">v</a>`)
	case p == "/via-noindex":
		s.page(w, p, "", "")
	case p == "/noindex-header":
		w.Header().Set("X-Robots-Tag", "noindex")
		s.page(w, p, "", "")
	case p == "/meta-nofollow":
		s.page(w, p, `<meta name="robots" content="nofollow">`, `<a href="/behind-nofollow">b</a>`)
	case p == "/hdr-canon":
		w.Header().Set("Link", `<`+base+`/a>; rel="canonical"`)
		s.page(w, p, "", "")
	case p == "/dup":
		s.page(w, p, `<link rel="canonical" href="/canon-target">`, "")
	case p == "/private/secret":
		s.page(w, p, "", "")
	case p == "/old":
		http.Redirect(w, r, "/older", http.StatusMovedPermanently)
	case p == "/older":
		http.Redirect(w, r, "/new", http.StatusMovedPermanently)
	case p == "/calendar":
		n, _ := strconv.Atoi(r.URL.Query().Get("month"))
		s.page(w, p+"?"+r.URL.RawQuery, "", fmt.Sprintf(`<a href="/calendar?month=%d">next</a>`, n+1))
	case p == "/en/page", p == "/de/page", p == "/fr/page":
		alt := fmt.Sprintf(`<link rel="alternate" hreflang="en" href="%[1]s/en/page"><link rel="alternate" hreflang="de" href="%[1]s/de/page"><link rel="alternate" hreflang="x-default" href="%[1]s/en/page">`, base)
		if p == "/en/page" {
			// fr does not link back to en: the pair is not reciprocal (H-04).
			alt += `<link rel="alternate" hreflang="fr" href="/fr/page">`
		}
		if p == "/fr/page" {
			alt = `<link rel="alternate" hreflang="fr" href="/fr/page">`
		}
		s.page(w, p, alt, `<a href="/de/page">de</a> <a href="/fr/page">fr</a>`)
	case p == "/it/page":
		// Does not list itself (H-03); es names it "it".
		s.page(w, p, `<link rel="alternate" hreflang="es" href="/es/page">`, `<a href="/es/page">es</a>`)
	case p == "/es/page":
		s.page(w, p, `<link rel="alternate" hreflang="es" href="/es/page"><link rel="alternate" hreflang="it" href="/it/page">`, "")
	case p == "/slow":
		time.Sleep(300 * time.Millisecond)
		s.page(w, p, "", "")
	case p == "/busy":
		s.mu.Lock()
		s.busy[p]++
		n := s.busy[p]
		s.mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		s.page(w, p, "", "")
	case p == "/img-page":
		s.page(w, p, "", `<img src="/img/a.jpg"><img src="img/b.png"><img src="/img/a.jpg"><img src="./img/a.jpg"><img src="https://cdn.example.net/c.jpg"><img src="https://elsewhere.example/d.jpg"><img src="data:image/png;base64,AAAA"><img src="/private/p.jpg">`)
	case p == "/file.pdf":
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.4"))
	case p == "/lastmod":
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		s.page(w, p, "", "")
	default:
		http.NotFound(w, r)
	}
}

// siteOptions are the options the tests crawl the site with.
func siteOptions() Options {
	return Options{
		Concurrency:      4,
		Rate:             -1,
		MaxDepth:         10,
		MaxQueryVariants: 5,
		ImageHosts:       []string{"cdn.example.net"},
		MaxRetryAfter:    2 * time.Second,
	}
}

func joinLines(ss []string) string { return strings.Join(ss, "\n") }
