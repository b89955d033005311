package xmlscan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strconv"
	"testing"
	"testing/iotest"
)

// tok is one token as the tests compare them: its kind, offset, the end
// of its bytes in the input, and copies of what the scanner returned.
type tok struct {
	kind     Kind
	off, end int64
	name     string
	text     string
	attrs    []Attr
	self     bool
	syntax   []string
}

// fuzzCaps and fuzzReaders are the scanner set-ups FuzzScanner picks from:
// caps below, at and above the initial buffer, and readers that return
// the input whole, a byte at a time, in halves, with io.EOF on the last
// data, with empty reads, or with an error after some bytes.
var fuzzCaps = []int{1 << 20, 16, 17, 64, 100, 1000, 70 << 10}

type readerKind int

const (
	readWhole readerKind = iota
	readOneByte
	readHalf
	readDataErr
	readEmptyReads
	readFail
	numReaders
)

var errBoom = errors.New("boom")

// failAfter returns data[:n], then errBoom.
type failAfter struct {
	data []byte
	n    int
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errBoom
	}
	k := min(len(p), f.n, len(f.data))
	if k == 0 {
		return 0, errBoom
	}
	copy(p, f.data[:k])
	f.data, f.n = f.data[k:], f.n-k
	return k, nil
}

// emptyReads alternates empty reads (0, nil) with reads of up to 7 bytes.
type emptyReads struct {
	r    io.Reader
	flip bool
}

func (e *emptyReads) Read(p []byte) (int, error) {
	e.flip = !e.flip
	if e.flip {
		return 0, nil
	}
	if len(p) > 7 {
		p = p[:7]
	}
	return e.r.Read(p)
}

func newReader(data []byte, k readerKind) io.Reader {
	r := bytes.NewReader(data)
	switch k {
	case readOneByte:
		return iotest.OneByteReader(r)
	case readHalf:
		return iotest.HalfReader(r)
	case readDataErr:
		return iotest.DataErrReader(r)
	case readEmptyReads:
		return &emptyReads{r: r}
	case readFail:
		return &failAfter{data: data, n: len(data) / 2}
	}
	return r
}

// bufPos is the absolute offset of x, a slice of the scanner's buffer.
func (s *Scanner) bufPos(x []byte) int64 {
	return s.base + int64(cap(s.buf)-cap(x))
}

