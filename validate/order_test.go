package validate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestDocumentLineOrder: a problem of an entry's URL is reported at its
// <loc> (it was at the <url> tag, a line above in a pretty-printed file),
// and the diagnostics of one entry come in line order, the decoder's
// (a bad <lastmod>) and the Checker's (the <loc>) together.
func TestDocumentLineOrder(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://a.example/x y</loc>
    <lastmod>2024-13-01</lastmod>
    <changefreq>sometimes</changefreq>
  </url>
  <url>
    <loc>https://b.example/other</loc>
    <priority>2</priority>
  </url>
  <url>
    <loc>https://a.example/x%20y</loc>
  </url>
</urlset>
`
	var got []string
	_, err := Document(context.Background(), strings.NewReader(doc), Options{URL: "https://a.example/sitemap.xml"}, func(d sitemap.Diagnostic) {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Rule))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"4:5 L-07", "5:5 M-01", "6:5 C-01", "9:5 L-09", "10:5 P-01", "13:5 L-17"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("diagnostics\n%v\nwant\n%v", got, want)
	}
}

// TestDocumentManyInOneEntry: an entry with more diagnostics than Document
// holds to order them still has every one reported, once.
func TestDocumentManyInOneEntry(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://a.example/x y</loc>`)
	n := 3 * maxHeld
	for i := 0; i < n; i++ {
		b.WriteString("\n<image:image><image:loc>/rel</image:loc></image:image>")
	}
	b.WriteString("</url></urlset>")
	rules := map[string]int{}
	sum, err := Document(context.Background(), strings.NewReader(b.String()), Options{Decoder: sitemap.DecoderOptions{MaxErrors: -1}}, func(d sitemap.Diagnostic) { rules[string(d.Rule)]++ })
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, c := range rules {
		total += c
	}
	if rules["L-07"] != 1 || total != sum.Errors+sum.Warnings+sum.Infos || total < n {
		t.Errorf("reported %v (%d), summary %+v", rules, total, sum)
	}
}
