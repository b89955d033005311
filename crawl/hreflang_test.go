package crawl

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/validate"
)

// hreflangSite is a 127.0.0.1 site whose pages declare hreflang
// alternates in the shapes sites use: alternates on another host (here
// another port), groups whose pages do not list themselves, x-default,
// relative hrefs, a code used twice, an alternate that is no http(s)
// URL, and pages of one group that disagree about a version elsewhere.
func hreflangSite(t *testing.T, other string) *httptest.Server {
	pages := map[string]string{
		"/": `<a href="/xhost">x</a> <a href="/xhost-nolang">x</a> <a href="/xhost-self">x</a>
<a href="/g/en">g</a> <a href="/x/en">x</a> <a href="/r/en">r</a> <a href="/m/en">m</a> <a href="/d/en">d</a>`,
		// Alternates on another port only; no self link; <html lang> says
		// what the page is.
		"/xhost": `<link rel="alternate" hreflang="de" href="` + other + `/de/xhost"><link rel="alternate" hreflang="fr" href="` + other + `/fr/xhost">`,
		// The same without <html lang>: nothing says what the page is.
		"/xhost-nolang": `<link rel="alternate" hreflang="de" href="` + other + `/de/xhost-nolang">`,
		// Lists itself and one alternate on another port.
		"/xhost-self": `<link rel="alternate" hreflang="en" href="/xhost-self"><link rel="alternate" hreflang="es" href="` + other + `/es/xhost-self">`,
		// A group whose pages list each other but not themselves.
		"/g/en": `<link rel="alternate" hreflang="de" href="/g/de"><link rel="alternate" hreflang="fr" href="/g/fr">`,
		"/g/de": `<link rel="alternate" hreflang="en" href="/g/en"><link rel="alternate" hreflang="fr" href="/g/fr">`,
		"/g/fr": `<link rel="alternate" hreflang="en" href="/g/en"><link rel="alternate" hreflang="de" href="/g/de">`,
		// x-default: the English page is the default, and lists itself as
		// such only; the German one names it both ways.
		"/x/en": `<link rel="alternate" hreflang="x-default" href="/x/en"><link rel="alternate" hreflang="de" href="/x/de">`,
		"/x/de": `<link rel="alternate" hreflang="x-default" href="/x/en"><link rel="alternate" hreflang="en" href="/x/en"><link rel="alternate" hreflang="de" href="/x/de">`,
		// Relative hrefs, a repeated code and an alternate that is no URL
		// to request.
		"/r/en": `<link rel="alternate" hreflang="en" href="en"><link rel="alternate" hreflang="de" href="./de"><link rel="alternate" hreflang="de" href="/r/other"><link rel="alternate" hreflang="it" href="mailto:x@example.com">`,
		"/r/de": `<link rel="alternate" hreflang="en" href="../r/en"><link rel="alternate" hreflang="de" href="de">`,
		// Mixed: a same-site group that also names a version on another
		// port, without self links.
		"/m/en": `<link rel="alternate" hreflang="de" href="/m/de"><link rel="alternate" hreflang="ja" href="` + other + `/ja/m">`,
		"/m/de": `<link rel="alternate" hreflang="en" href="/m/en"><link rel="alternate" hreflang="ja" href="` + other + `/ja/m">`,
		// A group whose pages disagree about a version on another port:
		// only one names it, so neither lists it (H-08).
		"/d/en": `<link rel="alternate" hreflang="en" href="/d/en"><link rel="alternate" hreflang="de" href="/d/de"><link rel="alternate" hreflang="ja" href="` + other + `/ja/d">`,
		"/d/de": `<link rel="alternate" hreflang="en" href="/d/en"><link rel="alternate" hreflang="de" href="/d/de">`,
	}
	lang := map[string]string{"/xhost": "en"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		head, links := body, ""
		if r.URL.Path == "/" {
			head, links = "", body
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		l := ""
		if v := lang[r.URL.Path]; v != "" {
			l = ` lang="` + v + `"`
		}
		fmt.Fprintf(w, "<!doctype html><html%s><head><title>%s</title>%s</head><body><p>%s</p>%s</body></html>", l, r.URL.Path, head, r.URL.Path, links)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlHreflangValidates: the crawl of a site with alternates on
// another host and port, groups without self links, x-default and
// relative hrefs is written as a sitemap that package validate finds
// clean (no H-03 "does not list itself", no H-04, no H-08), and every
// page keeps the alternates it can keep.
func TestCrawlHreflangValidates(t *testing.T) {
	other := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(other.Close)
	site := hreflangSite(t, other.URL)
	ctx := context.Background()
	c, _ := crawled(t, site.URL+"/")
	var err error
	var buf bytes.Buffer
	enc := sitemap.NewEncoder(&buf, sitemap.EncoderOptions{Extensions: sitemap.ExtXHTML})
	alts := map[string][]string{}
	err = c.Entries(ctx, func(u *sitemap.URL) error {
		var got []string
		for _, a := range u.Alternates {
			got = append(got, a.Hreflang+"="+strings.NewReplacer(site.URL, "", other.URL, "OTHER").Replace(a.Href))
		}
		slices.Sort(got)
		alts[strings.TrimPrefix(u.Loc, site.URL)] = got
		return enc.Encode(u)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	var diags []string
	sum, err := validate.Document(ctx, bytes.NewReader(buf.Bytes()), validate.Options{Name: "crawl.xml", URL: site.URL + "/sitemap.xml"},
		func(d sitemap.Diagnostic) { diags = append(diags, d.String()) })
	if err != nil || sum.Errors+sum.Warnings != 0 {
		t.Errorf("validate: %v, %d errors, %d warnings:\n%s\n%s", err, sum.Errors, sum.Warnings, strings.Join(diags, "\n"), buf.String())
	}
	want := map[string][]string{
		"/":             nil,
		"/xhost":        {"de=OTHER/de/xhost", "en=/xhost", "fr=OTHER/fr/xhost"},
		"/xhost-nolang": nil,
		"/xhost-self":   {"en=/xhost-self", "es=OTHER/es/xhost-self"},
		"/g/en":         {"de=/g/de", "en=/g/en", "fr=/g/fr"},
		"/g/de":         {"de=/g/de", "en=/g/en", "fr=/g/fr"},
		"/g/fr":         {"de=/g/de", "en=/g/en", "fr=/g/fr"},
		"/x/en":         {"de=/x/de", "en=/x/en", "x-default=/x/en"},
		"/x/de":         {"de=/x/de", "en=/x/en", "x-default=/x/en"},
		"/r/en":         {"de=/r/de", "en=/r/en"},
		"/r/de":         {"de=/r/de", "en=/r/en"},
		"/m/en":         {"de=/m/de", "en=/m/en", "ja=OTHER/ja/m"},
		"/m/de":         {"de=/m/de", "en=/m/en", "ja=OTHER/ja/m"},
		"/d/en":         {"de=/d/de", "en=/d/en"},
		"/d/de":         {"de=/d/de", "en=/d/en"},
	}
	for loc, w := range want {
		if got, ok := alts[loc]; !ok || !slices.Equal(got, w) {
			t.Errorf("%s: alternates %q, want %q", loc, got, w)
		}
	}
}
