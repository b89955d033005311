package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/rules"
)

const urlsetHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
const urlsetTail = "</urlset>\n"

func urlsetDoc(body string) string { return urlsetHead + body + urlsetTail }

// TestDecodeRules is one table row per rule the decoder reports.
func TestDecodeRules(t *testing.T) {
	type tc struct {
		name   string
		in     string
		items  int
		want   []string // "severity RULE" that must appear
		absent []string // rules that must not appear
		err    error    // expected error (errors.Is); nil = clean EOF
		check  func(t *testing.T, r decodeResult)
	}
	cases := []tc{
		{name: "clean", in: urlsetDoc(`<url><loc>https://e.com/a</loc><lastmod>2024-01-02</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>`), items: 1,
			check: func(t *testing.T, r decodeResult) {
				if len(r.diags) != 0 {
					t.Errorf("diagnostics on a clean file:\n%s", r.dump())
				}
				u := r.items[0].URL
				if u.Loc != "https://e.com/a" || u.ChangeFreq != Daily || *u.Priority != 0.5 || u.LastMod.String() != "2024-01-02" {
					t.Errorf("got %+v", u)
				}
			}},
		{name: "X-02 unknown root", in: `<?xml version="1.0"?><foo><url><loc>https://e.com/</loc></url></foo>`, want: []string{"error X-02"}, err: ErrNotSitemap},
		{name: "X-03 foreign namespace", in: `<urlset xmlns="http://example.com/ns"><url><loc>https://e.com/</loc></url></urlset>`, items: 1, want: []string{"error X-03"}},
		{name: "LG-03 no namespace", in: `<urlset><url><loc>https://e.com/</loc></url></urlset>`, items: 1, want: []string{"warning LG-03"}},
		{name: "LG-03 https near miss", in: `<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9/"><url><loc>https://e.com/</loc></url></urlset>`, items: 1, want: []string{"warning LG-03"}},
		{name: "LG-02 legacy 0.84", in: `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://e.com/</loc></url></urlset>`, items: 1, want: []string{"warning LG-02"}},
		{name: "X-04 url without loc dropped", in: urlsetDoc(`<url><lastmod>2024-01-01</lastmod></url><url><loc>https://e.com/b</loc></url>`), items: 1, want: []string{"error X-04"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/b" {
					t.Errorf("kept %q", r.items[0].URL.Loc)
				}
			}},
		{name: "X-04 empty loc", in: urlsetDoc(`<url><loc>  </loc></url>`), items: 0, want: []string{"error X-04"}},
		{name: "X-11 two locs keep first", in: urlsetDoc(`<url><loc>https://e.com/1</loc><loc>https://e.com/2</loc></url>`), items: 1, want: []string{"error X-11"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/1" {
					t.Errorf("kept %q", r.items[0].URL.Loc)
				}
			}},
		{name: "X-11 duplicate lastmod", in: urlsetDoc(`<url><loc>https://e.com/1</loc><lastmod>2024-01-01</lastmod><lastmod>2025-01-01</lastmod></url>`), items: 1, want: []string{"error X-11"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.LastMod.String() != "2024-01-01" {
					t.Errorf("kept %v", r.items[0].URL.LastMod)
				}
			}},
		{name: "X-06 lastmod before loc", in: urlsetDoc(`<url><lastmod>2024-01-01</lastmod><loc>https://e.com/</loc></url>`), items: 1, want: []string{"error X-06"}},
		{name: "X-06 core after extension", in: urlsetDoc(`<url><loc>https://e.com/</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://e.com/i.jpg</image:loc></image:image><lastmod>2024-01-01</lastmod></url>`), items: 1, want: []string{"error X-06"}},
		{name: "X-06 unknown core child", in: urlsetDoc(`<url><loc>https://e.com/</loc><title>x</title></url>`), items: 1, want: []string{"error X-06"}},
		{name: "I-08 order in index", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><lastmod>2024-01-01</lastmod><loc>https://e.com/s.xml</loc></sitemap></sitemapindex>`, items: 1, want: []string{"error I-08"}},
		{name: "I-07 nested sitemapindex", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://e.com/s.xml</loc></sitemap><sitemapindex><sitemap><loc>https://e.com/t.xml</loc></sitemap></sitemapindex></sitemapindex>`, items: 1, want: []string{"error I-07"}},
		{name: "X-07 empty urlset", in: urlsetDoc(""), items: 0, want: []string{"error X-07"}},
		{name: "I-08 empty index", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></sitemapindex>`, items: 0, want: []string{"error I-08"}},
		{name: "C-01 not in enum", in: urlsetDoc(`<url><loc>https://e.com/</loc><changefreq>sometimes</changefreq></url>`), items: 1, want: []string{"error C-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.ChangeFreq != "" {
					t.Errorf("kept %q", r.items[0].URL.ChangeFreq)
				}
			}},
		{name: "C-04 case mismatch accepted lowercase", in: urlsetDoc(`<url><loc>https://e.com/</loc><changefreq>Daily</changefreq></url>`), items: 1, want: []string{"error C-04"}, absent: []string{"C-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.ChangeFreq != Daily {
					t.Errorf("got %q", r.items[0].URL.ChangeFreq)
				}
			}},
		{name: "P-01 high", in: urlsetDoc(`<url><loc>https://e.com/</loc><priority>high</priority></url><url><loc>https://e.com/2</loc></url>`), items: 2, want: []string{"error P-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Priority != nil {
					t.Error("kept a bad priority")
				}
			}},
		{name: "P-01 exponent is not xsd:decimal", in: urlsetDoc(`<url><loc>https://e.com/</loc><priority>1e-1</priority></url>`), items: 1, want: []string{"error P-01"}},
		{name: "P-01 out of range", in: urlsetDoc(`<url><loc>https://e.com/</loc><priority>1.5</priority></url>`), items: 1, want: []string{"error P-01"}},
		{name: "P-01 decimal forms pass", in: urlsetDoc(`<url><loc>https://e.com/</loc><priority>.5</priority></url><url><loc>https://e.com/2</loc><priority>+1</priority></url><url><loc>https://e.com/3</loc><priority>-0</priority></url>`), items: 3, absent: []string{"P-01"},
			check: func(t *testing.T, r decodeResult) {
				if *r.items[0].URL.Priority != 0.5 || *r.items[1].URL.Priority != 1 || *r.items[2].URL.Priority != 0 {
					t.Error("wrong values")
				}
			}},
		{name: "M-01 bad date, entry kept", in: urlsetDoc(`<url><loc>https://e.com/</loc><lastmod>2005-13-01</lastmod></url>`), items: 1, want: []string{"error M-01"}},
		{name: "M-01 time without zone read as UTC", in: urlsetDoc(`<url><loc>https://e.com/</loc><lastmod>2005-01-01T10:00:00</lastmod></url>`), items: 1, want: []string{"error M-01"},
			check: func(t *testing.T, r decodeResult) {
				if !r.items[0].URL.LastMod.Time.Equal(time.Date(2005, 1, 1, 10, 0, 0, 0, time.UTC)) {
					t.Errorf("got %v", r.items[0].URL.LastMod)
				}
			}},
		{name: "M-04 year month minute precision warn", in: urlsetDoc(`<url><loc>https://e.com/1</loc><lastmod>2005</lastmod></url><url><loc>https://e.com/2</loc><lastmod>2005-01</lastmod></url><url><loc>https://e.com/3</loc><lastmod>2005-01-01T10:00Z</lastmod></url>`), items: 3, want: []string{"warning M-04"}, absent: []string{"M-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.count("M-04") != 3 {
					t.Errorf("M-04 count %d", r.count("M-04"))
				}
			}},
		{name: "D-03 large offset", in: urlsetDoc(`<url><loc>https://e.com/</loc><lastmod>2005-01-01T10:00:00+15:00</lastmod></url>`), items: 1, want: []string{"warning D-03"}},
		{name: "X-12 untrimmed loc warning, changefreq error", in: urlsetDoc("<url><loc>\n https://e.com/ \n</loc><changefreq> daily </changefreq><priority> 0.5</priority></url>"), items: 1, want: []string{"warning X-12", "error X-12"},
			check: func(t *testing.T, r decodeResult) {
				u := r.items[0].URL
				if u.Loc != "https://e.com/" || u.ChangeFreq != Daily || *u.Priority != 0.5 {
					t.Errorf("got %+v", u)
				}
			}},
		// A loc with a control character, or one a dropped reference
		// changed, names no URL: the entry is skipped (decode_loc.go).
		{name: "E-03 control character", in: urlsetDoc("<url><loc>https://e.com/\x01</loc></url>"), items: 0, want: []string{"error E-03", "error L-07"}},
		{name: "E-03 bad character reference", in: urlsetDoc("<url><loc>https://e.com/&#1;x</loc></url><url><loc>https://e.com/y</loc></url>"), items: 1, want: []string{"error E-03"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/y" || !strings.Contains(r.dump(), "error E-03: <loc> \"https://e.com/x\" is not the URL written: its character reference &#1; was dropped; entry skipped") {
					t.Errorf("got %q\n%s", r.items[0].URL.Loc, r.dump())
				}
			}},
		// A port or user info where the host belongs is no http(s)://host
		// URL either: skipped like a relative one, in every reader (found
		// by FuzzDecodeXML).
		{name: "L-01, L-07 no host before a port or user info", in: urlsetDoc("<url><loc>https://:</loc></url><url><loc>https://@e.com/</loc></url><url><loc>https://:pw@e.com/</loc></url><url><loc>https://e.com/k</loc></url>"), items: 1, want: []string{"error L-01", "error L-07"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/k" || strings.Count(r.dump(), "entry skipped") != 3 {
					t.Errorf("got %q\n%s", r.items[0].URL.Loc, r.dump())
				}
			}},
		{name: "L-07 index loc without host", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://:443/s.xml</loc></sitemap><sitemap><loc>https://@e.com/s.xml</loc></sitemap></sitemapindex>`, items: 0, want: []string{"error L-01", "error L-07"}},
		{name: "L-07 atom link href without host", in: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://@e.com/a"/></entry><entry><link href="https://e.com/b"/></entry></feed>`, items: 1, want: []string{"error L-07"}},
		{name: "E-01 bare ampersand kept", in: urlsetDoc("<url><loc>https://e.com/?a=1&b=2</loc></url>"), items: 1, want: []string{"error E-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/?a=1&b=2" {
					t.Errorf("got %q", r.items[0].URL.Loc)
				}
			}},
		{name: "E-02 entities and CDATA", in: urlsetDoc("<url><loc><![CDATA[https://e.com/?a=1&b=2]]></loc></url><url><loc>https://e.com/&#x41;&#66;&lt;&gt;&apos;&quot;&amp;</loc></url>"), items: 2, absent: []string{"E-01", "XML-03"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/?a=1&b=2" || r.items[1].URL.Loc != `https://e.com/AB<>'"&` {
					t.Errorf("got %q %q", r.items[0].URL.Loc, r.items[1].URL.Loc)
				}
			}},
		{name: "X-01 invalid UTF-8 replaced", in: urlsetDoc("<url><loc>https://e.com/\xff</loc></url>"), items: 1, want: []string{"error X-01"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/\uFFFD" {
					t.Errorf("got %q", r.items[0].URL.Loc)
				}
			}},
		{name: "EX-03 unknown extension info", in: urlsetDoc(`<url><loc>https://e.com/</loc><ex:tag xmlns:ex="http://example.com/x">v</ex:tag></url>`), items: 1, want: []string{"info EX-03"}},
		{name: "EX-04 near-miss extension namespace", in: urlsetDoc(`<url><loc>https://e.com/</loc><image:image xmlns:image="https://www.google.com/schemas/sitemap-image/1.1/"><image:loc>https://e.com/i.jpg</image:loc></image:image></url>`), items: 1, want: []string{"warning EX-04"},
			check: func(t *testing.T, r decodeResult) {
				if len(r.items[0].URL.Images) != 1 || r.items[0].URL.Images[0].Loc != "https://e.com/i.jpg" {
					t.Errorf("image not read: %+v", r.items[0].URL)
				}
			}},
		{name: "EX-04 undeclared image prefix", in: urlsetDoc(`<url><loc>https://e.com/</loc><image:image><image:loc>https://e.com/i.jpg</image:loc></image:image></url>`), items: 1, want: []string{"error EX-04"},
			check: func(t *testing.T, r decodeResult) {
				if len(r.items[0].URL.Images) != 1 {
					t.Error("image not read")
				}
			}},
		{name: "IM-03 deprecated image tags warn", in: urlsetDoc(`<url><loc>https://e.com/</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://e.com/i.jpg</image:loc><image:caption>c</image:caption></image:image></url>`), items: 1, want: []string{"warning IM-03"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Images[0].Caption != "c" {
					t.Error("caption not read")
				}
			}},
		{name: "V-02 deprecated video tags, V-03 order", in: urlsetDoc(`<url><loc>https://e.com/</loc><video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc>https://e.com/p</video:player_loc><video:live>no</video:live><video:category>c</video:category></video:video></url>`), items: 1, want: []string{"warning V-02", "error V-03"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Videos[0].Category != "c" {
					t.Error("category not read")
				}
			}},
		{name: "LG-04 mobile skipped, PageMap skipped", in: urlsetDoc(`<url><loc>https://e.com/</loc><mobile:mobile xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"/><PageMap xmlns="http://www.google.com/schemas/sitemap-pagemap/1.0"><DataObject type="d"><Attribute name="n">v</Attribute></DataObject></PageMap></url>`), items: 1, want: []string{"info LG-04"}, absent: []string{"EX-03", "X-06"}},
		{name: "XML-02 doctype ignored", in: `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY x "y">]>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/&x;</loc></url><url><loc>https://e.com/z</loc></url></urlset>`, items: 1, want: []string{"warning XML-02", "error XML-03"},
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/z" {
					t.Errorf("entity expanded? %q", r.items[0].URL.Loc)
				}
			}},
		{name: "XML-01 mismatched end tag recovered", in: urlsetDoc(`<url><loc>https://e.com/1</loc></uurl><url><loc>https://e.com/2</loc></url>`), items: 2, want: []string{"error XML-01"}},
		{name: "truncated: entries before cut, then error", in: urlsetHead + `<url><loc>https://e.com/1</loc></url><url><loc>https://e.com/2</loc></url><url><loc>https://e.com/3`, items: 2, want: []string{"error XML-01"}, err: ErrTruncated},
		{name: "truncated mid tag", in: urlsetHead + `<url><loc>https://e.com/1</loc></url><url><lo`, items: 1, err: ErrTruncated},
		{name: "X-09 leading white space and BOM", in: "\xEF\xBB\xBF\n\n" + urlsetDoc(`<url><loc>https://e.com/</loc></url>`), items: 1, want: []string{"warning X-09"}},
		{name: "F-04 html page", in: "<!DOCTYPE html>\n<html><head><title>404</title></head><body>Not found</body></html>", want: []string{"error F-04"}, err: ErrNotSitemap,
			check: func(t *testing.T, r decodeResult) {
				if r.format != FormatHTML || !strings.Contains(r.diags[0].Message, "HTML page") {
					t.Errorf("format %v: %s", r.format, r.dump())
				}
			}},
		{name: "F-04 html without doctype", in: "<html><body><p>hi</p></body></html>", want: []string{"error F-04"}, err: ErrNotSitemap},
		{name: "F-04 empty input", in: "", want: []string{"error F-04"}, err: ErrNotSitemap},
		{name: "F-04 binary", in: "\x00\x01\x02\x03PK\x03\x04", want: []string{"error F-04"}, err: ErrNotSitemap},
		{name: "F-04 JSONL entry records", in: "\n{\"loc\":\"https://e.com/\"}\n{\"loc\":\"https://e.com/a\"}\n", want: []string{"error F-04"}, absent: []string{"T-02"}, err: ErrNotSitemap,
			check: func(t *testing.T, r decodeResult) {
				if len(r.diags) != 1 || r.diags[0].Line != 2 || !strings.Contains(r.diags[0].Message, "JSONL entry records") {
					t.Errorf("want one F-04 at line 2 naming JSONL: %s", r.dump())
				}
			}},
		{name: "index entries", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://e.com/a.xml</loc><lastmod>2024-01-01</lastmod></sitemap><sitemap><loc>https://e.com/b.xml</loc></sitemap></sitemapindex>`, items: 2,
			check: func(t *testing.T, r decodeResult) {
				if r.format != FormatIndex || r.items[0].Kind != ItemIndex || r.items[0].Index.Loc != "https://e.com/a.xml" || r.items[0].Index.LastMod.String() != "2024-01-01" {
					t.Errorf("got %+v", r.items[0])
				}
			}},
		{name: "url inside index is I-02", in: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/</loc></url><sitemap><loc>https://e.com/a.xml</loc></sitemap></sitemapindex>`, items: 1, want: []string{"error I-02"}},
		{name: "prefixed core namespace", in: `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://e.com/</s:loc></s:url></s:urlset>`, items: 1, absent: []string{"X-03", "LG-03"}},
		{name: "self-closing and comments between", in: urlsetDoc(`<!-- c --><url><!-- c --><loc>https://e.com/<!-- split -->a</loc><lastmod/></url>`), items: 1,
			check: func(t *testing.T, r decodeResult) {
				if r.items[0].URL.Loc != "https://e.com/a" {
					t.Errorf("got %q", r.items[0].URL.Loc)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := decodeAll(t, []byte(c.in), DecoderOptions{Name: "t.xml"})
			if len(r.items) != c.items {
				t.Errorf("items = %d, want %d\n%s", len(r.items), c.items, r.dump())
			}
			got := strings.Join(r.rules(), ",")
			for _, w := range c.want {
				if !strings.Contains(","+got+",", ","+w+",") {
					t.Errorf("missing %q in [%s]\n%s", w, got, r.dump())
				}
			}
			for _, a := range c.absent {
				if r.has(rules.ID(a)) {
					t.Errorf("unexpected %s:\n%s", a, r.dump())
				}
			}
			switch {
			case c.err == nil && r.err != nil:
				t.Errorf("err = %v, want clean EOF", r.err)
			case c.err != nil && !errors.Is(r.err, c.err):
				t.Errorf("err = %v, want %v", r.err, c.err)
			}
			for _, d := range r.diags {
				if d.Rule == "" || d.Line <= 0 || d.File != "t.xml" {
					t.Errorf("diagnostic without rule/line/file: %+v", d)
				}
			}
			if c.check != nil && len(r.items) == c.items {
				c.check(t, r)
			}
		})
	}
}

// TestDecodePositions checks Line and Col of entries and diagnostics.
func TestDecodePositions(t *testing.T) {
	in := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <url>\n    <loc>https://e.com/</loc>\n    <priority>2</priority>\n  </url>\n<url><loc>https://e.com/2</loc></url></urlset>"
	r := decodeAll(t, []byte(in), DecoderOptions{Name: "p.xml"})
	if len(r.items) != 2 {
		t.Fatalf("items %d", len(r.items))
	}
	if it := r.items[0]; it.Line != 2 || it.Col != 3 {
		t.Errorf("entry 1 at %d:%d, want 2:3", it.Line, it.Col)
	}
	if it := r.items[1]; it.Line != 6 || it.Col != 1 {
		t.Errorf("entry 2 at %d:%d, want 6:1", it.Line, it.Col)
	}
	// The URL's own place: its <loc> tag (what validate reports a bad or
	// duplicate URL at), in the fast path and the general one.
	for _, noFast := range []bool{false, true} {
		r := runDecoder([]byte(in), DecoderOptions{Name: "p.xml"}, noFast, nil)
		if it := r.items[0]; it.LocLine != 3 || it.LocCol != 5 {
			t.Errorf("noFast %v: entry 1's <loc> at %d:%d, want 3:5", noFast, it.LocLine, it.LocCol)
		}
		if it := r.items[1]; it.LocLine != 6 || it.LocCol != 6 {
			t.Errorf("noFast %v: entry 2's <loc> at %d:%d, want 6:6", noFast, it.LocLine, it.LocCol)
		}
	}
	// An index entry's <loc>; a URL given as bare text in <url> has no
	// <loc>, and LocPos falls back to the entry.
	idx := "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<sitemap>\n <lastmod>2024-01-01</lastmod><loc>https://e.com/s.xml</loc></sitemap></sitemapindex>"
	if r := decodeAll(t, []byte(idx), DecoderOptions{}); len(r.items) != 1 || r.items[0].LocLine != 3 || r.items[0].LocCol != 31 {
		t.Errorf("index entry: %+v", r.items)
	}
	bare := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url>https://e.com/</url></urlset>"
	if r := decodeAll(t, []byte(bare), DecoderOptions{}); len(r.items) != 1 || r.items[0].LocLine != 0 {
		t.Errorf("bare URL: %+v", r.items)
	} else if l, c := r.items[0].LocPos(); l != 2 || c != 1 {
		t.Errorf("bare URL: LocPos %d:%d, want the entry's 2:1", l, c)
	}
	if len(r.diags) != 1 || r.diags[0].Rule != "P-01" || r.diags[0].Line != 4 || r.diags[0].Col != 5 {
		t.Errorf("diagnostics: %s", r.dump())
	}
	if got := r.diags[0].String(); !strings.HasPrefix(got, "p.xml:4:5: error P-01: ") {
		t.Errorf("String() = %q", got)
	}
}

// TestDecodeText covers text sitemaps (T-01 to T-08).
func TestDecodeText(t *testing.T) {
	in := "\xEF\xBB\xBFhttps://e.com/a?x=1&amp;y=2\r\n\n  https://e.com/b  \nnot a url\nftp://e.com/c\nhttps://e.com/d"
	r := decodeAll(t, []byte(in), DecoderOptions{Name: "u.txt"})
	if r.err != nil || r.format != FormatText {
		t.Fatalf("err %v format %v", r.err, r.format)
	}
	var locs []string
	for _, it := range r.items {
		locs = append(locs, it.URL.Loc)
	}
	want := []string{"https://e.com/a?x=1&amp;y=2", "https://e.com/b", "https://e.com/d"}
	if !reflect.DeepEqual(locs, want) {
		t.Errorf("locs %q, want %q (no XML unescaping in text)", locs, want)
	}
	if it := r.items[1]; it.Line != 3 || it.Col != 3 || it.LocLine != 3 || it.LocCol != 3 {
		t.Errorf("position %d:%d, URL at %d:%d", it.Line, it.Col, it.LocLine, it.LocCol)
	}
	if r.count("T-08") != 1 || r.count("T-02") != 2 {
		t.Errorf("diags:\n%s", r.dump())
	}
	for _, d := range r.diags {
		if d.Rule == "T-02" && d.Line != 4 && d.Line != 5 {
			t.Errorf("T-02 on line %d", d.Line)
		}
	}
}

func gzipOnce(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestDecodeGzip: F-02/F-04, gzip by magic bytes, whatever the name.
func TestDecodeGzip(t *testing.T) {
	plain := urlsetDoc(`<url><loc>https://e.com/1</loc></url><url><loc>https://e.com/2</loc></url>`)
	gz := gzipOnce(t, []byte(plain))
	r := decodeAll(t, gz, DecoderOptions{Name: "sitemap.xml"}) // no .gz in the name
	if r.err != nil || len(r.items) != 2 {
		t.Fatalf("gzip: %v %d", r.err, len(r.items))
	}
	r = decodeAll(t, []byte(plain), DecoderOptions{Name: "sitemap.xml.gz"}) // .gz name on plain XML
	if r.err != nil || len(r.items) != 2 {
		t.Fatalf("plain named .gz: %v %d", r.err, len(r.items))
	}
	// Multi-member gzip (concatenated streams) is one document.
	half := len(plain) / 2
	multi := append(gzipOnce(t, []byte(plain[:half])), gzipOnce(t, []byte(plain[half:]))...)
	r = decodeAll(t, multi, DecoderOptions{})
	if r.err != nil || len(r.items) != 2 {
		t.Fatalf("multi-member: %v %d", r.err, len(r.items))
	}
	// Gzip text sitemap.
	r = decodeAll(t, gzipOnce(t, []byte("https://e.com/x\n")), DecoderOptions{})
	if r.format != FormatText || len(r.items) != 1 {
		t.Fatalf("gzip text: %v %d", r.format, len(r.items))
	}
}

// TestDecodeCharsets: X-01 and declared encodings, UTF-16 by BOM.
func TestDecodeCharsets(t *testing.T) {
	latin := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/caf\xe9</loc><image:image xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"><image:loc>https://e.com/i.jpg</image:loc><image:title>na\xefve</image:title></image:image></url></urlset>"
	r := decodeAll(t, []byte(latin), DecoderOptions{})
	if r.err != nil || len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/café" || r.items[0].URL.Images[0].Title != "naïve" {
		t.Fatalf("latin-1: %v %+v\n%s", r.err, r.items, r.dump())
	}
	if !r.has("X-01") {
		t.Error("no X-01 for a non-UTF-8 declaration")
	}
	win := "<?xml version=\"1.0\" encoding=\"windows-1252\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/\x80</loc></url></urlset>"
	r = decodeAll(t, []byte(win), DecoderOptions{})
	if len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/€" {
		t.Fatalf("windows-1252: %+v", r.items)
	}
	// UTF-16LE with BOM.
	src := urlsetDoc(`<url><loc>https://e.com/ü</loc></url>`)
	var u16 []byte
	u16 = append(u16, 0xFF, 0xFE)
	for _, r := range src {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	r = decodeAll(t, u16, DecoderOptions{})
	if r.err != nil || len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/ü" || !r.has("X-01") {
		t.Fatalf("utf-16: %v %+v\n%s", r.err, r.items, r.dump())
	}
	// UTF-16BE text sitemap with BOM.
	txt := "https://e.com/a\n"
	var be []byte
	be = append(be, 0xFE, 0xFF)
	for _, r := range txt {
		be = append(be, byte(r>>8), byte(r))
	}
	r = decodeAll(t, be, DecoderOptions{})
	if len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/a" {
		t.Fatalf("utf-16be text: %+v\n%s", r.items, r.dump())
	}
	// Unknown encoding: read as UTF-8 with an X-01 error.
	r = decodeAll(t, []byte(`<?xml version="1.0" encoding="x-klingon"?>`+urlsetDoc(`<url><loc>https://e.com/</loc></url>`)[len(`<?xml version="1.0" encoding="UTF-8"?>`):]), DecoderOptions{})
	if len(r.items) != 1 || !r.has("X-01") {
		t.Fatalf("unknown encoding: %+v\n%s", r.items, r.dump())
	}
}

