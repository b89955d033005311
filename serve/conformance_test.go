package serve

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/xmllint"
)

// row is one entry of a test table.
type row struct {
	loc     string
	lastmod time.Time
}

// backend makes a Source over a table holding rows, and adds rows to it
// later (insert). Each SQL database and the iterator source is one.
type backend struct {
	name string
	open func(t *testing.T, rows []row) (src Source, insert func(...row))
}

// testRows returns n rows with locs in order and distinct lastmods.
func testRows(n int) []row {
	out := make([]row, n)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range out {
		out[i] = row{loc: fmt.Sprintf("https://www.example.com/p/%04d", i*10), lastmod: base.Add(time.Duration(i) * time.Hour)}
	}
	return out
}

// get requests path of h with the header pairs given.
func get(t *testing.T, h http.Handler, method, path string, hdr ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, "http://www.example.com"+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gunzip(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	locRE     = regexp.MustCompile(`<loc>([^<]*)</loc>`)
	lastmodRE = regexp.MustCompile(`<lastmod>([^<]*)</lastmod>`)
)

func locs(doc string) []string {
	var out []string
	for _, m := range locRE.FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	return out
}

// pages fetches the index of h and every page it lists: page name to its
// locs, in index order.
func pages(t *testing.T, h http.Handler) (names []string, byName map[string][]string) {
	t.Helper()
	res := get(t, h, "GET", "/sitemap.xml")
	if res.StatusCode != 200 {
		t.Fatalf("index: %s", res.Status)
	}
	byName = map[string][]string{}
	for _, l := range locs(body(t, res)) {
		name := l[strings.LastIndexByte(l, '/'):]
		res := get(t, h, "GET", name)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %s", name, res.Status)
		}
		names = append(names, name)
		byName[name] = locs(body(t, res))
	}
	return names, byName
}

