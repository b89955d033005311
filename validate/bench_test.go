package validate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
)

// BenchmarkChecker measures the entry rules alone over 50,000 URLs with
// lastmod and two hreflang alternates each (the heaviest common shape).
func BenchmarkChecker(b *testing.B) {
	us := make([]sitemap.URL, sitemap.MaxURLs)
	for i := range us {
		en := fmt.Sprintf("https://www.example.com/en/page-%d", i)
		de := fmt.Sprintf("https://www.example.com/de/page-%d", i)
		us[i] = sitemap.URL{Loc: en, LastMod: sitemap.DayOf(testNow.AddDate(0, 0, -i%300)),
			Alternates: []sitemap.Alternate{{Hreflang: "en", Href: en}, {Hreflang: "de", Href: de}}}
	}
	b.ReportAllocs()
	for b.Loop() {
		c, _ := NewChecker(Options{Name: "b.xml", URL: "https://www.example.com/sitemap.xml", Now: testNow}, nil)
		for i := range us {
			c.URL(&us[i], i+3, 3)
		}
		c.Finish()
	}
	b.ReportMetric(float64(len(us)*b.N)/b.Elapsed().Seconds(), "URLs/s")
}

// BenchmarkDocument measures decoder + checker over a 50,000-URL urlset.
func BenchmarkDocument(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 0; i < sitemap.MaxURLs; i++ {
		fmt.Fprintf(&doc, "<url><loc>https://www.example.com/page-%d?a=1&amp;b=2</loc><lastmod>2026-%02d-%02d</lastmod></url>\n", i, 1+i%12, 1+i%28)
	}
	doc.WriteString("</urlset>\n")
	data := doc.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sum, err := Document(context.Background(), bytes.NewReader(data), Options{Name: "b.xml", URL: "https://www.example.com/sitemap.xml", Now: testNow}, nil)
		if err != nil || sum.URLs != sitemap.MaxURLs || sum.Errors != 0 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	b.ReportMetric(float64(sitemap.MaxURLs*b.N)/b.Elapsed().Seconds(), "URLs/s")
}

// BenchmarkTree measures Tree over a local index of four 12,500-URL
// children: the walk, the decoder and the checker together.
func BenchmarkTree(b *testing.B) {
	dir := b.TempDir()
	var idx bytes.Buffer
	idx.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for c := range 4 {
		var doc bytes.Buffer
		doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range sitemap.MaxURLs / 4 {
			fmt.Fprintf(&doc, "<url><loc>https://www.example.com/%d/page-%d</loc><lastmod>2026-%02d-%02d</lastmod></url>\n", c, i, 1+i%12, 1+i%28)
		}
		doc.WriteString("</urlset>\n")
		name := fmt.Sprintf("sitemap-%d.xml", c)
		if err := os.WriteFile(filepath.Join(dir, name), doc.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&idx, "<sitemap><loc>https://www.example.com/%s</loc></sitemap>\n", name)
	}
	idx.WriteString("</sitemapindex>\n")
	index := filepath.Join(dir, "sitemap.xml")
	if err := os.WriteFile(index, idx.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		sum, err := Tree(context.Background(), []string{index}, TreeOptions{
			Options: Options{Now: testNow}, Input: input.Options{Base: "https://www.example.com/"}})
		if err != nil || sum.Documents != 5 || sum.Errors != 0 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	b.ReportMetric(float64(sitemap.MaxURLs*b.N)/b.Elapsed().Seconds(), "URLs/s")
}
