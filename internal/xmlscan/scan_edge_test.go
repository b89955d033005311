package xmlscan

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// want is one expected token of TestNext: kind, offset, name, text,
// attributes as name=value pairs, self-closing and syntax.
type want struct {
	kind   Kind
	off    int64
	name   string
	text   string
	attrs  string
	self   bool
	syntax string
}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []want
	}{
		{`<?xml version="1.0"?><a x="1" y='&amp;'>t&lt;</a>`, []want{
			{kind: PI, name: "xml", text: ` version="1.0"`},
			{kind: StartTag, off: 21, name: "a", attrs: "x=1 y=&amp;"},
			{kind: Text, off: 40, text: "t&lt;"},
			{kind: EndTag, off: 45, name: "a"},
		}},
		{"<x:b/><c\n/><!-- - --><![CDATA[<&]]>", []want{
			{kind: StartTag, name: "x:b", self: true},
			{kind: StartTag, off: 6, name: "c", self: true},
			{kind: Comment, off: 11, text: " - "},
			{kind: CDATA, off: 21, text: "<&"},
		}},
		{`<!doctype x [<!ENTITY e ">">]><x/>`, []want{
			{kind: Doctype, text: `doctype x [<!ENTITY e ">">]`},
			{kind: StartTag, off: 30, name: "x", self: true},
		}},
		{"</a  >", []want{{kind: EndTag, name: "a"}}},
		// Recovered problems: the token says what was wrong.
		{"<a b=c d>", []want{{kind: StartTag, name: "a", attrs: "b=c d=", syntax: "attribute without a value"}}},
		{"< a>", []want{{kind: Text, text: "<", syntax: "'<' not followed by a name"}, {kind: Text, off: 1, text: " a>"}}},
		{"<!foo>x", []want{{kind: Comment, text: "foo", syntax: "unknown markup declaration"}, {kind: Text, off: 6, text: "x"}}},
		{"<a/b>", []want{{kind: StartTag, name: "a", attrs: "b=", syntax: "attribute without a value"}}},
		{"<a <b>", []want{{kind: StartTag, name: "a", syntax: "tag not closed with '>'"}, {kind: StartTag, off: 3, name: "b"}}},
	} {
		s := New(strings.NewReader(tc.in), 1<<10)
		for i, w := range tc.want {
			k := s.Next()
			var attrs []string
			for _, a := range s.Attrs() {
				attrs = append(attrs, string(a.Name)+"="+string(a.Value))
			}
			got := want{kind: k, off: s.Offset(), name: string(s.Name()), text: string(s.Text()), attrs: strings.Join(attrs, " "), self: s.SelfClosing(), syntax: s.Syntax()}
			if got != w {
				t.Errorf("%q token %d = %+v, want %+v", tc.in, i, got, w)
			}
		}
		if k := s.Next(); k != EOF || s.Err() != io.EOF || s.Truncated() {
			t.Errorf("%q: after the tokens %v, %v, truncated %v; want EOF", tc.in, k, s.Err(), s.Truncated())
		}
	}
}

// A document that ends inside a token ends with EOF and Truncated, at the
// offset of the token, whether or not the reader returned its last bytes
// with io.EOF; and EOF stays EOF. A lone '<' at the end is such a token:
// it was a Text with a syntax problem when io.EOF came with the data, and
// a Text after a truncated EOF otherwise (found by FuzzScanner).
func TestTruncated(t *testing.T) {
	for _, in := range []string{"<a>x<", "<a>x<u", "<a>x</u", "<a>x<!--", "<a>x<![CDATA[", "<a>x<?p", "<a>x<!DOCTYPE", `<a>x<b c="`} {
		for _, dataErr := range []bool{false, true} {
			var r io.Reader = strings.NewReader(in)
			if dataErr {
				r = iotest.DataErrReader(r)
			}
			s := New(r, 1<<10)
			if s.Next() != StartTag || s.Next() != Text || string(s.Text()) != "x" {
				t.Fatalf("%q: no <a>x", in)
			}
			for range 3 {
				if k := s.Next(); k != EOF || !s.Truncated() || s.Err() != io.EOF || s.Offset() != 4 {
					t.Errorf("%q (io.EOF with the data: %v): %v %q, truncated %v, err %v at %d; want a truncated EOF at 4",
						in, dataErr, k, s.Text(), s.Truncated(), s.Err(), s.Offset())
				}
			}
		}
	}
}

