package source

import (
	"bytes"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// Every format and option, and that what is written reads back the same
// entries.
func TestWriter(t *testing.T) {
	p := 0.5
	d, _ := sitemap.ParseDate("2026-11-02")
	u := &sitemap.URL{Loc: "https://e.com/a?x=1&y=2", LastMod: d, ChangeFreq: "daily", Priority: &p, Source: "https://e.com/s\n.xml"}
	x := &sitemap.IndexEntry{Loc: "https://e.com/s1.xml", LastMod: d}
	for _, c := range []struct {
		o     WriterOptions
		index bool
		want  string
	}{
		{WriterOptions{Format: "txt"}, false, "https://e.com/a?x=1&y=2\n"},
		{WriterOptions{Format: "txt"}, true, "https://e.com/s1.xml\n"},
		{WriterOptions{Format: "csv"}, false, "loc,lastmod,changefreq,priority\nhttps://e.com/a?x=1&y=2,2026-11-02,daily,0.5\n"},
		{WriterOptions{Format: "csv", Source: true}, false, "loc,lastmod,changefreq,priority,source\nhttps://e.com/a?x=1&y=2,2026-11-02,daily,0.5,https://e.com/s\\n.xml\n"},
		{WriterOptions{Format: "csv"}, true, "loc,lastmod\nhttps://e.com/s1.xml,2026-11-02\n"},
		{WriterOptions{Format: "csv", Mixed: true}, true, "loc,lastmod,changefreq,priority\nhttps://e.com/s1.xml,2026-11-02,,\n"},
		{WriterOptions{Format: "jsonl"}, false, `{"loc":"https://e.com/a?x=1&y=2","lastmod":"2026-11-02","changefreq":"daily","priority":0.5,"source":"https://e.com/s\n.xml"}` + "\n"},
		{WriterOptions{Format: "jsonl"}, true, `{"loc":"https://e.com/s1.xml","lastmod":"2026-11-02"}` + "\n"},
	} {
		var b bytes.Buffer
		w, err := NewWriter(&b, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if c.index {
			err = w.WriteItem(&sitemap.Item{Kind: sitemap.ItemIndex, Index: *x})
		} else {
			err = w.WriteItem(&sitemap.Item{Kind: sitemap.ItemURL, URL: *u})
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() != 0 {
			t.Errorf("%+v: written before Flush", c.o)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != strings.ReplaceAll(c.want, `\n.xml"`, `\n.xml"`) {
			t.Errorf("%+v index=%v:\ngot  %q\nwant %q", c.o, c.index, b.String(), c.want)
		}
		if c.index || c.o.Source {
			continue
		}
		f := map[string]Format{"txt": FormatText, "csv": FormatCSV, "jsonl": FormatJSONL}[c.o.Format]
		r, err := New(strings.NewReader(b.String()), Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Next()
		if err != nil || rec.URL.Loc != u.Loc {
			t.Errorf("%s read back %+v, %v", c.o.Format, rec, err)
		}
	}
	var b bytes.Buffer
	w, _ := NewWriter(&b, WriterOptions{Format: "csv", Source: true})
	w.WriteHeader()
	w.Flush()
	if b.String() != "loc,lastmod,changefreq,priority,source\n" {
		t.Errorf("WriteHeader: %q", b.String())
	}
	if _, err := NewWriter(&b, WriterOptions{Format: "xml"}); err == nil {
		t.Error("xml accepted")
	}
}
