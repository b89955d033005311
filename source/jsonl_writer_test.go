package source

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// The writer writes what encoding/json writes (HTML escaping off), and
// the reader reads back what it wrote.
func TestJSONLWriterRoundTrip(t *testing.T) {
	day, _ := sitemap.ParseDate("2026-11-02T10:00:00+02:00")
	p := 0.7
	entries := []sitemap.URL{
		{Loc: "https://www.example.com/a?x=1&y=<2>", LastMod: day, ChangeFreq: sitemap.Daily, Priority: &p,
			Images:     []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg", Caption: "a \"cap\"\u2028"}},
			Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/a"}}, ContentHash: "h", Source: "s.xml"},
		{Loc: "https://www.example.com/v", Videos: []sitemap.Video{{ThumbnailLoc: "https://www.example.com/t.jpg", Title: "t", Description: "d", ContentLoc: "https://www.example.com/v.mp4"}}},
		{Loc: "https://www.example.com/n", News: &sitemap.News{Title: "n", Publication: sitemap.Publication{Name: "N", Language: "en"}, PublicationDate: day}},
	}
	var got, want bytes.Buffer
	w := NewJSONLWriter(&got)
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	for i := range entries {
		if err := w.Write(&entries[i]); err != nil {
			t.Fatal(err)
		}
		enc.Encode(&entries[i])
	}
	if got.String() != want.String() {
		t.Fatalf("writer:\n%s\nencoding/json:\n%s", got.String(), want.String())
	}
	r := NewJSONL(&got, Options{})
	for i := range entries {
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a, b := AppendJSONL(nil, &rec.URL), AppendJSONL(nil, &entries[i]); !bytes.Equal(a, b) {
			t.Errorf("entry %d read back as\n%s\nwant\n%s", i, a, b)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last record: %v", err)
	}
	var ib bytes.Buffer
	NewJSONLWriter(&ib).WriteIndex(&sitemap.IndexEntry{Loc: "https://www.example.com/s.xml", LastMod: day})
	if ib.String() != `{"loc":"https://www.example.com/s.xml","lastmod":"2026-11-02T10:00:00+02:00"}`+"\n" {
		t.Errorf("index record %q", ib.String())
	}
}