// scanAll scans data to its end and checks, token by token, what holds
// for every input: tokens are contiguous (each starts where the last
// ended, the first at 0) and strictly increasing, every slice the scanner
// returns is the input's bytes at the offset it reports and inside the
// token, the token starts with its markup, Unread is the input after the
// token, Pos agrees with a count of newlines, the buffer never grows past
// the cap, and the scan ends in bounded steps.
func scanAll(t *testing.T, data []byte, maxTok int, rk readerKind) (toks []tok, err error) {
	t.Helper()
	s := New(newReader(data, rk), maxTok)
	limit := max(maxTok, 16)
	nl := newLines(data)
	var prevEnd int64
	slice := func(what string, x []byte, off, end int64) {
		if x == nil {
			return
		}
		p := s.bufPos(x)
		if p < off || p+int64(len(x)) > end || p+int64(len(x)) > int64(len(data)) {
			t.Fatalf("%s %q at %d..%d outside its token %d..%d", what, x, p, p+int64(len(x)), off, end)
		}
		if !bytes.Equal(data[p:p+int64(len(x))], x) {
			t.Fatalf("%s %q at %d is not the input's %q", what, x, p, data[p:p+int64(len(x))])
		}
	}
	for i := 0; ; i++ {
		if i > 2*len(data)+4 {
			t.Fatalf("no end after %d tokens of %d bytes", i, len(data))
		}
		k := s.Next()
		if cap(s.buf) > limit {
			t.Fatalf("buffer of %d bytes past the cap %d", cap(s.buf), maxTok)
		}
		off := s.Offset()
		end := s.base + int64(s.pos)
		if k == EOF {
			if s.Err() == nil {
				t.Fatal("EOF without an error")
			}
			if s.Next() != EOF || s.Err() == nil {
				t.Fatal("EOF is not sticky")
			}
			if s.Truncated() {
				if s.Err() != io.EOF {
					t.Fatalf("truncated with error %v", s.Err())
				}
				if off != prevEnd || off >= int64(len(data)) || data[off] != '<' {
					t.Fatalf("truncated at %d (last token ended at %d), not at a '<'", off, prevEnd)
				}
			} else if s.Err() == io.EOF && prevEnd != int64(len(data)) {
				t.Fatalf("io.EOF after %d of %d bytes", prevEnd, len(data))
			}
			if errors.Is(s.Err(), ErrTokenCap) && int64(len(data))-prevEnd < int64(maxTok) {
				t.Fatalf("token cap %d with only %d bytes left", maxTok, int64(len(data))-prevEnd)
			}
			return toks, s.Err()
		}
		if off != prevEnd {
			t.Fatalf("token %d (%v) at %d, the last one ended at %d", i, k, off, prevEnd)
		}
		if end <= off {
			t.Fatalf("token %d (%v) at %d is empty (next at %d)", i, k, off, end)
		}
		if end-off > int64(limit) {
			t.Fatalf("token of %d bytes past the cap %d", end-off, maxTok)
		}
		raw := data[off:end]
		slice("name", s.Name(), off, end)
		slice("text", s.Text(), off, end)
		for _, a := range s.Attrs() {
			slice("attr name", a.Name, off, end)
			slice("attr value", a.Value, off, end)
		}
		checkShape(t, k, raw, s)
		if b, boff := s.Unread(); boff != end || !bytes.Equal(b, data[end:end+int64(len(b))]) {
			t.Fatalf("Unread at %d, %q; want the input at %d", boff, b, end)
		}
		// The decoder asks Pos for the offsets of tokens in order, and for
		// an element's start after later tokens.
		for _, o := range []int64{off, off + (end-off)/2} {
			wl, wc := nl.pos(o)
			if line, col := s.Pos(o); line != wl || col != wc {
				t.Fatalf("Pos(%d) = %d:%d, want %d:%d", o, line, col, wl, wc)
			}
		}
		tk := tok{kind: k, off: off, end: end, name: string(s.Name()), text: string(s.Text()), self: s.SelfClosing()}
		if s.Syntax() != "" {
			tk.syntax = []string{s.Syntax()}
		}
		for _, a := range s.Attrs() {
			tk.attrs = append(tk.attrs, Attr{Name: bytes.Clone(a.Name), Value: bytes.Clone(a.Value)})
		}
		toks = append(toks, tk)
		prevEnd = end
	}
}

// checkShape checks that the token's bytes raw start with the markup of
// its kind and that its name and text sit where that markup puts them.
func checkShape(t *testing.T, k Kind, raw []byte, s *Scanner) {
	t.Helper()
	name, text := s.Name(), s.Text()
	fail := func(why string) {
		t.Fatalf("%v token %q (name %q, text %q, syntax %q): %s", k, raw, name, text, s.Syntax(), why)
	}
	switch k {
	case StartTag:
		if !bytes.HasPrefix(raw[1:], name) || raw[0] != '<' || len(name) == 0 {
			fail("not <name")
		}
		if s.Syntax() != "tag not closed with '>'" && raw[len(raw)-1] != '>' {
			fail("does not end with '>'")
		}
		if s.SelfClosing() && !bytes.HasSuffix(raw, []byte("/>")) {
			fail("self-closing without />")
		}
	case EndTag:
		if !bytes.HasPrefix(raw, []byte("</")) || !bytes.HasPrefix(raw[2:], name) || raw[len(raw)-1] != '>' {
			fail("not </name>")
		}
	case Text:
		if !bytes.Equal(raw, text) {
			fail("text is not the whole token")
		}
		if s.Syntax() == "" && bytes.IndexByte(raw, '<') >= 0 {
			fail("text holds a '<'")
		}
	case CDATA:
		if !bytes.HasPrefix(raw, []byte("<![CDATA[")) || !bytes.HasSuffix(raw, []byte("]]>")) || !bytes.Equal(raw[9:len(raw)-3], text) {
			fail("not <![CDATA[text]]>")
		}
	case Comment:
		if s.Syntax() == "" {
			if !bytes.HasPrefix(raw, []byte("<!--")) || !bytes.HasSuffix(raw, []byte("-->")) || !bytes.Equal(raw[4:len(raw)-3], text) {
				fail("not <!--text-->")
			}
		} else if !bytes.HasPrefix(raw, []byte("<!")) || !bytes.Equal(raw[2:len(raw)-1], text) || raw[len(raw)-1] != '>' {
			fail("not <!text>")
		}
	case PI:
		if !bytes.HasPrefix(raw, []byte("<?")) || !bytes.HasSuffix(raw, []byte("?>")) || !bytes.Equal(raw[2:len(raw)-2], append(append([]byte{}, name...), text...)) {
			fail("not <?name text?>")
		}
	case Doctype:
		if !bytes.HasPrefix(raw, []byte("<!")) || !bytes.Equal(raw[2:len(raw)-1], text) || raw[len(raw)-1] != '>' || !bytes.EqualFold(text[:7], []byte("DOCTYPE")) {
			fail("not <!DOCTYPE…>")
		}
	default:
		fail("unknown kind")
	}
}

