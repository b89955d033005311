// Package xmlscan is the sitemap decoder's XML tokenizer, modelled on
// golang.org/x/net/html's Tokenizer: it reads into one buffer and returns
// tokens as slices into it, valid until the next call; callers use its
// methods. It never expands entities (the decoder unescapes the five
// predefined and numeric ones) and never reads a DTD: a DOCTYPE is returned
// as one opaque token. It also splits text input into lines, and maps
// offsets to lines and columns.
package xmlscan

import (
	"bytes"
	"errors"
	"io"
)

// Kind is the kind of a token.
type Kind uint8

// The kinds of tokens.
const (
	EOF      Kind = iota // end of input, or a read error (see Scanner.Err)
	StartTag             // <name attr="v">, or <name/> (SelfClosing)
	EndTag               // </name>
	Text                 // character data, still escaped
	CDATA                // the content of <![CDATA[…]]>
	Comment              // the content of <!--…-->, or an unknown <!…> (Syntax says so)
	PI                   // <?name text?>
	Doctype              // <!DOCTYPE …>: Text is "DOCTYPE …"
)

// Attr is one attribute of a start tag; Name is qualified, Value is the
// raw (still escaped) text between the quotes.
type Attr struct {
	Name  []byte
	Value []byte
}

// ErrTokenCap is the scanner's error when one token (a tag, a comment, a
// text line) does not fit in the cap given to New.
var ErrTokenCap = errors.New("token longer than the cap")

const initialBuf = 64 << 10

// A Scanner returns the tokens of an XML document, or the lines of a text
// one, read from an io.Reader. Slices it returns are valid until the next
// call that reads (Next, NextLine).
type Scanner struct {
	r      io.Reader
	buf    []byte // valid data is buf[:len(buf)]
	pos    int    // next unread byte
	base   int64  // absolute offset of buf[0]
	err    error  // sticky read error (io.EOF at the end)
	maxTok int    // largest token kept whole in the buffer
	chunk  int    // text runs longer than this are returned in pieces
	fills  int    // calls of more that read (the work of rescanning tokens)

	// Newline accounting: lines are counted lazily up to lineOff.
	lineOff   int64
	line      int   // 1-based line of lineOff
	lineStart int64 // absolute offset of the first byte of that line

	// The current token.
	kind      Kind
	off       int64 // absolute offset of the token's first byte
	name      []byte
	attrs     []Attr
	selfClose bool
	text      []byte
	midToken  bool   // input ended (or failed) in the middle of a token
	syntax    string // a recovered syntax problem in this token
}

// New returns a scanner reading r that keeps tokens (and lines) of up to
// maxTok bytes whole; a longer one stops it with ErrTokenCap.
func New(r io.Reader, maxTok int) *Scanner {
	size := initialBuf
	if maxTok < size {
		size = maxTok
	}
	if size < 16 {
		size = 16
	}
	chunk := size / 2
	if chunk > 32<<10 {
		chunk = 32 << 10
	}
	return &Scanner{r: r, buf: make([]byte, 0, size), maxTok: maxTok, chunk: chunk, line: 1}
}

// advanceLines counts newlines up to the absolute offset to (which must be
// in the buffer and not before lineOff).
func (s *Scanner) advanceLines(to int64) {
	if to <= s.lineOff {
		return
	}
	seg := s.buf[s.lineOff-s.base : to-s.base]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		s.line += n
		s.lineStart = s.lineOff + int64(bytes.LastIndexByte(seg, '\n')) + 1
	}
	s.lineOff = to
}

// Pos returns the 1-based line and byte column of the absolute offset
// off. Offsets are normally asked for in order; an earlier one still in the
// buffer is found by counting backwards. For an offset already discarded
// from the buffer Pos returns the current line and column 0 (the line is
// not known: a caller that needs an early position asks for it while its
// token is current); for one on a line that began before the buffer, its
// line and column 0.
func (s *Scanner) Pos(off int64) (line, col int) {
	if off >= s.lineOff {
		if max := s.base + int64(len(s.buf)); off > max {
			off = max
		}
		s.advanceLines(off)
		return s.line, int(off-s.lineStart) + 1
	}
	if off < s.base {
		return s.line, 0
	}
	p := int(off - s.base)
	n := bytes.Count(s.buf[p:s.lineOff-s.base], []byte{'\n'})
	if n == 0 {
		return s.line, int(off-s.lineStart) + 1
	}
	if i := bytes.LastIndexByte(s.buf[:p], '\n'); i >= 0 {
		return s.line - n, p - i
	}
	if s.base == 0 { // the first line, still in the buffer
		return 1, p + 1
	}
	return s.line - n, 0
}

