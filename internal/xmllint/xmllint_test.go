package xmllint

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSchemaDir(t *testing.T) {
	dir, err := SchemaDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"catalog.xml", Sitemap, SiteIndex, All, "xhtml1-strict.xsd", "xml.xsd"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("schema dir %s: %v", dir, err)
		}
	}
}

// The expected xmllint results on small documents of the same shape as
// testdata/samples.
func TestCheck(t *testing.T) {
	Require(t)
	const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	tests := []struct {
		name, schema, doc string
		valid             bool
	}{
		{"basic X-03", Sitemap, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/?a=1&amp;b=2</loc><lastmod>2005-01-01T10:00:00.123Z</lastmod></url></urlset>`, true},
		{"order X-06", Sitemap, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>2005-01-01</lastmod><loc>https://www.example.com/</loc></url></urlset>`, false},
		{"empty X-07", Sitemap, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`, false},
		{"legacy ns LG-02", Sitemap, head + `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://www.example.com/</loc></url></urlset>`, false},
		{"index I-08", SiteIndex, head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/s1.xml</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap></sitemapindex>`, true},
		{"index vs urlset schema", Sitemap, head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/s1.xml</loc></sitemap></sitemapindex>`, false},
		{"xhtml H-07 needs catalog", All, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://www.example.com/</loc><xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/></url></urlset>`, true},
		{"news language N-03", All, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>https://www.example.com/</loc><news:news><news:publication><news:name>A</news:name><news:language>pt-br</news:language></news:publication><news:publication_date>2008-12-23</news:publication_date><news:title>T</news:title></news:news></url></urlset>`, false},
		{"not well-formed", Sitemap, head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/?a&b</loc></url></urlset>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "doc.xml")
			if err := os.WriteFile(file, []byte(tt.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			valid, out, err := Check(tt.schema, file)
			if err != nil {
				t.Fatal(err)
			}
			if valid != tt.valid {
				t.Errorf("valid = %v, want %v; xmllint said:\n%s", valid, tt.valid, out)
			}
			if !valid && !strings.Contains(out, file) {
				t.Errorf("xmllint output does not name the file:\n%s", out)
			}
		})
	}
}

// F-02: xmllint reads gzip directly, and several files go in one run.
func TestValidateGzipAndMany(t *testing.T) {
	Require(t)
	doc := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url></urlset>` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(doc))
	zw.Close()
	ValidateBytes(t, gz.Bytes(), Sitemap)

	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml.gz")
	os.WriteFile(a, []byte(doc), 0o644)
	os.WriteFile(b, gz.Bytes(), 0o644)
	ValidateFiles(t, Sitemap, a, b)

	bad := filepath.Join(dir, "bad.xml")
	os.WriteFile(bad, []byte(strings.Replace(doc, "<loc>", "<lastmod>2005</lastmod><loc>", 1)), 0o644)
	valid, out, err := Check(Sitemap, a, bad, b)
	if err != nil {
		t.Fatal(err)
	}
	if valid || !strings.Contains(out, "bad.xml") || strings.Contains(out, "a.xml fails") {
		t.Errorf("one bad file among good ones: valid=%v, output:\n%s", valid, out)
	}
}