// lines is where the lines of an input start, for Pos's expected values
// in O(log n).
type lines []int64

func newLines(data []byte) lines {
	ls := lines{0}
	for i, c := range data {
		if c == '\n' {
			ls = append(ls, int64(i)+1)
		}
	}
	return ls
}

// pos is the 1-based line and column of off.
func (ls lines) pos(off int64) (line, col int) {
	i := sort.Search(len(ls), func(i int) bool { return ls[i] > off }) // ls[0] = 0 <= off
	return i, int(off-ls[i-1]) + 1
}

// merged joins adjacent text tokens, which the scanner may split where
// its buffer ends (a run of text longer than half the buffer, or cut at
// a read boundary), so that scans with other caps and readers compare.
func merged(toks []tok) []tok {
	var out []tok
	for _, tk := range toks {
		if n := len(out); n > 0 && tk.kind == Text && out[n-1].kind == Text {
			last := &out[n-1]
			last.text += tk.text
			last.end = tk.end
			last.syntax = append(last.syntax, tk.syntax...)
			continue
		}
		out = append(out, tk)
	}
	return out
}

func sameTok(a, b tok) bool {
	if a.kind != b.kind || a.off != b.off || a.end != b.end || a.name != b.name || a.text != b.text || a.self != b.self ||
		len(a.attrs) != len(b.attrs) || len(a.syntax) != len(b.syntax) {
		return false
	}
	for i := range a.attrs {
		if !bytes.Equal(a.attrs[i].Name, b.attrs[i].Name) || !bytes.Equal(a.attrs[i].Value, b.attrs[i].Value) {
			return false
		}
	}
	for i := range a.syntax {
		if a.syntax[i] != b.syntax[i] {
			return false
		}
	}
	return true
}

// FuzzScanner: on any input, with any cap and any reader, the scanner
// keeps scanAll's invariants; its tokens (adjacent text merged) are
// those of a whole-input scan with an unlimited cap, up to where the cap
// or the reader's error stopped it; and where encoding/xml reads the
// input without error, the scanner reads the same tokens at the same
// offsets.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/?a=1&amp;b=2</loc></url></urlset>`,
		"<a x='1' y = \"2\" z/><b>t&lt;<![CDATA[<x>]]></b><!-- c --><?pi  data ?>\r\n</a>",
		`<!DOCTYPE x [<!ENTITY a "b>c">]><x>&a;</x>`,
		"<a b=c d>< x</a <!foo><",
		"<a\n  b='1'\n/>\n\ntext\n<!--",
		"<url><loc>",
		"<![CDAT",
		"<!doctype html><html>",
		"<a/b>x</a>",
		"\xef\xbb\xbf<r>\u00e9&#233;&#xE9;</r>",
	} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, capSel, readSel uint8) {
		want, werr := scanAll(t, data, 1<<20, readWhole)
		if werr != io.EOF {
			t.Fatalf("whole scan ended with %v", werr)
		}
		want = merged(want)
		compareEncodingXML(t, data, want)
		maxTok := fuzzCaps[int(capSel)%len(fuzzCaps)]
		rk := readerKind(int(readSel) % int(numReaders))
		got, err := scanAll(t, data, maxTok, rk)
		got = merged(got)
		switch {
		case err == io.EOF:
		case errors.Is(err, ErrTokenCap), rk == readFail && err == errBoom:
			// A prefix, but its last text may be cut short, or be a '<'
			// taken for the end of the input.
			if n := len(got); n > 0 && got[n-1].kind == Text {
				got = got[:n-1]
			}
			if len(got) > len(want) {
				t.Fatalf("%d tokens before %v, %d in all", len(got), err, len(want))
			}
			want = want[:len(got)]
		default:
			t.Fatalf("scan (cap %d, reader %d) ended with %v", maxTok, rk, err)
		}
		if len(got) != len(want) {
			t.Fatalf("cap %d, reader %d: %d tokens, want %d", maxTok, rk, len(got), len(want))
		}
		for i := range got {
			if !sameTok(got[i], want[i]) {
				t.Fatalf("cap %d, reader %d: token %d is %+v, want %+v", maxTok, rk, i, got[i], want[i])
			}
		}
	})
}

