package validate

import (
	"context"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Where the XSD rejects a document, validate says error: an extension
// namespace of another version (EX-04; the images are read, not lost),
// news genres outside the XSD's list (N-08, as the encoder says), text
// directly inside <urlset> (XML-04); an image licence that is no URL is
// the encoder's IM-01 too.
func TestXSDGaps(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" `
	for _, c := range []struct {
		name, doc, rule string
		images          int
	}{
		{"image namespace 1.0", head + `xmlns:image="http://www.google.com/schemas/sitemap-image/1.0">` +
			`<url><loc>https://www.example.com/a</loc><image:image><image:loc>https://www.example.com/a.jpg</image:loc></image:image></url></urlset>`, "EX-04", 1},
		{"news genres outside the list", head + `xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">` +
			`<url><loc>https://www.example.com/n</loc><news:news><news:publication><news:name>D</news:name><news:language>en</news:language></news:publication>` +
			`<news:genres>Blog, Gossip</news:genres><news:publication_date>2026-11-24T06:00:00Z</news:publication_date><news:title>T</news:title></news:news></url></urlset>`, "N-08", 0},
		{"text inside urlset", head + `><url><loc>https://www.example.com/a</loc></url>stray text</urlset>`, "XML-04", 0},
		{"image licence no URL", head + `xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
			`<url><loc>https://www.example.com/a</loc><image:image><image:loc>https://www.example.com/a.jpg</image:loc><image:license>Free License</image:license></image:image></url></urlset>`, "IM-01", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ds []sitemap.Diagnostic
			o := Options{Name: "s.xml", Now: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}
			if _, err := Document(context.Background(), strings.NewReader(c.doc), o, func(d sitemap.Diagnostic) { ds = append(ds, d) }); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range ds {
				if string(d.Rule) == c.rule && d.Severity == sitemap.SeverityError {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s error: %v", c.rule, ds)
			}
			images := 0
			dec := sitemap.NewDecoder(strings.NewReader(c.doc), sitemap.DecoderOptions{})
			for {
				it, err := dec.Next()
				if err != nil {
					break
				}
				images += len(it.URL.Images)
			}
			if images != c.images {
				t.Errorf("%d images read, want %d", images, c.images)
			}
		})
	}
}
