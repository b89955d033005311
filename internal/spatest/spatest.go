// Package spatest serves a single-page application for the tests and the
// benchmark of rendering (package render, bench/spasite), and its
// server-rendered twin: the same pages, links and verdicts in plain HTML.
//
// Every route answers the same shell (a <div id="root"> and /app.js, which
// may be cached for an hour; the
// canonical is the route's path, written by the server). The script
// fetches /api/page?path=ROUTE (JSON) and renders what it says: the title,
// the body with its links, a noindex or a changed canonical. "/" moves to
// "/home" with history.replaceState, so /home is reached only through
// client-side routing. The routes:
//
//	/, /home        links to /about, /products, /private, /old, /missing,
//	                /admin (disallowed by robots.txt) and, with Pages > 0,
//	                /p/0; a link only in an onclick handler (/secret) and
//	                an image (/logo.png), neither of which a crawler may
//	                request; a script of a third-party host
//	/about          fetches /api/missing.json (404) and logs a console error
//	/products       links to /products/1 and /products/2
//	/products/N     a product; links back to /products
//	/private        the script adds <meta name="robots" content="noindex">
//	/old            the script changes the canonical to /products
//	/missing        renders "Not found" (status 200): a soft 404
//	/p/N            N < Pages: links to /p/2N+1 and /p/2N+2 when they exist
//
// /sitemap.xml lists /, /about, /products, /private, /old and /missing
// (robots.txt does not name it). Any other path answers 404. The twin (Options.Twin) serves each route as
// the HTML the script would have made, with no script.
package spatest

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Options configure a Site.
type Options struct {
	// Pages is the number of generated pages /p/N (0: none).
	Pages int
	// Twin serves the server-rendered twin instead of the application.
	Twin bool
	// Filler is the bytes of text each page carries (default 1,500).
	Filler int
}

// Site is the application's server; an http.Handler.
type Site struct {
	o  Options
	mu sync.Mutex
	// hits counts the requests per path.
	hits map[string]int
}

// New returns a Site.
func New(o Options) *Site {
	if o.Filler <= 0 {
		o.Filler = 1500
	}
	return &Site{o: o, hits: map[string]int{}}
}

// Hits returns how many requests path got.
func (s *Site) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Total returns the requests served, every path.
func (s *Site) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.hits {
		n += v
	}
	return n
}

// Routable is the routes a crawl of the site from "/" can reach, robots.txt
// obeyed (without /admin, which it disallows), sorted.
func (s *Site) Routable() []string {
	out := []string{"/", "/about", "/home", "/missing", "/old"}
	for n := range s.o.Pages {
		out = append(out, "/p/"+strconv.Itoa(n))
	}
	out = append(out, "/private", "/products", "/products/1", "/products/2")
	sort.Strings(out)
	return out
}

// page is what a route renders.
type page struct {
	Title     string `json:"title"`
	HTML      string `json:"html"`
	Noindex   bool   `json:"noindex,omitempty"`
	Canonical string `json:"canonical,omitempty"`
	Fetch     string `json:"fetch,omitempty"` // a URL the script requests
	Error     string `json:"error,omitempty"` // a console error the script logs
}