// TestDecodeRSS covers.
func TestDecodeRSS(t *testing.T) {
	in := `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>t</title><link>https://e.com/</link>
<atom:link href="https://e.com/feed" rel="self"/>
<item><title>a</title><link>https://e.com/a</link><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
<item><title>b</title><guid>https://e.com/b</guid><pubDate>2 Jan 06 15:04 EST</pubDate></item>
<item><title>c</title><guid isPermaLink="false">tag:e.com,2006:c</guid></item>
<item><link>/rel/d</link><pubDate>Tue, 03 Jan 2006 10:00:00 +0200</pubDate></item>
<item><link>https://e.com/e</link><pubDate>yesterday</pubDate></item>
</channel></rss>`
	r := decodeAll(t, []byte(in), DecoderOptions{BaseURL: "https://e.com/feed.xml"})
	if r.err != nil || r.format != FormatRSS {
		t.Fatalf("err %v format %v", r.err, r.format)
	}
	var got []string
	for _, it := range r.items {
		got = append(got, it.URL.Loc+" "+it.URL.LastMod.String())
	}
	want := []string{
		"https://e.com/a 2006-01-02T15:04:05Z",
		"https://e.com/b 2006-01-02T15:04-05:00",
		"https://e.com/rel/d 2006-01-03T10:00:00+02:00",
		"https://e.com/e ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if !r.has("R-05") || !r.has("R-02") {
		t.Errorf("diags:\n%s", r.dump())
	}
	// Without a base URL the relative link is an R-05 error, item skipped.
	r = decodeAll(t, []byte(in), DecoderOptions{})
	if len(r.items) != 3 {
		t.Errorf("items without base: %d", len(r.items))
	}
}