// more moves the current token (from s.pos) to the front of the buffer and
// reads more input, growing the buffer up to maxTok. It reports whether
// new bytes arrived; when not, s.err says why. It returns once it has read
// as many bytes as the token held, the buffer is full, or the reader
// fails; after 100 empty reads in a row, with io.ErrNoProgress if nothing
// came.
func (s *Scanner) more() bool {
	if s.err != nil {
		return false
	}
	if keep := s.pos; keep > 0 {
		s.advanceLines(s.base + int64(keep))
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.base += int64(keep)
		s.pos = 0
	}
	if len(s.buf) == cap(s.buf) {
		if cap(s.buf) >= s.maxTok {
			s.err = ErrTokenCap
			return false
		}
		nc := 2 * cap(s.buf)
		if nc > s.maxTok {
			nc = s.maxTok
		}
		nb := make([]byte, len(s.buf), nc)
		copy(nb, s.buf)
		s.buf = nb
	}
	// Read at least as many bytes as the unfinished token holds (or to a
	// full buffer): the caller scans the token again from its start, so a
	// reader that returns a few bytes at a time (a gzip stream of tiny
	// blocks) would otherwise cost time quadratic in the token's length.
	want, got := len(s.buf), 0
	s.fills++
	for empty := 0; empty < 100; {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		got += n
		if err != nil {
			s.err = err
			return got > 0
		}
		if n == 0 {
			empty++
			continue
		}
		if got >= want || len(s.buf) == cap(s.buf) {
			return true
		}
	}
	if got > 0 {
		return true
	}
	s.err = io.ErrNoProgress
	return false
}

// nameByte marks bytes allowed in XML names (ASCII subset plus every
// non-ASCII byte, so UTF-8 names pass); nameStart those that may begin one.
var nameByte, nameStart = func() (nb, ns [256]bool) {
	for c := 0; c < 256; c++ {
		start := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
		ns[c] = start
		nb[c] = start || c >= '0' && c <= '9' || c == '-' || c == '.'
	}
	return
}()

// IsSpace reports whether c is XML white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// IsNameByte reports whether c may appear in an XML name (every non-ASCII
// byte may, so UTF-8 names pass).
func IsNameByte(c byte) bool { return nameByte[c] }

// IsNameStart reports whether c may begin an XML name.
func IsNameStart(c byte) bool { return nameStart[c] }

// Next scans the next token and returns its kind. At EOF, Err says why
// (io.EOF at the end of the input) and Truncated whether the input ended
// inside a token.
func (s *Scanner) Next() Kind {
	s.name, s.text, s.attrs, s.selfClose, s.syntax = nil, nil, s.attrs[:0], false, ""
	for {
		if s.pos >= len(s.buf) && !s.more() {
			s.kind = EOF
			s.off = s.base + int64(s.pos)
			return EOF
		}
		start := s.pos
		s.off = s.base + int64(start)
		b := s.buf
		if b[start] != '<' {
			i := bytes.IndexByte(b[start:], '<')
			if i >= 0 {
				s.text = b[start : start+i]
				s.pos = start + i
				s.kind = Text
				return Text
			}
			if n := len(b) - start; n < s.chunk && s.err == nil {
				if s.more() {
					continue
				}
			}
			b = s.buf
			start = s.pos
			s.off = s.base + int64(start)
			end := len(b)
			if s.err == nil {
				end = start + safeCut(b[start:end])
			}
			s.text = b[start:end]
			s.pos = end
			s.kind = Text
			return Text
		}
		k, ok := s.markup(start)
		if ok {
			s.kind = k
			return k
		}
		// The token is not complete in the buffer.
		if s.more() {
			continue
		}
		if s.err == io.EOF {
			s.midToken = true
		}
		s.kind = EOF
		return EOF
	}
}

