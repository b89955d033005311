package audit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// plantedSite is a site on 127.0.0.1 with every class of the audit
// planted at a known URL; want is what the audit must find, exactly.
type plantedSite struct {
	srv  *httptest.Server
	want map[string][]string // URL → rule IDs of its findings
	// pdfMethods are the methods /doc.pdf was asked with.
	pdfMethods methods
	// hopMethods are the methods /hop (a redirect's second hop) was asked with.
	hopMethods methods
	// hits are the paths requested, in order.
	hits methods
}

// methods records HTTP methods, safe for concurrent handlers.
type methods struct {
	mu sync.Mutex
	s  string
}

func (m *methods) Add(s string) { m.mu.Lock(); m.s += s; m.mu.Unlock() }

// Reset forgets the requests so far; a handler of an interrupted run may
// still be adding.
func (m *methods) Reset() { m.mu.Lock(); m.s = ""; m.mu.Unlock() }

func (m *methods) String() string { m.mu.Lock(); defer m.mu.Unlock(); return m.s }

func page(body string, head ...string) string {
	return "<!doctype html><html lang=\"en\"><head><title>t</title>" + strings.Join(head, "") + "</head><body>" + body + "</body></html>"
}

func newPlantedSite(t testing.TB) *plantedSite {
	t.Helper()
	ps := &plantedSite{}
	mux := http.NewServeMux()
	now := time.Now().UTC()
	stale := now.AddDate(0, -2, 0).Format(time.DateOnly)
	serverLM := now.AddDate(0, -1, 0).Format(http.TimeFormat)
	html := func(body string, head ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page(body, head...))
		}
	}
	redirect := func(to string, code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, code) }
	}
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }
	}
	linked := []string{"/ok", "/chain", "/old", "/old2", "/missing", "/gone", "/forbidden", "/broken", "/noindex-meta",
		"/noindex-header", "/canon", "/private/page", "/doc.pdf", "/hidden.pdf", "/stale", "/future", "/en", "/de", "/dup", "/closed", "/missing-page"}
	var links strings.Builder
	for _, l := range linked {
		fmt.Fprintf(&links, `<a href="%s">%s</a> `, l, l)
	}
	mux.HandleFunc("/{$}", html(links.String()))
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\n\nSitemap: %s/sitemap.xml\n", ps.srv.URL)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap-a.xml</loc></sitemap><sitemap><loc>%[1]s/sitemap-b.xml</loc></sitemap></sitemapindex>`, ps.srv.URL)
	})
	urlset := func(entries ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var b strings.Builder
			b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, e := range entries {
				loc, lastmod, _ := strings.Cut(e, " ")
				if !strings.HasPrefix(loc, "https://") {
					loc = ps.srv.URL + loc
				}
				b.WriteString("<url><loc>" + loc + "</loc>")
				if lastmod != "" {
					b.WriteString("<lastmod>" + lastmod + "</lastmod>")
				}
				b.WriteString("</url>")
			}
			b.WriteString("</urlset>")
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, b.String())
		}
	}
	mux.HandleFunc("/sitemap-a.xml", urlset("/", "/ok", "/chain", "/old", "/old2", "/missing", "/gone", "/forbidden", "/broken",
		"/noindex-meta", "/noindex-header", "/canon", "/private/page", "/doc.pdf", "/hidden.pdf", "/stale "+stale, "/future 2099-01-01", "/dup"))
	mux.HandleFunc("/sitemap-b.xml", urlset("/en", "/de", "/dup", "https://other.example/x", "/closed", "/orphan"))

	mux.HandleFunc("/ok", html("ok"))
	mux.HandleFunc("/chain", redirect("/hop", http.StatusMovedPermanently))
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		ps.hopMethods.Add(r.Method + " ")
		redirect("/ok", http.StatusFound)(w, r)
	})
	mux.HandleFunc("/old", redirect("/gone", http.StatusMovedPermanently))
	mux.HandleFunc("/old2", redirect("/elsewhere", http.StatusMovedPermanently))
	mux.HandleFunc("/elsewhere", status(http.StatusNotFound))
	mux.HandleFunc("/missing", status(http.StatusNotFound))
	mux.HandleFunc("/gone", status(http.StatusGone))
	mux.HandleFunc("/forbidden", status(http.StatusForbidden))
	mux.HandleFunc("/broken", status(http.StatusInternalServerError))
	mux.HandleFunc("/noindex-meta", html("x", `<meta name="robots" content="noindex, follow">`))
	mux.HandleFunc("/noindex-header", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex")
		html("x")(w, r)
	})
	mux.HandleFunc("/canon", html("x", `<link rel="canonical" href="/ok">`))
	mux.HandleFunc("/private/page", html("secret"))
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, r *http.Request) {
		ps.pdfMethods.Add(r.Method + " ")
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.7")
	})
	mux.HandleFunc("/hidden.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("X-Robots-Tag", "noindex")
		fmt.Fprint(w, "%PDF-1.7")
	})
	mux.HandleFunc("/stale", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", serverLM)
		html("x")(w, r)
	})
	mux.HandleFunc("/future", html("x"))
	mux.HandleFunc("/en", html("en", `<link rel="alternate" hreflang="en" href="/en">`, `<link rel="alternate" hreflang="de" href="/de">`))
	mux.HandleFunc("/de", html("de"))
	mux.HandleFunc("/dup", html("dup"))
	mux.HandleFunc("/closed", func(w http.ResponseWriter, r *http.Request) {
		c, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			c.Close()
		}
	})
	mux.HandleFunc("/orphan", html("nobody links here"))
	mux.HandleFunc("/missing-page", html("linked, not listed"))
	ps.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps.hits.Add(r.URL.Path + " ")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(ps.srv.Close)
	u := ps.srv.URL
	ps.want = map[string][]string{
		u + "/":                   nil,
		u + "/ok":                 nil,
		u + "/chain":              {"AUD-02"},
		u + "/old":                {"AUD-02"},
		u + "/old2":               {"AUD-02"},
		u + "/missing":            {"AUD-03"},
		u + "/gone":               {"AUD-04"},
		u + "/forbidden":          {"AUD-05"},
		u + "/broken":             {"AUD-06"},
		u + "/noindex-meta":       {"AUD-07"},
		u + "/noindex-header":     {"AUD-07"},
		u + "/canon":              {"AUD-08"},
		u + "/private/page":       {"AUD-09"},
		u + "/doc.pdf":            {"AUD-10"},
		u + "/hidden.pdf":         {"AUD-07", "AUD-10"},
		u + "/stale":              {"AUD-11"},
		u + "/future":             {"AUD-12"},
		u + "/en":                 {"AUD-13"},
		u + "/de":                 nil,
		u + "/dup":                {"AUD-14"},
		"https://other.example/x": {"AUD-15"},
		u + "/orphan":             nil,
		u + "/closed":             {"AUD-16"},
	}
	return ps
}

// withCrawl adds what the crawl finds: the orphan and the missing page.
func (ps *plantedSite) withCrawl() map[string][]string {
	w := map[string][]string{}
	for k, v := range ps.want {
		w[k] = v
	}
	w[ps.srv.URL+"/orphan"] = []string{"AUD-18"}
	w[ps.srv.URL+"/missing-page"] = []string{"AUD-17"}
	return w
}