// compareEncodingXML: when encoding/xml reads data token by token
// without error (RawToken, strict, no namespace or nesting checks), the
// scanner found no syntax problem and the same tokens, ending at the same
// offsets, with the same names, attributes and text once entities are
// expanded and line ends normalised as XML does.
func compareEncodingXML(t *testing.T, data []byte, toks []tok) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var xs []xml.Token
	var ends []int64
	for {
		x, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return // not well-formed for encoding/xml: nothing to compare
		}
		xs = append(xs, xml.CopyToken(x))
		ends = append(ends, d.InputOffset())
	}
	// Our text runs are merged (see merged); encoding/xml does not split
	// one either, and gives a CDATA section as a CharData of its own.
	ours := toks
	for _, x := range xs {
		if _, ok := x.(xml.Directive); ok {
			// encoding/xml reads any <!…> as a directive, with its own
			// rules for nested '<' '>': the token ends may differ.
			return
		}
	}
	// encoding/xml returns a self-closing tag as a start and an end.
	var xs2 []xml.Token
	var ends2 []int64
	for i := 0; i < len(xs); i++ {
		xs2, ends2 = append(xs2, xs[i]), append(ends2, ends[i])
		if _, ok := xs[i].(xml.StartElement); ok && i+1 < len(xs) && ends[i+1] == ends[i] {
			i++ // the EndElement of <x/>, at the same offset
		}
	}
	if len(xs2) != len(ours) {
		t.Fatalf("encoding/xml reads %d tokens %v, the scanner %d %+v", len(xs2), xs2, len(ours), ours)
	}
	for i, x := range xs2 {
		o := ours[i]
		if len(o.syntax) > 0 {
			t.Fatalf("token %d %+v: syntax problem %q in well-formed XML", i, o, o.syntax)
		}
		if o.end != ends2[i] {
			t.Fatalf("token %d %+v ends at %d, encoding/xml's at %d", i, o, o.end, ends2[i])
		}
		bad := func(why string) { t.Fatalf("token %d: %+v, encoding/xml %#v: %s", i, o, x, why) }
		switch x := x.(type) {
		case xml.StartElement:
			if o.kind != StartTag || o.name != qname(x.Name) || len(o.attrs) != len(x.Attr) {
				bad("start tag")
			}
			for j, a := range x.Attr {
				v, ok := xmlText(string(o.attrs[j].Value))
				if string(o.attrs[j].Name) != qname(a.Name) || ok && v != a.Value {
					bad("attribute " + strconv.Itoa(j))
				}
			}
		case xml.EndElement:
			if o.kind != EndTag || o.name != qname(x.Name) {
				bad("end tag")
			}
		case xml.CharData:
			if o.kind == CDATA {
				if normalizeEOL(o.text) != string(x) {
					bad("CDATA")
				}
				break
			}
			if v, ok := xmlText(o.text); o.kind != Text || ok && v != string(x) {
				bad("text")
			}
		case xml.Comment:
			if o.kind != Comment || o.text != string(x) {
				bad("comment")
			}
		case xml.ProcInst:
			if o.kind != PI || o.name != x.Target || string(bytes.TrimLeft([]byte(o.text), " \t\r\n")) != string(x.Inst) {
				bad("processing instruction")
			}
		}
	}
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// xmlText expands the five predefined entities and character references
// of raw text and normalises line ends (CRLF and CR to LF), as an XML
// reader does; ok is false for a reference it does not know.
func xmlText(raw string) (string, bool) {
	raw = normalizeEOL(raw)
	var b []byte
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '&' {
			b = append(b, c)
			continue
		}
		j := bytes.IndexByte([]byte(raw[i:]), ';')
		if j < 0 {
			return "", false
		}
		ref := raw[i+1 : i+j]
		i += j
		switch ref {
		case "lt":
			b = append(b, '<')
		case "gt":
			b = append(b, '>')
		case "amp":
			b = append(b, '&')
		case "apos":
			b = append(b, '\'')
		case "quot":
			b = append(b, '"')
		default:
			var n uint64
			var err error
			switch {
			case len(ref) > 2 && ref[:2] == "#x":
				n, err = strconv.ParseUint(ref[2:], 16, 32)
			case len(ref) > 1 && ref[0] == '#':
				n, err = strconv.ParseUint(ref[1:], 10, 32)
			default:
				return "", false
			}
			if err != nil {
				return "", false
			}
			b = append(b, string(rune(n))...)
		}
	}
	return string(b), true
}

