package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrawlOutputValidates: 'sitemap validate' on what 'sitemap crawl'
// wrote finds nothing, for a site whose pages name hreflang alternates on
// another port of 127.0.0.1 and do not list themselves (it said "error
// H-03 … does not list itself").
func TestCrawlOutputValidates(t *testing.T) {
	other := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<html><body><a href="/en">en</a> <a href="/solo">solo</a></body></html>`)
		case "/en":
			fmt.Fprintf(w, `<html lang="en"><head><link rel="alternate" hreflang="de" href="%s/de"><link rel="alternate" hreflang="fr" href="/fr"></head><body>en</body></html>`, other.URL)
		case "/fr":
			fmt.Fprintf(w, `<html><head><link rel="alternate" hreflang="de" href="%s/de"><link rel="alternate" hreflang="en" href="/en"></head><body>fr</body></html>`, other.URL)
		case "/solo":
			fmt.Fprintf(w, `<html><head><link rel="alternate" hreflang="de" href="%s/de/solo"></head><body>solo</body></html>`, other.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", dir, "--rate", "0"); code != exitOK {
		t.Fatalf("crawl: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if !strings.Contains(string(b), `hreflang="de" href="`+other.URL+`/de"`) {
		t.Errorf("the alternates on the other port were lost:\n%s", b)
	}
	code, out, stderr := runCLI(t, "", "validate", "--base", srv.URL+"/", filepath.Join(dir, "sitemap.xml"))
	if code != exitOK || strings.Contains(out+stderr, "H-0") {
		t.Errorf("validate: exit %d\n%s%s\n%s", code, out, stderr, b)
	}
}