// route returns what path renders, or false for no route.
func (s *Site) route(path string) (page, bool) {
	filler := "<p>" + strings.Repeat("Words of the page. ", s.o.Filler/19+1) + "</p>"
	switch path {
	case "/", "/home":
		links := `<a href="/about">About</a> <a href="/products">Products</a> <a href="/private">Private</a> <a href="/old">Old</a> <a href="/missing">Missing</a> <a href="/admin">Admin</a>`
		if s.o.Pages > 0 {
			links += ` <a href="/p/0">Pages</a>`
		}
		return page{Title: "Home", HTML: `<nav>` + links + `</nav><main><h1>Home</h1>` + filler +
			`<span onclick="location.href='/secret'">Secret</span><img src="/logo.png" alt=""></main>`}, true
	case "/about":
		return page{Title: "About", HTML: `<main><h1>About</h1>` + filler + `<a href="/">Home</a></main>`, Fetch: "/api/missing.json", Error: "about: no data"}, true
	case "/products":
		return page{Title: "Products", HTML: `<main><h1>Products</h1>` + filler + `<a href="/products/1">One</a> <a href="/products/2">Two</a></main>`}, true
	case "/products/1", "/products/2":
		return page{Title: "Product " + path[len(path)-1:], HTML: `<main><h1>Product</h1>` + filler + `<a href="/products">All products</a></main>`}, true
	case "/private":
		return page{Title: "Private", HTML: `<main><h1>Private</h1>` + filler + `</main>`, Noindex: true}, true
	case "/old":
		return page{Title: "Old products", HTML: `<main><h1>Old</h1>` + filler + `</main>`, Canonical: "/products"}, true
	case "/missing":
		return page{Title: "Not found", HTML: `<main><h1>Not found</h1><p>This page does not exist.</p></main>`}, true
	}
	if rest, ok := strings.CutPrefix(path, "/p/"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || n >= s.o.Pages || strconv.Itoa(n) != rest {
			return page{}, false
		}
		var links strings.Builder
		for _, k := range []int{2*n + 1, 2*n + 2} {
			if k < s.o.Pages {
				fmt.Fprintf(&links, `<a href="/p/%d">Page %d</a> `, k, k)
			}
		}
		return page{Title: "Page " + rest, HTML: `<main><h1>Page ` + rest + `</h1>` + filler + links.String() + `<a href="/">Home</a></main>`}, true
	}
	return page{}, false
}

// app is the application's script: the router.
const app = `(async () => {
	if (location.pathname === '/') history.replaceState(null, '', '/home');
	const path = location.pathname === '/home' ? '/' : location.pathname;
	const r = await fetch('/api/page?path=' + encodeURIComponent(path));
	const p = await r.json();
	document.title = p.title;
	if (p.noindex) {
		const m = document.createElement('meta');
		m.name = 'robots'; m.content = 'noindex';
		document.head.appendChild(m);
	}
	if (p.canonical) document.querySelector('link[rel=canonical]').href = p.canonical;
	if (p.error) console.error(p.error);
	if (p.fetch) { try { await fetch(p.fetch); } catch (e) {} }
	document.getElementById('root').innerHTML = p.html;
	document.addEventListener('click', e => {
		const a = e.target.closest('a');
		if (a && a.origin === location.origin) { e.preventDefault(); history.pushState(null, '', a.href); location.reload(); }
	});
})();`

// ServeHTTP serves the site.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	switch r.URL.Path {
	case "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nDisallow: /admin\n")
		return
	case "/sitemap.xml":
		w.Header().Set("Content-Type", "application/xml")
		base := "http://" + r.Host
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range []string{"/", "/about", "/products", "/private", "/old", "/missing"} {
			fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", base, p)
		}
		fmt.Fprint(w, "</urlset>")
		return
	case "/app.js":
		// Cacheable like a real application's bundle (a hashed file name
		// served for a long time): a browser rendering page after page
		// loads and compiles it once.
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fmt.Fprint(w, app)
		return
	case "/api/page":
		p, ok := s.route(r.URL.Query().Get("path"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(p)
		return
	}
	p, ok := s.route(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	canon := html.EscapeString(r.URL.Path)
	if s.o.Twin {
		head := ""
		if p.Noindex {
			head += `<meta name="robots" content="noindex">`
		}
		if p.Canonical != "" {
			canon = p.Canonical
		}
		fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><title>%s</title><link rel=\"canonical\" href=\"%s\">%s</head><body><div id=\"root\">%s</div></body></html>",
			html.EscapeString(p.Title), canon, head, p.HTML)
		return
	}
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><title>Shop</title><link rel=\"canonical\" href=\"%s\">"+
		"<script src=\"http://tracker.invalid/t.js\" async></script><script src=\"/app.js\" defer></script></head>"+
		"<body><div id=\"root\"></div></body></html>", canon)
}
