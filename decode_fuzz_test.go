package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sitemapkit/sitemap/internal/check"
)

// fuzzCheckDecode decodes data with small caps and checks the invariants every
// input must keep: no panic, an end in bounded steps, entries with a
// usable Loc (decode_loc.go), diagnostics with a Rule and a known Severity, and a
// sticky error.
func fuzzCheckDecode(t *testing.T, data []byte) {
	var diags int
	o := DecoderOptions{
		Name:         "fuzz",
		MaxBytes:     4 << 20,
		MaxEntries:   5000,
		MaxDepth:     32,
		MaxLineBytes: 64 << 10,
		MaxErrors:    64, // LIM-05 reached by inputs with many problems
		OnDiagnostic: func(d Diagnostic) {
			diags++
			if d.Rule == "" || d.Severity > SeverityInfo || d.Message == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
			if d.Line < 0 || d.Col < 0 {
				t.Fatalf("negative position %+v", d)
			}
		},
	}
	dec := NewDecoder(bytes.NewReader(data), o)
	// Every entry consumes input, so len(data)+2 calls always suffice.
	for i := 0; ; i++ {
		if i > len(data)+2 {
			t.Fatalf("decoder did not finish after %d calls on %d bytes", i, len(data))
		}
		it, err := dec.Next()
		if err != nil {
			if err != io.EOF {
				var de *DecodeError
				if !errors.As(err, &de) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("error is not a *DecodeError: %T %v", err, err)
				}
			}
			if _, err2 := dec.Next(); err2 != err {
				t.Fatalf("error not sticky: %v then %v", err, err2)
			}
			return
		}
		loc := it.URL.Loc
		switch it.Kind {
		case ItemURL:
		case ItemIndex:
			loc = it.Index.Loc
		default:
			t.Fatalf("bad kind %+v", it)
		}
		// The one rule of an entry's URL (decode_loc.go): absolute
		// http(s), no control character; never empty.
		if !absHTTP(loc) {
			t.Fatalf("entry whose loc is not an absolute http(s) URL: %+v", it)
		}
		if r, at := check.Control(loc); at >= 0 {
			t.Fatalf("entry whose loc holds %U: %q", r, loc)
		}
	}
}

func decodeFuzzSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
}

