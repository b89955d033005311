package sitemap

import (
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/check"
)

// E-01: the five characters become named entities; CR (and in attributes
// TAB and LF) become character references so they survive parsing.
func TestAppendText(t *testing.T) {
	tests := []struct{ in, text, attr string }{
		{"", "", ""},
		{"plain", "plain", "plain"},
		{"a&b", "a&amp;b", "a&amp;b"},
		{"<tag>", "&lt;tag&gt;", "&lt;tag&gt;"},
		{`"q" 'a'`, "&quot;q&quot; &apos;a&apos;", "&quot;q&quot; &apos;a&apos;"},
		{"&&", "&amp;&amp;", "&amp;&amp;"},
		{"ümlaut &amp;", "ümlaut &amp;amp;", "ümlaut &amp;amp;"},
		{"a\r\nb\tc", "a&#xD;\nb\tc", "a&#xD;&#xA;b&#x9;c"},
		{"]]>", "]]&gt;", "]]&gt;"},
	}
	for _, tt := range tests {
		if got := string(appendText(nil, tt.in)); got != tt.text {
			t.Errorf("appendText(%q) = %q, want %q", tt.in, got, tt.text)
		}
		if got := string(appendAttr(nil, tt.in)); got != tt.attr {
			t.Errorf("appendAttr(%q) = %q, want %q", tt.in, got, tt.attr)
		}
		if got := parseBack(t, tt.in); got != [2]string{tt.in, tt.in} {
			t.Errorf("%q parses back as text %q, attribute %q", tt.in, got[0], got[1])
		}
	}
}

// parseBack writes s as element text and as an attribute value, and
// returns what encoding/xml reads back.
func parseBack(t testing.TB, s string) [2]string {
	t.Helper()
	doc := `<e a="` + string(appendAttr(nil, s)) + `">` + string(appendText(nil, s)) + `</e>`
	var v struct {
		A    string `xml:"a,attr"`
		Text string `xml:",chardata"`
	}
	if err := xml.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
	return [2]string{v.Text, v.A}
}

// E-03: the characters XML 1.0 forbids are found, everything else passes.
func TestCheckText(t *testing.T) {
	tests := []struct {
		in   string
		off  int // -1 = ok
		utf8 bool
	}{
		{"", -1, false},
		{"tab\tlf\ncr\r ok", -1, false},
		{"ümlaut € 𝄞 \u0085 \u2028 \uFFFD", -1, false},
		{"nul\x00", 3, true},
		{"\x1b[31m", 0, true},
		{"a\x7fb", -1, false}, // DEL is allowed in XML 1.0
		{"a\uFFFEb", 1, true},
		{"a\uFFFF", 1, true},
		{"caf\xe9", 3, false},
		{"\xed\xa0\x80", 0, false}, // an encoded surrogate
	}
	for _, tt := range tests {
		bad, ok := checkText(tt.in)
		if tt.off < 0 {
			if !ok {
				t.Errorf("checkText(%q) refused at %d", tt.in, bad.off)
			}
			continue
		}
		if ok || bad.off != tt.off || bad.utf8 != tt.utf8 {
			t.Errorf("checkText(%q) = %+v, %v; want offset %d, utf8 %v", tt.in, bad, ok, tt.off, tt.utf8)
		}
	}
	if got := string(appendAttrLossy(nil, "a\x00b\xffc\uFFFEd&")); got != "abcd&amp;" {
		t.Errorf("appendAttrLossy = %q", got)
	}
	if got := check.RuneName(0x1F600); got != "U+01F600" {
		t.Errorf("runeName = %s", got)
	}
	if got := itoa(0) + itoa(1234567); got != "01234567" {
		t.Errorf("itoa = %s", got)
	}
}

// appendEscapedBytewise is appendEscaped one byte at a time, without its
// eight-byte skips (FuzzEscape compares them).
func appendEscapedBytewise(dst []byte, s string, class uint8) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if charClass[c]&class != 0 && entity[c] != "" {
			dst = append(dst, entity[c]...)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// Whatever checkText accepts, the escapers write so that an XML parser
// reads back exactly the same string; and appendEscaped writes what
// escaping each byte on its own writes.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a&b<c>d'e\"f", "ü\r\n\t", "]]>", "\x00", "\xff", "&#x41;",
		"abcdefgh&ijklmnop<qrstuvw>xyz", "0123456789abcdef\t\n", "https://www.example.com/a?b=1&c=2&d='3'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, class := range []uint8{cText, cAttr} {
			if got, want := string(appendEscaped(nil, s, class)), string(appendEscapedBytewise(nil, s, class)); got != want {
				t.Fatalf("appendEscaped(%q, %#x) = %q; byte by byte %q", s, class, got, want)
			}
		}
		if _, ok := checkText(s); !ok {
			return
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0xFFFE) {
			t.Fatalf("checkText accepted %q", s)
		}
		if got := parseBack(t, s); got != [2]string{s, s} {
			t.Fatalf("%q parses back as text %q, attribute %q", s, got[0], got[1])
		}
	})
}

// charClass agrees with the definitions it stands for.
func TestCharClass(t *testing.T) {
	if len(charClass) != 256 {
		t.Fatalf("charClass has %d entries", len(charClass))
	}
	for i := 0; i < 256; i++ {
		c := byte(i)
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		want := byte(0)
		if alnum || strings.IndexByte("-._~", c) >= 0 {
			want |= cURI | cHost
		}
		if c != 0 && strings.IndexByte("!$&'()*+,;=:@/?", c) >= 0 {
			want |= cURI
		}
		if c != 0 && strings.IndexByte("&<>'\"\r", c) >= 0 {
			want |= cText | cAttr
		}
		if c == '\t' || c == '\n' {
			want |= cAttr
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			want |= cCtl
		}
		if want&cURI != 0 && c != '&' && c != '\'' && c != '?' {
			want |= cPlain
		}
		if charClass[c] != want {
			t.Errorf("charClass[%q] = %#x, want %#x", c, charClass[c], want)
		}
	}
}
