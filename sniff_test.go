package sitemap

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// Every kind, plain, after a BOM and blanks, in UTF-16 and gzip-compressed.
func TestSniff(t *testing.T) {
	utf16le := func(s string) []byte {
		b := []byte{0xff, 0xfe}
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return b
	}
	for _, c := range []struct {
		head []byte
		want Sniffed
	}{
		{nil, Sniffed{Kind: SniffEmpty}},
		{[]byte(" \r\n\t"), Sniffed{Kind: SniffEmpty}},
		{[]byte("<?xml version=\"1.0\"?><urlset/>"), Sniffed{Kind: SniffXML}},
		{[]byte("\xef\xbb\xbf\n  <urlset/>"), Sniffed{Kind: SniffXML}},
		{[]byte(`{"loc":"https://e.com/"}`), Sniffed{Kind: SniffJSON}},
		{[]byte("https://e.com/\n"), Sniffed{Kind: SniffText}},
		{[]byte("loc,lastmod\n"), Sniffed{Kind: SniffText}},
		{utf16le("<urlset/>"), Sniffed{Encoding: "UTF-16LE", Kind: SniffXML}},
		{utf16le("loc\n"), Sniffed{Encoding: "UTF-16LE", Kind: SniffText}},
		{[]byte{0xfe, 0xff, 0, '{'}, Sniffed{Encoding: "UTF-16BE", Kind: SniffJSON}},
		{gzipped([]byte("  <urlset/>")), Sniffed{Gzip: true, Kind: SniffXML}},
		{gzipped([]byte("https://e.com/")), Sniffed{Gzip: true, Kind: SniffText}},
		{gzipped([]byte("https://e.com/"))[:12], Sniffed{Gzip: true, Kind: SniffEmpty}}, // cut before the data
		{[]byte{0x1f, 0x8b, 0, 0}, Sniffed{Gzip: true, Kind: SniffText}},                // corrupt header
		{[]byte{0x1f}, Sniffed{Kind: SniffText}},
		{gzipped(gzipped([]byte("<urlset/>"))), Sniffed{Gzip: true, Kind: SniffXML}},
	} {
		if got := Sniff(c.head); got != c.want {
			t.Errorf("Sniff(%q) = %+v, want %+v", c.head, got, c.want)
		}
	}
}
