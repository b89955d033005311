package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestValidateAndParseASite: validate and parse take a site's homepage or
// robots.txt URL as graph, html and diff do: the sitemaps found there
// (robots.txt's Sitemap: lines, else the well-known paths). They read the
// homepage as a sitemap (F-04, exit 1) and robots.txt as a text sitemap
// (T-02 on every line).
func TestValidateAndParseASite(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := srv.URL
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow:\n\nSitemap: " + u + "/sitemap_index.xml\n"))
	})
	mux.HandleFunc("/sitemap_index.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` + u + `/a.xml</loc></sitemap></sitemapindex>
`))
	})
	mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + u + `/p</loc></url></urlset>
`))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>home</p>"))
	})
	for _, start := range []string{u + "/", u, u + "/robots.txt"} {
		code, out, errOut := runCLI(t, "", "validate", start)
		if code != exitOK || out != "" || !strings.Contains(errOut, u+"/a.xml: urlset, 1 URL") || !strings.Contains(errOut, u+"/sitemap_index.xml: sitemapindex, 1 sitemap") {
			t.Errorf("validate %s: exit %d\n%s%s", start, code, out, errOut)
		}
		code, out, errOut = runCLI(t, "", "parse", "--format", "txt", "--follow", start)
		if code != exitOK || out != u+"/p\n" {
			t.Errorf("parse %s: exit %d\n%s%s", start, code, out, errOut)
		}
	}

	// A site with no sitemap: FETCH-NONE, exit 1.
	none := httptest.NewServer(http.NotFoundHandler())
	defer none.Close()
	code, out, errOut := runCLI(t, "", "validate", none.URL+"/")
	if code != exitProblems || !strings.Contains(out+errOut, "error FETCH-NONE: no sitemap found") {
		t.Errorf("validate of a site with no sitemap: exit %d\n%s%s", code, out, errOut)
	}

	// A site where nothing answers: could not run, exit 2.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for _, cmd := range []string{"validate", "parse"} {
		code, out, errOut = runCLI(t, "", cmd, "--timeout", "5s", gone.URL+"/")
		if code != exitUsage || !strings.Contains(errOut, gone.URL+"/: the site did not answer") {
			t.Errorf("%s of a closed port: exit %d\n%s%s", cmd, code, out, errOut)
		}
	}
}

// TestSubmitASite: submit takes a site's homepage as validate and parse do:
// the URLs of the sitemaps found there (it read the homepage as a sitemap:
// F-04, nothing sent, exit 1).
func TestSubmitASite(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := srv.URL
	host := strings.TrimPrefix(u, "http://")
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow:\n\nSitemap: " + u + "/sitemap.xml\n"))
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + u + `/a</loc></url><url><loc>` + u + `/b</loc></url></urlset>
`))
	})
	code, out, errOut := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", host, u+"/")
	if code != exitOK || !strings.Contains(out, `"urlList":["`+u+`/a","`+u+`/b"]`) {
		t.Errorf("submit %s/: exit %d\n%s%s", u, code, out, errOut)
	}
}
