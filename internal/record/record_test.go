package record

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

func stdJSON(t testing.TB, v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestAppendURLMatchesEncodingJSON(t *testing.T) {
	day, _ := sitemap.ParseDate("2026-11-02")
	sec, _ := sitemap.ParseDate("2026-11-02T10:00:00.50+00:00")
	cases := []sitemap.URL{
		{Loc: "https://www.example.com/"},
		{Loc: "https://www.example.com/a?x=1&y=<2>", LastMod: day, ChangeFreq: sitemap.Weekly, Priority: sitemap.Float64(0.8)},
		{Loc: "https://www.example.com/ü\u2028\x01\"\\\n\t\xff", LastMod: sec, Priority: sitemap.Float64(1), Source: "s.xml", ContentHash: "h"},
		{Loc: "https://a.example/", Priority: sitemap.Float64(1e-7)},
		{Loc: "https://a.example/", Priority: sitemap.Float64(0)},
		{Loc: "https://a.example/", Images: []sitemap.Image{{Loc: "https://a.example/1.jpg"}, {Loc: "https://a.example/2.jpg", Caption: "c", GeoLocation: "g", Title: "t", License: "l"}}},
		{Loc: "https://a.example/", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://a.example/de"}, {Hreflang: "x-default", Href: "https://a.example/"}}},
		{Loc: "https://a.example/", Videos: []sitemap.Video{{ThumbnailLoc: "t", Title: "v", Description: "d", Duration: sitemap.Int(10)}}},
		{Loc: "https://a.example/", News: &sitemap.News{Publication: sitemap.Publication{Name: "n", Language: "en"}, PublicationDate: sitemap.DateOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), Title: "t"}},
	}
	for _, u := range cases {
		if got, want := string(AppendURL(nil, &u)), stdJSON(t, &u); got != want {
			t.Errorf("AppendURL:\n got %s\nwant %s", got, want)
		}
	}
	x := sitemap.IndexEntry{Loc: "https://a.example/s-1.xml.gz", LastMod: day, Source: "i.xml"}
	if got, want := string(AppendIndex(nil, &x)), stdJSON(t, &x); got != want {
		t.Errorf("AppendIndex:\n got %s\nwant %s", got, want)
	}
}

func FuzzAppendURL(f *testing.F) {
	f.Add("https://www.example.com/a?x=1&y=2", "2026-11-02T10:00:00+01:00", "weekly", 0.5, "https://cdn.example.com/a.jpg", "de", "src")
	f.Add("\xff\u2028<>&", "2026", "", 1e-9, "", "", "")
	f.Fuzz(func(t *testing.T, loc, lastmod, cf string, prio float64, img, lang, src string) {
		u := sitemap.URL{Loc: loc, ChangeFreq: sitemap.ChangeFreq(cf), Source: src}
		if d, _, err := sitemap.ParseDateLenient(lastmod); err == nil {
			u.LastMod = d
		}
		if prio == prio && prio < 1e300 && prio > -1e300 {
			u.Priority = &prio
		}
		if img != "" {
			u.Images = []sitemap.Image{{Loc: img, Title: lang}}
		}
		if lang != "" {
			u.Alternates = []sitemap.Alternate{{Hreflang: lang, Href: loc}}
		}
		if got, want := string(AppendURL(nil, &u)), stdJSON(t, &u); got != want {
			t.Fatalf("AppendURL:\n got %s\nwant %s", got, want)
		}
	})
}

func BenchmarkAppendURL(b *testing.B) {
	day, _ := sitemap.ParseDate("2026-10-01T10:00:00+00:00")
	u := sitemap.URL{Loc: "https://www.example.com/products/category-1/item-1.html?a=1&b=2", LastMod: day, ChangeFreq: sitemap.Weekly, Priority: sitemap.Float64(0.5),
		Images: []sitemap.Image{{Loc: "https://cdn.example.com/img/1.jpg"}}, Source: "https://www.example.com/sitemap.xml"}
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendURL(buf[:0], &u)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkEncodingJSON(b *testing.B) {
	day, _ := sitemap.ParseDate("2026-10-01T10:00:00+00:00")
	u := sitemap.URL{Loc: "https://www.example.com/products/category-1/item-1.html?a=1&b=2", LastMod: day, ChangeFreq: sitemap.Weekly, Priority: sitemap.Float64(0.5),
		Images: []sitemap.Image{{Loc: "https://cdn.example.com/img/1.jpg"}}, Source: "https://www.example.com/sitemap.xml"}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		enc.Encode(&u)
	}
}
