package ctrl

import (
	"testing"
	"unicode/utf8"
)

func TestControl(t *testing.T) {
	for _, c := range []struct {
		in  string
		r   rune
		at  int
		esc string
	}{
		{"https://e.com/a", 0, -1, "https://e.com/a"},
		{"a\nb", '\n', 1, `a\nb`},
		{"a\r\nb", '\r', 1, `a\r\nb`},
		{"\x00", 0, 0, `\x00`},
		{"x\tz", '\t', 1, `x\tz`},
		{"del\x7f", 0x7f, 3, `del\x7f`},
		{"c1\u0085.", 0x85, 2, `c1\u0085.`},
		{"ls\u2028ps\u2029", 0x2028, 2, `ls\u2028ps\u2029`},
		{"ü€\u00a0\u2027", 0, -1, "ü€\u00a0\u2027"},
		{"esc\x1b[31m", 0x1b, 3, `esc\x1b[31m`},
		{"\xc2", 0, -1, "\xc2"},
	} {
		r, at := Control(c.in)
		if r != c.r || at != c.at {
			t.Errorf("Control(%q) = %U, %d; want %U, %d", c.in, r, at, c.r, c.at)
		}
		if r2, at2 := Control([]byte(c.in)); r2 != r || at2 != at {
			t.Errorf("Control([]byte(%q)) differs from the string form", c.in)
		}
		if got := Escape(c.in); got != c.esc {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.esc)
		}
	}
	// Against the definition, every rune.
	for r := rune(0); r < 0x3000; r++ {
		want := r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029
		s := "a" + string(r) + "b"
		got, at := Control(s)
		if (at >= 0) != want || want && (got != r || at != 1) {
			t.Errorf("Control(%q) = %U, %d (control: %v)", s, got, at, want)
		}
		if _, i := Control(Escape(s)); i >= 0 || !utf8.ValidString(Escape(s)) {
			t.Errorf("Escape(%q) = %q keeps a control character", s, Escape(s))
		}
	}
}
