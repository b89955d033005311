// Package ctrl finds and escapes the control characters that must never
// be printed raw: the characters that end a line of text output or steer
// the terminal showing it (rule L-07 for URLs). It imports nothing of the
// module, so the rule book's diagnostics and the checks share it.
package ctrl

import (
	"strconv"
	"unicode/utf8"
)

// Control returns the first control character in s and its byte offset,
// or (0, -1) when s has none. Control characters are the C0 controls
// (TAB, LF and CR included), DEL, the C1 controls U+0080–U+009F and the
// line and paragraph separators U+2028 and U+2029: the characters that can
// end a line of text output, or steer the terminal that shows it. A URL
// holds none of them raw (L-07); a value holding one is never printed as
// it is.
func Control[T string | []byte](s T) (rune, int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return rune(c), i
		case c < 0xc2:
		case c == 0xc2:
			if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
				return rune(s[i+1]), i
			}
		case c == 0xe2:
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				return 0x2000 | rune(s[i+2]&0x3f), i
			}
		}
	}
	return 0, -1
}

// Escape returns s with every control character (see [Control])
// written as its Go escape (\n, \x00, \u0085, \u2028), so that s prints on
// one line and steers no terminal. A string without one is returned as it
// is, without an allocation.
func Escape(s string) string {
	if _, i := Control(s); i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		_, i := Control(s)
		if i < 0 {
			b = append(b, s...)
			break
		}
		b = append(b, s[:i]...)
		r, n := utf8.DecodeRuneInString(s[i:])
		q := strconv.QuoteRuneToASCII(r) // '\n', '\x00', '\u0085'
		b = append(b, q[1:len(q)-1]...)
		s = s[i+n:]
	}
	return string(b)
}