// safeCut returns where a long text run may be cut without splitting a
// character or entity reference ("&amp;").
func safeCut(b []byte) int {
	n := len(b)
	lo := n - 40
	if lo < 0 {
		lo = 0
	}
	if i := bytes.LastIndexByte(b[lo:], '&'); i >= 0 && bytes.IndexByte(b[lo+i:], ';') < 0 && lo+i > 0 {
		return lo + i
	}
	return n
}

// markup scans the token starting with '<' at start. It reports false when
// the token is not yet complete in the buffer.
func (s *Scanner) markup(start int) (Kind, bool) {
	b := s.buf
	if start+1 >= len(b) {
		// Not yet complete; a lone '<' at the end of the input is a
		// truncated token, as "<u" is, however the reads fell.
		return 0, false
	}
	switch c := b[start+1]; {
	case c == '/':
		j := bytes.IndexByte(b[start+2:], '>')
		if j < 0 {
			return 0, false
		}
		name := b[start+2 : start+2+j]
		for len(name) > 0 && IsSpace(name[len(name)-1]) {
			name = name[:len(name)-1]
		}
		s.name = name
		s.pos = start + 3 + j
		return EndTag, true
	case c == '!':
		rest := b[start:]
		if bytes.HasPrefix(rest, []byte("<!--")) {
			j := bytes.Index(rest[4:], []byte("-->"))
			if j < 0 {
				return 0, false
			}
			s.text = rest[4 : 4+j]
			s.pos = start + 4 + j + 3
			return Comment, true
		}
		if bytes.HasPrefix(rest, []byte("<![CDATA[")) {
			j := bytes.Index(rest[9:], []byte("]]>"))
			if j < 0 {
				return 0, false
			}
			s.text = rest[9 : 9+j]
			s.pos = start + 9 + j + 3
			return CDATA, true
		}
		if len(rest) >= 9 && bytes.EqualFold(rest[:9], []byte("<!DOCTYPE")) {
			end, ok := doctypeEnd(rest)
			if !ok {
				return 0, false
			}
			s.text = rest[2 : end-1]
			s.pos = start + end
			return Doctype, true
		}
		if len(rest) < 9 && s.err == nil && (bytes.HasPrefix([]byte("<![CDATA["), rest) || bytes.HasPrefix([]byte("<!--"), rest) ||
			bytes.HasPrefix([]byte("<!DOCTYPE"), bytes.ToUpper(rest))) {
			return 0, false
		}
		// "<!" that starts nothing we know: read to '>' and report it.
		j := bytes.IndexByte(rest, '>')
		if j < 0 {
			return 0, false
		}
		s.syntax = "unknown markup declaration"
		s.text = rest[2:j]
		s.pos = start + j + 1
		return Comment, true
	case c == '?':
		j := bytes.Index(b[start+2:], []byte("?>"))
		if j < 0 {
			return 0, false
		}
		body := b[start+2 : start+2+j]
		k := 0
		for k < len(body) && nameByte[body[k]] {
			k++
		}
		s.name = body[:k]
		s.text = body[k:]
		s.pos = start + 2 + j + 2
		return PI, true
	case nameStart[c]:
		return s.startTag(start)
	default:
		s.syntax = "'<' not followed by a name"
		s.text = b[start : start+1]
		s.pos = start + 1
		return Text, true
	}
}

// doctypeEnd finds the '>' that ends a DOCTYPE, skipping quoted strings
// and an internal subset in brackets. It returns the index after it.
func doctypeEnd(b []byte) (int, bool) {
	depth := 0
	var quote byte
	for i := 2; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			if depth > 0 {
				depth--
			}
		case c == '>' && depth == 0:
			return i + 1, true
		}
	}
	return 0, false
}

