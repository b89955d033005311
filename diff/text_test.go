package diff

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// The text line of every kind of change, and every field's rendering.
func TestChangeString(t *testing.T) {
	day := func(s string) sitemap.Date { d, _ := sitemap.ParseDate(s); return d }
	p := 0.5
	old := &sitemap.URL{Loc: "https://e.com/a", LastMod: day("2026-11-01"), Images: []sitemap.Image{{Loc: "https://e.com/1.jpg"}}}
	new := &sitemap.URL{Loc: "https://e.com/a", ChangeFreq: "daily", Priority: &p, Images: []sitemap.Image{{Loc: "https://e.com/2.jpg"}},
		News: &sitemap.News{Title: "T"}, ContentHash: "h", Videos: []sitemap.Video{{}, {}}}
	for _, c := range []struct {
		c    Change
		want string
	}{
		{Change{Change: Added, Loc: "https://e.com/n"}, "+ https://e.com/n"},
		{Change{Change: Removed, Loc: "https://e.com/o"}, "- https://e.com/o"},
		{Change{Change: Modified, Loc: "https://e.com/a", Old: old, New: new,
			Fields: []string{"lastmod", "changefreq", "priority", "images", "videos", "news", "content_hash", "alternates"}},
			"~ https://e.com/a  lastmod 2026-11-01 → -; changefreq - → daily; priority - → 0.5; images changed (1 image); videos - → 2 videos; news - → \"T\"; content_hash - → h; alternates changed (-)"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

func TestWriter(t *testing.T) {
	for format, want := range map[string]string{
		"text":  "+ https://e.com/&\n",
		"jsonl": "{\"change\":\"added\",\"loc\":\"https://e.com/&\"}\n",
	} {
		var b bytes.Buffer
		w, err := NewWriter(&b, format)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(Change{Change: Added, Loc: "https://e.com/&"}); err != nil {
			t.Fatal(err)
		}
		if b.Len() != 0 {
			t.Errorf("%s: written before Flush", format)
		}
		if err := w.Flush(); err != nil || b.String() != want {
			t.Errorf("%s: got %q, %v; want %q", format, b.String(), err, want)
		}
	}
	if _, err := NewWriter(nil, "json"); err == nil {
		t.Error("json accepted")
	}
}

// TestWriterJSONLIsEncodingJSON: the JSONL Writer writes each change byte
// for byte as encoding/json does with HTML escaping off.
func TestWriterJSONLIsEncodingJSON(t *testing.T) {
	p := 0.5
	full := &sitemap.URL{Loc: "https://www.example.com/a?x=1&y=<2>\u2028\"", LastMod: sitemap.DayOf(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)),
		ChangeFreq: "weekly", Priority: &p, Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}},
		Videos: []sitemap.Video{{Title: "t", ThumbnailLoc: "https://cdn.example.com/t.jpg", Description: "d\x01", ContentLoc: "https://cdn.example.com/v.mp4"}},
		News:   &sitemap.News{Title: "n"}, Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/a"}},
		ContentHash: "abc", Source: "https://www.example.com/sitemap.xml"}
	plain := &sitemap.URL{Loc: "https://www.example.com/b"}
	for _, c := range []Change{
		{Change: Added, Loc: plain.Loc, New: plain},
		{Change: Removed, Loc: full.Loc, Old: full},
		{Change: Modified, Loc: full.Loc, Fields: []string{"lastmod", "videos"}, Old: plain, New: full},
	} {
		var got, want bytes.Buffer
		w, _ := NewWriter(&got, "jsonl")
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(c)
		if got.String() != want.String() {
			t.Errorf("got  %s\nwant %s", got.String(), want.String())
		}
	}
}