// TestDecodeAtom covers R-03 and R-05 (xml:base, rel choice, 0.3).
func TestDecodeAtom(t *testing.T) {
	in := `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://e.com/blog/">
<link href="https://e.com/" rel="self"/>
<entry><link rel="edit" href="edit/1"/><link rel="alternate" href="posts/1"/><updated>2024-01-02T03:04:05Z</updated><published>2020-01-01T00:00:00Z</published></entry>
<entry xml:base="/other/"><link href="p2"/><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="x">x</a></div></content></entry>
<entry><link rel="enclosure" href="https://e.com/a.mp3"/></entry>
</feed>`
	r := decodeAll(t, []byte(in), DecoderOptions{})
	if r.err != nil || r.format != FormatAtom || len(r.items) != 2 {
		t.Fatalf("err %v format %v items %d\n%s", r.err, r.format, len(r.items), r.dump())
	}
	if u := r.items[0].URL; u.Loc != "https://e.com/blog/posts/1" || u.LastMod.String() != "2024-01-02T03:04:05Z" {
		t.Errorf("entry 1: %+v", u)
	}
	if u := r.items[1].URL; u.Loc != "https://e.com/other/p2" {
		t.Errorf("entry 2: %+v", u)
	}
	if !r.has("R-03") {
		t.Errorf("no R-03 for the entry without alternate link:\n%s", r.dump())
	}
	atom03 := `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="https://e.com/x"/><modified>2004-05-06T07:08:09Z</modified></entry></feed>`
	r = decodeAll(t, []byte(atom03), DecoderOptions{})
	if len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/x" || r.items[0].URL.LastMod.String() != "2004-05-06T07:08:09Z" {
		t.Errorf("atom 0.3: %+v\n%s", r.items, r.dump())
	}
	// Relative href, no base: R-05 error, entry skipped; BaseURL resolves it.
	rel := `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="/p"/></entry></feed>`
	if r = decodeAll(t, []byte(rel), DecoderOptions{}); len(r.items) != 0 || !r.has("R-05") {
		t.Errorf("relative without base: %+v\n%s", r.items, r.dump())
	}
	if r = decodeAll(t, []byte(rel), DecoderOptions{BaseURL: "https://e.com/feed"}); len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/p" {
		t.Errorf("relative with base: %+v", r.items)
	}
}

