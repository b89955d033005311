package xmlscan

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// tokens scans doc and describes every token, reading through r's wrapper.
func tokens(t *testing.T, r io.Reader, maxTok int) []string {
	t.Helper()
	s := New(r, maxTok)
	var out []string
	for {
		k := s.Next()
		if k == EOF {
			out = append(out, fmt.Sprintf("EOF %v truncated=%v", s.Err(), s.Truncated()))
			return out
		}
		line, col := s.Pos(s.Offset())
		d := fmt.Sprintf("%d:%d %d name=%q text=%q", line, col, k, s.Name(), s.Text())
		for _, a := range s.Attrs() {
			d += fmt.Sprintf(" %s=%q", a.Name, a.Value)
		}
		if s.SelfClosing() {
			d += " />"
		}
		if s.Syntax() != "" {
			d += " syntax: " + s.Syntax()
		}
		out = append(out, d)
	}
}

func TestScannerTokens(t *testing.T) {
	doc := "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"b\">]>\n<urlset xmlns='u'>\n" +
		"  <url><loc>a&amp;b</loc><x:y k = \"v\"/></url>\n<!-- c --><![CDATA[<d>]]>\n</urlset>"
	want := []string{
		`1:1 6 name="xml" text=" version=\"1.0\""`,
		`1:22 3 name="" text="\n"`,
		`2:1 7 name="" text="DOCTYPE x [<!ENTITY a \"b\">]"`,
		`2:31 3 name="" text="\n"`,
		`3:1 1 name="urlset" text="" xmlns="u"`,
		`3:19 3 name="" text="\n  "`,
		`4:3 1 name="url" text=""`,
		`4:8 1 name="loc" text=""`,
		`4:13 3 name="" text="a&amp;b"`,
		`4:20 2 name="loc" text=""`,
		`4:26 1 name="x:y" text="" k="v" />`,
		`4:40 2 name="url" text=""`,
		`4:46 3 name="" text="\n"`,
		`5:1 5 name="" text=" c "`,
		`5:11 4 name="" text="<d>"`,
		`5:26 3 name="" text="\n"`,
		`6:1 2 name="urlset" text=""`,
		`EOF EOF truncated=false`,
	}
	// The same tokens whether the reader hands over everything at once or
	// one byte at a time (tokens cut across reads).
	for _, r := range []io.Reader{strings.NewReader(doc), iotest.OneByteReader(strings.NewReader(doc))} {
		got := tokens(t, r, 1<<20)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestScannerRecovers(t *testing.T) {
	got := tokens(t, strings.NewReader("<a b=c d>x < y</a><a"), 1<<20)
	want := []string{
		`1:1 1 name="a" text="" b="c" d="" syntax: attribute without a value`,
		`1:10 3 name="" text="x "`,
		`1:12 3 name="" text="<" syntax: '<' not followed by a name`,
		`1:13 3 name="" text=" y"`,
		`1:15 2 name="a" text=""`,
		`EOF EOF truncated=true`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestScannerTokenCap(t *testing.T) {
	s := New(strings.NewReader("<a>"+strings.Repeat("x", 100)+"<!-- "+strings.Repeat("c", 100)+" --></a>"), 64)
	for s.Next() != EOF {
	}
	if !errors.Is(s.Err(), ErrTokenCap) {
		t.Errorf("a 100-byte comment with a 64-byte cap: err %v, want ErrTokenCap", s.Err())
	}
}

func TestScannerLines(t *testing.T) {
	s := New(strings.NewReader("one\r\ntwo\n\nthree"), 1<<20)
	var got []string
	for {
		line, off, ok := s.NextLine()
		if !ok {
			break
		}
		l, c := s.Pos(off)
		got = append(got, fmt.Sprintf("%d:%d %s", l, c, line))
	}
	if want := "1:1 one|2:1 two|3:1 |4:1 three"; strings.Join(got, "|") != want {
		t.Errorf("lines %q, want %q", strings.Join(got, "|"), want)
	}
	if s.Err() != io.EOF {
		t.Errorf("err %v, want io.EOF", s.Err())
	}
}

func TestScannerUnreadSkip(t *testing.T) {
	s := New(strings.NewReader("<a>  <b/></a>"), 1<<20)
	if s.Next() != StartTag {
		t.Fatal("no start tag")
	}
	b, off := s.Unread()
	if string(b) != "  <b/></a>" || off != 3 {
		t.Fatalf("Unread = %q at %d", b, off)
	}
	s.Skip(2)
	if k := s.Next(); k != StartTag || string(s.Name()) != "b" || s.Offset() != 5 {
		t.Errorf("after Skip(2): kind %d name %q at %d, want <b> at 5", k, s.Name(), s.Offset())
	}
}