// A token longer than the cap stops the scanner with ErrTokenCap; text
// longer than the cap is returned in pieces, never cut inside an entity
// reference.
func TestCap(t *testing.T) {
	s := New(strings.NewReader("<a>"+strings.Repeat("x", 30)+"<b "+strings.Repeat("y", 40)+"/>"), 32)
	if s.Next() != StartTag {
		t.Fatal("no <a>")
	}
	for s.Next() == Text {
	}
	if !errors.Is(s.Err(), ErrTokenCap) || s.Truncated() || s.Offset() != 33 {
		t.Errorf("err %v, truncated %v at %d; want ErrTokenCap at 33", s.Err(), s.Truncated(), s.Offset())
	}

	text := strings.Repeat("ab&amp;", 200)
	s = New(strings.NewReader(text), 64)
	var b strings.Builder
	for s.Next() == Text {
		piece := string(s.Text())
		if len(piece) > 64 {
			t.Fatalf("piece of %d bytes", len(piece))
		}
		if i := strings.LastIndexByte(piece, '&'); i >= 0 && !strings.Contains(piece[i:], ";") {
			t.Fatalf("piece %q cut inside an entity reference", piece)
		}
		b.WriteString(piece)
	}
	if b.String() != text || s.Err() != io.EOF {
		t.Errorf("pieces make %q, err %v", b.String(), s.Err())
	}
}

// Pos counts lines and byte columns, for offsets in order and for an
// earlier offset still in the buffer; NextLine returns lines without LF
// or CRLF, with their offsets.
func TestPosNextLine(t *testing.T) {
	const in = "ab\r\ncd\n\ne"
	s := New(strings.NewReader(in), 1<<10)
	var lines []string
	var offs []int64
	for {
		l, off, ok := s.NextLine()
		if !ok {
			break
		}
		lines, offs = append(lines, string(l)), append(offs, off)
	}
	if strings.Join(lines, "|") != "ab|cd||e" || len(offs) != 4 || offs[1] != 4 || offs[3] != 8 || s.Err() != io.EOF {
		t.Fatalf("lines %q at %v, err %v", lines, offs, s.Err())
	}
	// Offsets already discarded from the buffer get column 0.
	if l, c := s.Pos(0); c != 0 || l != 4 {
		t.Errorf("Pos(0) after the last line = %d:%d, want 4:0", l, c)
	}

	s = New(strings.NewReader("<a>\r\n <b>x</b>\n</a>"), 1<<10)
	for s.Next() != EndTag || string(s.Name()) != "a" {
	}
	for _, tc := range []struct {
		off       int64
		line, col int
	}{{9, 2, 5}, {0, 1, 1}, {5, 2, 1}, {3, 1, 4}, {16, 3, 2}, {17, 3, 3}, {21, 3, 5}} {
		if l, c := s.Pos(tc.off); l != tc.line || c != tc.col {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	s = New(strings.NewReader(strings.Repeat("x", 40)+"\n"), 32)
	if _, _, ok := s.NextLine(); ok || !errors.Is(s.Err(), ErrTokenCap) {
		t.Errorf("a 40-byte line under a 32-byte cap: ok %v, err %v", ok, s.Err())
	}
}

func TestNameBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		start := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == ':' || b >= 0x80
		if IsNameStart(b) != start || IsNameByte(b) != (start || b >= '0' && b <= '9' || b == '-' || b == '.') {
			t.Errorf("byte %#x: start %v, name %v", b, IsNameStart(b), IsNameByte(b))
		}
		if IsSpace(b) != (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
			t.Errorf("byte %#x: space %v", b, IsSpace(b))
		}
	}
}

// A long token from a reader that returns one byte at a time is read in
// time linear in its length: each time the scanner needs more of an
// unfinished token it reads at least as much again, so the token is
// scanned anew a logarithmic number of times, not after every byte (a start
// tag of 512 KiB took minutes; found by FuzzScanner, whose runs stalled on
// such inputs). Counted in buffer fills, not timed.
func TestSlowReaderLinear(t *testing.T) {
	tag := "<urlset" + strings.Repeat(` a="b"`, 512<<10/6) + ">"
	for _, in := range []string{tag, "<!--" + strings.Repeat("x", 1<<20) + "-->", strings.Repeat("y", 1<<20) + "\n"} {
		r := &countReader{r: iotest.OneByteReader(strings.NewReader(in))}
		s := New(r, 2<<20)
		if in[0] == 'y' {
			if l, _, ok := s.NextLine(); !ok || len(l) != 1<<20 {
				t.Fatalf("line of %d bytes, ok %v, err %v", len(l), ok, s.Err())
			}
		} else if k := s.Next(); k != StartTag && k != Comment {
			t.Fatalf("%v, err %v", k, s.Err())
		}
		// Doubling from the first 4 KiB to 1 MiB is about 10 fills.
		if s.fills > 40 {
			t.Errorf("%.20q…: %d buffer fills (token scanned anew each time) for %d bytes in %d reads", in, s.fills, len(in), r.calls)
		}
	}
}

type countReader struct {
	r     io.Reader
	calls int
}

func (c *countReader) Read(p []byte) (int, error) {
	c.calls++
	return c.r.Read(p)
}