// startTag scans "<name attr='v' ...>" or "<name .../>".
func (s *Scanner) startTag(start int) (Kind, bool) {
	b := s.buf
	n := len(b)
	p := start + 1
	for p < n && nameByte[b[p]] {
		p++
	}
	if p == n {
		return 0, false
	}
	s.name = b[start+1 : p]
	s.attrs = s.attrs[:0]
	for {
		for p < n && IsSpace(b[p]) {
			p++
		}
		if p == n {
			return 0, false
		}
		c := b[p]
		if c == '>' {
			p++
			break
		}
		if c == '/' {
			if p+1 == n {
				return 0, false
			}
			if b[p+1] == '>' {
				s.selfClose = true
				p += 2
				break
			}
			s.syntax = "'/' inside a tag"
			p++
			continue
		}
		if c == '<' {
			s.syntax = "tag not closed with '>'"
			break
		}
		if !nameStart[c] {
			s.syntax = "unexpected character in a tag"
			p++
			continue
		}
		as := p
		for p < n && nameByte[b[p]] {
			p++
		}
		an := b[as:p]
		for p < n && IsSpace(b[p]) {
			p++
		}
		if p == n {
			return 0, false
		}
		if b[p] != '=' {
			s.syntax = "attribute without a value"
			s.attrs = append(s.attrs, Attr{Name: an})
			continue
		}
		p++
		for p < n && IsSpace(b[p]) {
			p++
		}
		if p == n {
			return 0, false
		}
		q := b[p]
		if q != '"' && q != '\'' {
			s.syntax = "attribute value without quotes"
			vs := p
			for p < n && !IsSpace(b[p]) && b[p] != '>' {
				p++
			}
			if p == n {
				return 0, false
			}
			s.attrs = append(s.attrs, Attr{Name: an, Value: b[vs:p]})
			continue
		}
		j := bytes.IndexByte(b[p+1:], q)
		if j < 0 {
			return 0, false
		}
		s.attrs = append(s.attrs, Attr{Name: an, Value: b[p+1 : p+1+j]})
		p += j + 2
	}
	s.pos = p
	return StartTag, true
}

// NextLine returns the next line of text input without its line ending
// (LF or CRLF), and the absolute offset of its first byte. ok is false at
// the end of the input or on a read error or cap (see Err).
func (s *Scanner) NextLine() (line []byte, off int64, ok bool) {
	for {
		b := s.buf
		if i := bytes.IndexByte(b[s.pos:], '\n'); i >= 0 {
			line = b[s.pos : s.pos+i]
			off = s.base + int64(s.pos)
			s.pos += i + 1
			return bytes.TrimSuffix(line, []byte{'\r'}), off, true
		}
		if s.more() {
			continue
		}
		if s.err == io.EOF && s.pos < len(s.buf) {
			line = s.buf[s.pos:]
			off = s.base + int64(s.pos)
			s.pos = len(s.buf)
			return bytes.TrimSuffix(line, []byte{'\r'}), off, true
		}
		return nil, s.base + int64(s.pos), false
	}
}

// Offset returns the absolute offset of the current token's first byte
// (at EOF, of where the input ended).
func (s *Scanner) Offset() int64 { return s.off }

// Name returns the qualified name of the current start or end tag, or the
// target of a processing instruction.
func (s *Scanner) Name() []byte { return s.name }

// Text returns the current text, CDATA, comment, DOCTYPE or processing
// instruction's content.
func (s *Scanner) Text() []byte { return s.text }

// Attrs returns the attributes of the current start tag.
func (s *Scanner) Attrs() []Attr { return s.attrs }

// SelfClosing reports whether the current start tag ends with "/>".
func (s *Scanner) SelfClosing() bool { return s.selfClose }

// Syntax returns the syntax problem recovered in the current token, or "".
func (s *Scanner) Syntax() string { return s.syntax }

// Err returns the error that stopped the scanner: io.EOF at the end of the
// input, ErrTokenCap, or the reader's error; nil while it can go on.
func (s *Scanner) Err() error { return s.err }

// Truncated reports whether the input ended (or failed) in the middle of
// a token.
func (s *Scanner) Truncated() bool { return s.midToken }

// Unread returns the buffered input not yet scanned and the absolute
// offset of its first byte, for a caller that reads a common shape
// straight from the buffer (the decoder's fast path). The bytes are valid
// until the next call that reads; Skip consumes them.
func (s *Scanner) Unread() (b []byte, off int64) {
	return s.buf[s.pos:], s.base + int64(s.pos)
}

// Skip consumes the first n bytes of what Unread returned.
func (s *Scanner) Skip(n int) { s.pos += n }
