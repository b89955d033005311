package input

import (
	"testing"
	"unicode/utf16"
)

func utf16LE(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(s)) {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// An entry list saved as UTF-16 is not a sitemap; a UTF-16 sitemap is.
func TestIsSitemapHead(t *testing.T) {
	for _, c := range []struct {
		head []byte
		want bool
	}{
		{[]byte(`<?xml version="1.0"?><urlset>`), true},
		{[]byte("https://www.example.com/\n"), false},
		{[]byte("loc,lastmod\n"), false},
		{utf16LE("loc,lastmod\nhttps://www.example.com/,2026-01-01\n"), false},
		{utf16LE(`<?xml version="1.0" encoding="UTF-16"?><urlset>`), true},
	} {
		if got := IsSitemapHead(c.head); got != c.want {
			t.Errorf("%q: %v, want %v", c.head, got, c.want)
		}
	}
}