func TestDecodeRFC822(t *testing.T) {
	for in, want := range map[string]string{
		"Mon, 02 Jan 2006 15:04:05 GMT":   "2006-01-02T15:04:05Z",
		"Mon, 2 Jan 2006 15:04:05 -0700":  "2006-01-02T15:04:05-07:00",
		"02 Jan 06 15:04:05 PDT":          "2006-01-02T15:04:05-07:00",
		"Sun, 31 Dec 99 23:59 UT":         "1999-12-31T23:59Z",
		"Tuesday, 03 Jan 2006 10:00:00 Z": "2006-01-03T10:00:00Z",
		"Mon, 02 Jan 2006 15:04:05 CEST":  "2006-01-02T15:04:05+02:00",
	} {
		d, ok := parseRFC822(in)
		if !ok || d.String() != want {
			t.Errorf("%q: %v %q, want %q", in, ok, d.String(), want)
		}
	}
	for _, bad := range []string{"", "2006-01-02", "Mon, 31 Feb 2006 10:00:00 GMT", "Mon, 02 Foo 2006 10:00:00 GMT", "02 Jan 2006 25:00 GMT"} {
		if _, ok := parseRFC822(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestDecodeSamples asserts the outcome on every file of testdata/samples.
func TestDecodeSamples(t *testing.T) {
	cases := []struct {
		file   string
		format Format
		items  int
		want   []string
	}{
		{"basic.xml", FormatURLSet, 3, nil},
		{"basic.xml.gz", FormatURLSet, 3, nil},
		{"index.xml", FormatIndex, 2, nil},
		{"ext.xml", FormatURLSet, 1, nil},
		{"bad.xml", FormatURLSet, 0, []string{"X-06", "M-01", "C-01", "P-01", "L-01"}},
		{"badorder.xml", FormatURLSet, 4, []string{"X-06", "M-04", "M-01"}},
		{"ns084.xml", FormatURLSet, 1, []string{"LG-02"}},
		{"empty.xml", FormatURLSet, 0, []string{"X-07"}},
		{"vorder.xml", FormatURLSet, 1, []string{"V-03"}},
		{"novideoloc.xml", FormatURLSet, 1, nil},
		{"unknownns.xml", FormatURLSet, 1, []string{"EX-03"}},
		{"newsold.xml", FormatURLSet, 1, nil}, // pt-br is the validator's N-03
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := decodeFile(t, "testdata/samples/"+c.file)
			if r.err != nil || r.format != c.format || len(r.items) != c.items {
				t.Fatalf("err %v format %v items %d\n%s", r.err, r.format, len(r.items), r.dump())
			}
			for _, w := range c.want {
				if !r.has(rules.ID(w)) {
					t.Errorf("missing %s:\n%s", w, r.dump())
				}
			}
			if c.want == nil && len(r.diags) != 0 {
				t.Errorf("unexpected diagnostics:\n%s", r.dump())
			}
		})
	}
	// basic.xml values, and basic.xml.gz gives the same entries.
	a, b := decodeFile(t, "testdata/samples/basic.xml"), decodeFile(t, "testdata/samples/basic.xml.gz")
	for i := range a.items {
		a.items[i].URL.Source, b.items[i].URL.Source = "", ""
	}
	if !reflect.DeepEqual(a.items, b.items) {
		t.Error("basic.xml.gz differs from basic.xml")
	}
	if u := a.items[1].URL; u.Loc != "https://www.example.com/catalog?item=12&desc=vacation_hawaii" || u.LastMod.String() != "2004-12-23T18:00:15+00:00" {
		t.Errorf("basic entry 2: %+v", u)
	}
	if u := a.items[2].URL; u.LastMod.String() != "2004-12-23T18:00:15.5Z" {
		t.Errorf("basic entry 3: %v", u.LastMod)
	}
	// index.xml entries.
	ix := decodeFile(t, "testdata/samples/index.xml")
	if e := ix.items[0].Index; e.Loc != "https://www.example.com/sitemap1.xml.gz" || e.LastMod.String() != "2004-10-01T18:23:17+00:00" || e.Source != "testdata/samples/index.xml" {
		t.Errorf("index 1: %+v", e)
	}
	if e := ix.items[1].Index; e.Loc != "https://www.example.com/sitemap2.xml.gz" || e.LastMod.String() != "2005-01-01" {
		t.Errorf("index 2: %+v", e)
	}
	// bad.xml: the order error points at <loc> (line 5).
	bad := decodeFile(t, "testdata/samples/bad.xml")
	for _, d := range bad.diags {
		if d.Rule == "X-06" && (d.Line != 5 || d.Col != 5) {
			t.Errorf("X-06 at %d:%d, want 5:5", d.Line, d.Col)
		}
	}
}

// TestDecodeSampleExt: ext.xml reads every extension into the model exactly.
func TestDecodeSampleExt(t *testing.T) {
	r := decodeFile(t, "testdata/samples/ext.xml")
	if len(r.items) != 1 {
		t.Fatal(r.dump())
	}
	mustDate := func(s string) Date {
		d, err := ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	want := URL{
		Loc:     "https://www.example.com/english/page.html",
		LastMod: mustDate("2024-08-15"),
		Images:  []Image{{Loc: "https://example.com/image.jpg"}},
		Videos: []Video{{
			ThumbnailLoc:         "https://www.example.com/thumbs/123.jpg",
			Title:                "Grilling steaks for summer",
			Description:          "Alkis shows you how to get perfectly done steaks every time",
			ContentLoc:           "https://streamserver.example.com/video123.mp4",
			PlayerLoc:            "https://www.example.com/videoplayer.php?video=123",
			Duration:             Int(600),
			ExpirationDate:       mustDate("2021-11-05T19:20:30+08:00"),
			Rating:               Float64(4.2),
			ViewCount:            Int64(12345),
			PublicationDate:      mustDate("2007-11-05T19:20:30+08:00"),
			FamilyFriendly:       Bool(true),
			Restriction:          &Restriction{Relationship: Allow, Countries: "IE GB US CA"},
			RequiresSubscription: Bool(true),
			Uploader:             &Uploader{Name: "GrillyMcGrillerson", Info: "https://www.example.com/users/grillymcgrillerson"},
			Platform:             &Platform{Relationship: Allow, Platforms: "web tv"},
			Live:                 Bool(false),
		}},
		News: &News{
			Publication:     Publication{Name: "The Example Times", Language: "en"},
			PublicationDate: mustDate("2008-12-23"),
			Title:           "Companies A, B in Merger Talks",
		},
		Alternates: []Alternate{
			{Hreflang: "de", Href: "https://www.example.de/deutsch/page.html"},
			{Hreflang: "en", Href: "https://www.example.com/english/page.html"},
			{Hreflang: "x-default", Href: "https://www.example.com/page.html"},
		},
		Source: "testdata/samples/ext.xml",
	}
	got := r.items[0].URL
	// Dates with zones compare by instant and precision; the rest exactly.
	if !got.LastMod.Equal(want.LastMod) || !got.Videos[0].ExpirationDate.Equal(want.Videos[0].ExpirationDate) ||
		!got.Videos[0].PublicationDate.Equal(want.Videos[0].PublicationDate) || !got.News.PublicationDate.Equal(want.News.PublicationDate) {
		t.Errorf("dates differ: %+v", got)
	}
	got.LastMod, want.LastMod = Date{}, Date{}
	got.Videos[0].ExpirationDate, want.Videos[0].ExpirationDate = Date{}, Date{}
	got.Videos[0].PublicationDate, want.Videos[0].PublicationDate = Date{}, Date{}
	got.News.PublicationDate, want.News.PublicationDate = Date{}, Date{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ext.xml:\n got %+v\nwant %+v", got, want)
	}
}

// TestDecodeEntriesAreOwned: returned values do not alias the buffer.
func TestDecodeEntriesAreOwned(t *testing.T) {
	var b strings.Builder
	b.WriteString(urlsetHead)
	for i := 0; i < 3000; i++ {
		b.WriteString("<url><loc>https://e.com/page-")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("</loc></url>\n")
	}
	b.WriteString(urlsetTail)
	r := decodeAll(t, []byte(b.String()), DecoderOptions{})
	if r.err != nil || len(r.items) != 3000 {
		t.Fatalf("%v %d", r.err, len(r.items))
	}
	for i, it := range r.items {
		if want := "https://e.com/page-" + strings.Repeat("x", i%50); it.URL.Loc != want {
			t.Fatalf("item %d = %q, want %q", i, it.URL.Loc, want)
		}
	}
}
