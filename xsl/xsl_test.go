package xsl

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// The stylesheet is well-formed XML, XSLT 1.0 (what browsers run), and has
// a template for each root the generator writes: urlset and
// sitemapindex (I-01), in the sitemap namespace, plus the extension
// namespaces it counts (IM-01, V-01, N-01, H-01).
func TestStylesheet(t *testing.T) {
	b := Default()
	d := xml.NewDecoder(bytes.NewReader(b))
	matches := map[string]bool{}
	ns := map[string]string{}
	var version string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("stylesheet is not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		for _, a := range se.Attr {
			switch {
			case se.Name.Local == "stylesheet" && a.Name.Local == "version":
				version = a.Value
			case se.Name.Local == "stylesheet" && a.Name.Space == "xmlns":
				ns[a.Name.Local] = a.Value
			case se.Name.Local == "template" && a.Name.Local == "match":
				matches[a.Value] = true
			}
		}
	}
	if version != "1.0" {
		t.Errorf("version %q, want 1.0", version)
	}
	for _, m := range []string{"/", "s:urlset", "s:sitemapindex"} {
		if !matches[m] {
			t.Errorf("no template matching %q", m)
		}
	}
	for p, want := range map[string]string{
		"s":     "http://www.sitemaps.org/schemas/sitemap/0.9",
		"image": "http://www.google.com/schemas/sitemap-image/1.1",
		"video": "http://www.google.com/schemas/sitemap-video/1.1",
		"news":  "http://www.google.com/schemas/sitemap-news/0.9",
		"xhtml": "http://www.w3.org/1999/xhtml",
	} {
		if ns[p] != want {
			t.Errorf("xmlns:%s = %q, want %q", p, ns[p], want)
		}
	}
}

func TestDefaultIsACopy(t *testing.T) {
	a := Default()
	a[0] = 'X'
	if Default()[0] == 'X' {
		t.Error("Default shares its bytes")
	}
	var buf strings.Builder
	if n, err := WriteTo(&buf); err != nil || n != int64(len(Default())) || buf.String() != string(Default()) {
		t.Errorf("WriteTo wrote %d bytes, err %v", n, err)
	}
}
