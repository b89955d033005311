package input

import (
	"bytes"
	"compress/gzip"
	"testing"
)

func gzb(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestIsXML(t *testing.T) {
	xml := []byte("\xef\xbb\xbf \n<?xml version=\"1.0\"?><urlset/>")
	for _, tc := range []struct {
		head []byte
		want bool
	}{
		{xml, true},
		{[]byte("<urlset>"), true},
		{gzb(xml), true},
		{gzb(gzb(xml)), true},
		{gzb(xml)[:20], true}, // cut short: what decompresses still says '<'
		{[]byte{0xff, 0xfe, '<', 0}, true},
		{[]byte("https://www.example.com/a\n"), false},
		{[]byte("loc,lastmod\n"), false},
		{[]byte(`{"loc":"https://www.example.com/"}`), false},
		{gzb([]byte("https://www.example.com/a\n")), false},
		{[]byte{0x1f, 0x8b, 0, 0}, false}, // a corrupt gzip header
		{nil, false},
		{[]byte(" \n"), false},
	} {
		if got := IsXML(tc.head); got != tc.want {
			t.Errorf("IsXML(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

// FuzzIsXML: any head, compressed or not, cut anywhere, is answered
// without a panic, and a gzip of XML is XML.
func FuzzIsXML(f *testing.F) {
	f.Add([]byte("<urlset/>"))
	f.Add([]byte("https://www.example.com/\n"))
	f.Add(gzb([]byte("<urlset/>")))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, head []byte) {
		got := IsXML(head)
		if len(head) < 4000 && IsXML(gzb(head)) != got {
			t.Errorf("IsXML(%q) = %v, but not for its gzip", head, got)
		}
	})
}