func FuzzDecodeXML(f *testing.F) {
	decodeFuzzSeeds(f, "testdata/samples/*.xml", "testdata/corpus/crawler-commons/*.xml", "testdata/corpus/crawler-commons/extension/*.xml",
		"testdata/hostile/*.xml", "testdata/hostile/*.html")
	for _, s := range []string{
		urlsetDoc(`<url><loc>https://e.com/&amp;&#x41;&bogus;&</loc><lastmod>2024-01-01T10:00Z</lastmod><changefreq>Daily</changefreq><priority>1e-1</priority></url>`),
		`<rss version="2.0"><channel><item><link>/a</link><guid>https://e.com/g</guid><pubDate>Mon, 02 Jan 06 15:04 EST</pubDate></item></channel></rss>`,
		`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://e.com/"><entry><link href="x"/><updated>2024-01-01T00:00:00Z</updated></entry></feed>`,
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap>https://e.com/bare</sitemap></sitemapindex>`,
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>https://e.com/\xe9</loc></url></urlset>",
		"<urlset><url><loc>https://e.com/</loc></url></u",
		"<!DOCTYPE x [<!ENTITY a '<'>]><urlset>&a;</urlset>",
		// Locs that name no URL an entry can have (decode_loc.go).
		urlsetDoc("<url><loc>http://h/a&#10;https://evil.example/</loc></url><url><loc>http://h/\x00\x1b\x7f</loc></url><url><loc>/rel</loc></url><url><loc>http://x&lol2;/</loc></url><url><loc>HTTP://h/&#x2028;&#x85;</loc></url><url>http://h/\x1b</url>"),
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>sm-1.xml</loc></sitemap><sitemap><loc>https:///x</loc></sitemap><sitemap><loc>https://h/&#13;</loc></sitemap></sitemapindex>`,
		`<rss version="2.0"><channel><item><link>http://h/&#10;x</link></item><item><link>http://x&lol2;/</link></item><item><guid>http:///g</guid></item></channel></rss>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://h/&#10;x"/></entry><entry><link href="&e;http://x/"/></entry><entry><link href="/r"/></entry></feed>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheckDecode(t, data) })
}

func FuzzDecodeText(f *testing.F) {
	decodeFuzzSeeds(f, "testdata/corpus/crawler-commons/*.txt")
	for _, s := range []string{
		"https://e.com/a\r\n\r\nhttps://e.com/b\n",
		"\xEF\xBB\xBF  https://e.com/a?x=1&y=2  \nnot a url\n",
		"\xFF\xFEh\x00t\x00t\x00p\x00:\x00/\x00/\x00e\x00\n\x00",
		"http://\n",
		"http://h/a\rhttp://evil/\nhttp://h/\x1b[2K\nhttp:///x\nhttp://h/\u0085\u2028\x7f\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheckDecode(t, data) })
}

func FuzzDecodeGzip(f *testing.F) {
	decodeFuzzSeeds(f, "testdata/samples/*.gz", "testdata/corpus/crawler-commons/*.gz", "testdata/hostile/truncated.xml.gz")
	for _, s := range []string{
		urlsetDoc(`<url><loc>https://e.com/</loc></url>`),
		"https://e.com/a\nhttps://e.com/b\n",
	} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCheckDecode(t, data)
		// Also as the payload of a valid gzip stream, so mutations reach
		// the XML and text paths through decompression.
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		fuzzCheckDecode(t, b.Bytes())
	})
}

// TestDecodeFuzzSeedCorpus writes the committed seed corpus under
// testdata/fuzz/ when SITEMAP_REGEN_FUZZ=1, and otherwise checks it exists.
func TestDecodeFuzzSeedCorpus(t *testing.T) {
	seeds := map[string]map[string]string{
		"FuzzDecodeXML": {
			"urlset-all-rules": urlsetDoc("<url><lastmod>2005-13-01</lastmod><loc> https://e.com/?a=1&b=2 </loc><changefreq>Weekly</changefreq><priority>high</priority><priority>0.5</priority></url><url></url>"),
			"extensions":       urlsetDoc(`<url><loc>https://e.com/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="https://e.com/de"/><video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><video:tag>t</video:tag><video:title>T</video:title><video:price currency="EUR">1</video:price></video:video><news:news xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><news:publication><news:name>N</news:name></news:publication></news:news></url>`),
			"entities":         "<!DOCTYPE urlset [<!ENTITY a \"&b;&b;\"><!ENTITY b \"x\">]><urlset><url><loc>https://e.com/&a;&#0;&#x110000;</loc></url></urlset>",
			"mismatched":       "<urlset><url><loc>https://e.com/</url></loc><url><loc>x</loc></urlset></urlset>",
		},
		"FuzzDecodeText": {
			"mixed": "https://e.com/a\n\n   \nftp://x\n\x00\nhttps://e.com/\xff\n",
		},
		"FuzzDecodeGzip": {
			"not-gzip-after-magic": "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xffgarbage",
		},
	}
	for target, files := range seeds {
		dir := filepath.Join("testdata/fuzz", target)
		for name, data := range files {
			p := filepath.Join(dir, name)
			want := "go test fuzz v1\n[]byte(" + strconv.Quote(data) + ")\n"
			if os.Getenv("SITEMAP_REGEN_FUZZ") == "1" {
				os.MkdirAll(dir, 0o755)
				if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != want {
				t.Errorf("%s missing or stale (regenerate with SITEMAP_REGEN_FUZZ=1): %v", p, err)
			}
			fuzzCheckDecode(t, []byte(data))
		}
	}
}
