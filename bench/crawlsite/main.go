// Command crawlsite serves the synthetic site of bench/crawl.sh on
// 127.0.0.1: -pages HTML pages in a linked graph with the cases a crawler
// must get right, and the list of pages that belong in a sitemap.
//
//	/               home, links to /p/0 and a few others
//	/p/N            a page; links to /p/2N+1 and /p/2N+2 (every page is
//	                reachable), three more pages, a redirect, a 404 and a
//	                robots-disallowed URL; two images; ~2 KB of text
//	                N%50 == 7: <meta name="robots" content="noindex">
//	                N%50 == 17: X-Robots-Tag: noindex
//	                N%40 == 3: rel=canonical names /p/N+1 (a duplicate)
//	/r/N            301 to /p/N
//	/missing/N      404
//	/private/N      disallowed by robots.txt
//	/sitemap.xml    an index of /sitemap-K.xml, each listing 10,000 pages
//	                /p/N (and / in the first), plus /r/N for N%100 == 50
//	                and /missing/N for N%100 == 51 (what bench/audit.sh
//	                audits; robots.txt does not name it, so a crawl is
//	                not seeded with it)
//	/_expected      the URLs a sitemap of the site should list, one a line
//	/_stats         requests served since the last /_reset
//	/_reset         resets the request counter
//
// Usage: crawlsite -pages 2000 -portfile PORTFILE
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

func main() {
	pages := flag.Int("pages", 2000, "number of pages")
	portfile := flag.String("portfile", "", "write the port here once listening")
	flag.Parse()
	s := &site{n: *pages}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	s.base = "http://" + ln.Addr().String()
	if *portfile != "" {
		port := ln.Addr().(*net.TCPAddr).Port
		if err := os.WriteFile(*portfile, []byte(strconv.Itoa(port)), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	log.Fatal(http.Serve(ln, s))
}

type site struct {
	n        int
	base     string
	requests atomic.Int64
}

// perSitemap is how many pages one child of /sitemap.xml lists.
const perSitemap = 10000

func noindexMeta(i int) bool   { return i%50 == 7 }
func noindexHeader(i int) bool { return i%50 == 17 }
func canonicalDup(i int) bool  { return i%40 == 3 }

// expected reports whether /p/i belongs in the sitemap.
func expected(i int) bool { return !noindexMeta(i) && !noindexHeader(i) && !canonicalDup(i) }

const lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. "

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch p {
	case "/_expected":
		fmt.Fprintf(w, "%s/\n", s.base)
		for i := 0; i < s.n; i++ {
			if expected(i) {
				fmt.Fprintf(w, "%s/p/%d\n", s.base, i)
			}
		}
		return
	case "/_stats":
		fmt.Fprintln(w, s.requests.Load())
		return
	case "/_reset":
		s.requests.Store(0)
		return
	}
	s.requests.Add(1)
	switch {
	case p == "/robots.txt":
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	case p == "/":
		s.page(w, -1, "", `<a href="/p/0">start</a> <a href="/p/1">one</a> <a href="/r/2">two</a>`)
	case strings.HasPrefix(p, "/p/"):
		i, err := strconv.Atoi(p[3:])
		if err != nil || i < 0 || i >= s.n || r.URL.RawQuery != "" {
			http.NotFound(w, r)
			return
		}
		head := ""
		if noindexMeta(i) {
			head += `<meta name="robots" content="noindex">`
		}
		if noindexHeader(i) {
			w.Header().Set("X-Robots-Tag", "noindex")
		}
		if canonicalDup(i) {
			head += fmt.Sprintf(`<link rel="canonical" href="%s/p/%d">`, s.base, (i+1)%s.n)
		}
		var b strings.Builder
		for _, j := range []int{2*i + 1, 2*i + 2, (i*7 + 3) % s.n, (i*13 + 5) % s.n, (i + s.n/2) % s.n} {
			if j < s.n {
				fmt.Fprintf(&b, `<a href="/p/%d">page %d</a> `, j, j)
			}
		}
		fmt.Fprintf(&b, `<a href="/r/%d">moved</a> <a href="/missing/%d">gone</a> <a href="/private/%d">private</a> `, (i*11+1)%s.n, i, i)
		fmt.Fprintf(&b, `<img src="/img/%d.jpg" alt=""><img src="/img/%d-b.png" alt="">`, i, i)
		s.page(w, i, head, b.String())
	case p == "/sitemap.xml":
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
		for k := 0; k*perSitemap < s.n; k++ {
			fmt.Fprintf(w, "<sitemap><loc>%s/sitemap-%d.xml</loc></sitemap>\n", s.base, k)
		}
		fmt.Fprint(w, "</sitemapindex>\n")
	case strings.HasPrefix(p, "/sitemap-") && strings.HasSuffix(p, ".xml"):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/sitemap-"), ".xml"))
		if err != nil || k < 0 || k*perSitemap >= s.n {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
		if k == 0 {
			fmt.Fprintf(w, "<url><loc>%s/</loc></url>\n", s.base)
		}
		for i := k * perSitemap; i < min(s.n, (k+1)*perSitemap); i++ {
			fmt.Fprintf(w, "<url><loc>%s/p/%d</loc></url>\n", s.base, i)
			switch i % 100 {
			case 50:
				fmt.Fprintf(w, "<url><loc>%s/r/%d</loc></url>\n", s.base, i)
			case 51:
				fmt.Fprintf(w, "<url><loc>%s/missing/%d</loc></url>\n", s.base, i)
			}
		}
		fmt.Fprint(w, "</urlset>\n")
	case strings.HasPrefix(p, "/r/"):
		http.Redirect(w, r, "/p/"+p[3:], http.StatusMovedPermanently)
	case strings.HasPrefix(p, "/private/"):
		s.page(w, -2, "", "")
	default:
		http.NotFound(w, r)
	}
}

func (s *site) page(w http.ResponseWriter, i int, head, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><html><head><title>Page %d</title>%s</head><body><h1>Page %d</h1>", i, head, i)
	for k := 0; k < 8; k++ {
		fmt.Fprintf(w, "<p>%s</p>", lorem)
	}
	fmt.Fprintf(w, "<nav>%s</nav></body></html>", body)
}