// testConformance runs the behaviour every Source must give a Handler.
func testConformance(t *testing.T, b backend) {
	t.Run("pages", func(t *testing.T) {
		rows := testRows(95)
		src, _ := b.open(t, rows)
		h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1})
		if err != nil {
			t.Fatal(err)
		}
		res := get(t, h, "GET", "/sitemap.xml")
		idx := body(t, res)
		if ct := res.Header.Get("Content-Type"); ct != "application/xml; charset=utf-8" {
			t.Errorf("index Content-Type %q", ct)
		}
		xmllint.ValidateBytes(t, []byte(idx), xmllint.SiteIndex)
		pl := locs(idx)
		if len(pl) != 10 {
			t.Fatalf("index lists %d pages, want 10:\n%s", len(pl), idx)
		}
		// The index's lastmod of a page is the newest of its entries.
		mods := lastmodRE.FindAllStringSubmatch(idx, -1)
		if len(mods) != 10 || mods[0][1] != rows[9].lastmod.Format(time.RFC3339) || mods[9][1] != rows[94].lastmod.Format(time.RFC3339) {
			t.Errorf("index lastmods %v, want the newest of each page (%s first)", mods, rows[9].lastmod.Format(time.RFC3339))
		}
		var all []string
		for i, l := range pl {
			if want := fmt.Sprintf("https://www.example.com/sitemap-%d.xml", i+1); l != want {
				t.Errorf("page %d listed as %s, want %s", i, l, want)
			}
			res := get(t, h, "GET", strings.TrimPrefix(l, "https://www.example.com"))
			doc := body(t, res)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
				t.Fatalf("%s: %s %q", l, res.Status, res.Header.Get("Content-Type"))
			}
			if res.Header.Get("ETag") == "" || res.Header.Get("Last-Modified") == "" || res.Header.Get("Cache-Control") == "" {
				t.Errorf("%s: headers %v", l, res.Header)
			}
			xmllint.ValidateBytes(t, []byte(doc), xmllint.Sitemap)
			all = append(all, locs(doc)...)
		}
		var want []string
		for _, r := range rows {
			want = append(want, r.loc)
		}
		if !slices.Equal(all, want) {
			t.Errorf("the pages hold %d locs, the table %d; concatenated:\n%v\nwant\n%v", len(all), len(want), all, want)
		}
		if res := get(t, h, "GET", "/sitemap-11.xml"); res.StatusCode != 404 {
			t.Errorf("page past the end: %s, want 404", res.Status)
		}
		for _, bad := range []string{"/sitemap-0.xml", "/sitemap-01.xml", "/sitemap-.xml", "/sitemap-1.xmlx", "/other.xml"} {
			if res := get(t, h, "GET", bad); res.StatusCode != 404 {
				t.Errorf("%s: %s, want 404", bad, res.Status)
			}
		}
	})
	t.Run("insert moves one boundary", func(t *testing.T) {
		rows := testRows(50)
		src, insert := b.open(t, rows)
		h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1})
		if err != nil {
			t.Fatal(err)
		}
		names, before := pages(t, h)
		if len(names) != 5 {
			t.Fatalf("%d pages, want 5", len(names))
		}
		// Rows inside page 2's range: it overflows and splits.
		later := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		insert(row{"https://www.example.com/p/0101", later}, row{"https://www.example.com/p/0102", later})
		names2, after := pages(t, h)
		if len(names2) != 6 {
			t.Fatalf("after inserting two rows into a full page: %d pages, want 6 (%v)", len(names2), names2)
		}
		changed := 0
		for _, n := range names {
			if !slices.Equal(before[n], after[n]) {
				changed++
			}
		}
		if changed != 1 {
			t.Errorf("%d pages changed, want 1:\nbefore %v\nafter %v", changed, before, after)
		}
		// Page 2 keeps its first ten entries; the two it cannot hold move to
		// a new page.
		if got := after["/sitemap-6.xml"]; !slices.Equal(got, []string{"https://www.example.com/p/0180", "https://www.example.com/p/0190"}) || after["/sitemap-2.xml"][2] != "https://www.example.com/p/0102" {
			t.Errorf("split: page 2 %v, new page 6 %v", after["/sitemap-2.xml"], got)
		}
		// One row at the end goes into the last page only.
		insert(row{"https://www.example.com/q", later})
		_, after2 := pages(t, h)
		for n, l := range after {
			if n != "/sitemap-5.xml" && !slices.Equal(l, after2[n]) {
				t.Errorf("appending at the end changed %s", n)
			}
		}
		if l := after2["/sitemap-5.xml"]; len(l) != 11 && len(after2) != 7 {
			t.Errorf("appended row not in the last page: %v", after2)
		}
	})
	t.Run("http", func(t *testing.T) {
		src, insert := b.open(t, testRows(25))
		h, err := NewHandler(src, Options{Hosts: []string{"www.example.com"}, PerPage: 10, Recheck: -1, XSL: true, Robots: true, RobotsTxt: []byte("User-agent: *\nDisallow: /admin/\n")})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/sitemap.xml", "/sitemap-2.xml"} {
			res := get(t, h, "GET", p)
			doc := body(t, res)
			etag, lm := res.Header.Get("ETag"), res.Header.Get("Last-Modified")
			if !strings.Contains(doc, `<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>`) {
				t.Errorf("%s: no stylesheet: %.200s", p, doc)
			}
			if r2 := get(t, h, "GET", p, "If-None-Match", etag); r2.StatusCode != 304 || body(t, r2) != "" {
				t.Errorf("%s with If-None-Match %s: %s, want 304", p, etag, r2.Status)
			}
			if r2 := get(t, h, "GET", p, "If-Modified-Since", lm); r2.StatusCode != 304 {
				t.Errorf("%s with If-Modified-Since %s: %s, want 304", p, lm, r2.Status)
			}
			if r2 := get(t, h, "GET", p, "If-None-Match", `"other"`, "If-Modified-Since", lm); r2.StatusCode != 200 {
				t.Errorf("%s with a stale ETag: %s, want 200 (If-None-Match wins)", p, r2.Status)
			}
			res = get(t, h, "HEAD", p)
			if res.StatusCode != 200 || body(t, res) != "" || res.Header.Get("ETag") != etag {
				t.Errorf("HEAD %s: %s, ETag %q want %q", p, res.Status, res.Header.Get("ETag"), etag)
			}
			res = get(t, h, "GET", p, "Accept-Encoding", "br;q=1, gzip;q=0.8")
			z := body(t, res)
			if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") || res.Header.Get("ETag") == etag {
				t.Errorf("%s with gzip accepted: headers %v", p, res.Header)
			} else if gunzip(t, z) != doc {
				t.Errorf("%s: gzip body differs from the plain one", p)
			}
			if res := get(t, h, "GET", p, "Accept-Encoding", "gzip;q=0, identity"); res.Header.Get("Content-Encoding") != "" {
				t.Errorf("%s: gzip;q=0 still got %q", p, res.Header.Get("Content-Encoding"))
			}
			res = get(t, h, "GET", p+".gz", "Accept-Encoding", "gzip")
			z = body(t, res)
			if res.Header.Get("Content-Type") != "application/gzip" || res.Header.Get("Content-Encoding") != "" {
				t.Errorf("%s.gz: headers %v; want a gzip file without Content-Encoding", p, res.Header)
			} else if gunzip(t, z) != doc {
				t.Errorf("%s.gz differs from %s", p, p)
			}
		}
		if res := get(t, h, "POST", "/sitemap.xml"); res.StatusCode != 405 || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST: %s %v", res.Status, res.Header)
		}
		res := get(t, h, "GET", "/sitemap.xsl")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/xsl") || !strings.Contains(body(t, res), "xsl:stylesheet") {
			t.Errorf("sitemap.xsl: %s %v", res.Status, res.Header)
		}
		res = get(t, h, "GET", "/robots.txt")
		if rb := body(t, res); !strings.Contains(rb, "Disallow: /admin/") || !strings.Contains(rb, "Sitemap: http://www.example.com/sitemap.xml") {
			t.Errorf("robots.txt:\n%s", rb)
		}
		// A change moves the ETag of the page it touches and the index's.
		etag := func(p string) string { return get(t, h, "HEAD", p).Header.Get("ETag") }
		i1, p1, p3 := etag("/sitemap.xml"), etag("/sitemap-1.xml"), etag("/sitemap-3.xml")
		insert(row{"https://www.example.com/p/0241", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
		if etag("/sitemap.xml") == i1 || etag("/sitemap-3.xml") == p3 || etag("/sitemap-1.xml") != p1 {
			t.Errorf("after a row was added to page 3: the index's and page 3's ETags should change, page 1's not")
		}
	})
	t.Run("html", func(t *testing.T) {
		src, _ := b.open(t, testRows(12))
		view := func(ctx context.Context, w io.Writer, d Document) error {
			fmt.Fprintf(w, "<p>%s</p>", d.Self)
			for _, x := range d.Index {
				fmt.Fprintf(w, "<i>%s</i>", x.Loc)
			}
			if d.URLs != nil {
				return d.URLs(ctx, func(u *sitemap.URL) error { _, err := fmt.Fprintf(w, "<u>%s</u>", u.Loc); return err })
			}
			return nil
		}
		h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, HTML: view})
		if err != nil {
			t.Fatal(err)
		}
		browser := []string{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Sec-Fetch-Dest", "document"}
		res := get(t, h, "GET", "/sitemap-2.xml", browser...)
		if b := body(t, res); res.Header.Get("Content-Type") != "text/html; charset=utf-8" || b != "<p>https://www.example.com/sitemap-2.xml</p><u>https://www.example.com/p/0100</u><u>https://www.example.com/p/0110</u>" {
			t.Errorf("browser on page 2: %v\n%s", res.Header, b)
		}
		res = get(t, h, "GET", "/sitemap.xml", browser...)
		if b := body(t, res); !strings.Contains(b, "<i>https://www.example.com/sitemap-2.xml</i>") {
			t.Errorf("browser on the index: %s", b)
		}
		// A crawler with the same Accept but no navigation marker gets XML.
		res = get(t, h, "GET", "/sitemap.xml", browser[:2]...)
		if ct := res.Header.Get("Content-Type"); ct != "application/xml; charset=utf-8" {
			t.Errorf("crawler got %q", ct)
		}
		if res := get(t, h, "GET", "/sitemap.xml?view=xml", browser...); res.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
			t.Errorf("?view=xml got %q", res.Header.Get("Content-Type"))
		}
		if res := get(t, h, "GET", "/sitemap.xml?view=html"); res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("?view=html got %q", res.Header.Get("Content-Type"))
		}
	})
}

// HTMLView renders the module's view of a page, with links to the pages
// around it and numbers that continue across pages.
func TestHTMLView(t *testing.T) {
	src, _ := sqliteBackend.open(t, testRows(25))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, HTML: HTMLView})
	if err != nil {
		t.Fatal(err)
	}
	res := get(t, h, "GET", "/sitemap-2.xml?view=html")
	b := body(t, res)
	for _, want := range []string{"https://www.example.com/p/0100", "https://www.example.com/sitemap-1.xml", "https://www.example.com/sitemap-3.xml", "<html"} {
		if !strings.Contains(b, want) {
			t.Errorf("view of page 2 lacks %q:\n%s", want, b)
		}
	}
	if b := body(t, get(t, h, "GET", "/sitemap.xml?view=html")); !strings.Contains(b, "https://www.example.com/sitemap-3.xml") {
		t.Errorf("view of the index:\n%s", b)
	}
}