func normalizeEOL(s string) string {
	b := bytes.ReplaceAll([]byte(s), []byte("\r\n"), []byte("\n"))
	return string(bytes.ReplaceAll(b, []byte("\r"), []byte("\n")))
}

// FuzzNextLine: lines are the input's bytes at the offsets reported,
// each followed in the input by LF, CRLF or the end; together they are
// the whole input, whatever the reader; a line longer than the cap stops
// the scanner with ErrTokenCap.
func FuzzNextLine(f *testing.F) {
	for _, s := range []string{"https://e.com/a\r\nhttps://e.com/b\n\nc", "\r", "\n\n", "no newline", "a\r\r\nb"} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, capSel, readSel uint8) {
		maxTok := fuzzCaps[int(capSel)%len(fuzzCaps)]
		rk := readerKind(int(readSel) % int(numReaders))
		s := New(newReader(data, rk), maxTok)
		var next int64
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("no end after %d lines", i)
			}
			line, off, ok := s.NextLine()
			if !ok {
				switch err := s.Err(); {
				case err == io.EOF:
					if next != int64(len(data)) {
						t.Fatalf("io.EOF after %d of %d bytes", next, len(data))
					}
				case errors.Is(err, ErrTokenCap):
					if rest := int64(len(data)) - next; rest < int64(maxTok) || bytes.IndexByte(data[next:next+int64(maxTok)-1], '\n') >= 0 {
						t.Fatalf("cap %d at %d with a shorter line ahead: %q", maxTok, next, data[next:])
					}
				case rk == readFail && err == errBoom:
				default:
					t.Fatalf("stopped with %v", err)
				}
				if off != next {
					t.Fatalf("stopped at %d, the last line ended at %d", off, next)
				}
				return
			}
			if off != next {
				t.Fatalf("line %d at %d, want %d", i, off, next)
			}
			end := off + int64(len(line))
			if !bytes.Equal(data[off:end], line) || bytes.IndexByte(line, '\n') >= 0 {
				t.Fatalf("line %q at %d is not the input's", line, off)
			}
			rest := data[end:]
			switch {
			case bytes.HasPrefix(rest, []byte("\n")):
				next = end + 1
			case bytes.HasPrefix(rest, []byte("\r\n")):
				next = end + 2
			case string(rest) == "\r":
				next = end + 1
			case len(rest) == 0:
				next = end
			default:
				t.Fatalf("line %q at %d followed by %q", line, off, rest)
			}
			if l, c := s.Pos(off); l != i+1 || c != 1 {
				t.Fatalf("Pos(%d) = %d:%d, want %d:1", off, l, c, i+1)
			}
		}
	})
}
