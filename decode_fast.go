package sitemap

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// This file holds the decoder's fast paths. Each one handles only the
// common, clean shape of its input and falls back to the general code for
// everything else, so behaviour (entries, diagnostics, their order and
// positions) is the same with or without it; decode_fast_test.go checks
// that by decoding inputs both ways (Decoder.noFast).

// readPlainURL reads one whole <url> element of a urlset straight from the
// scanner's buffer, without producing tokens.
//
// It assumes: a urlset whose root is the only open element; a <url> with no
// attributes whose children are unprefixed <loc>, <lastmod>, <changefreq>,
// <priority> start tags without attributes, each at most once and in that
// order (so cannot fire), each holding plain text (no CDATA,
// comment or child element) and closed by its exact end tag; only XML white
// space between the elements (so XML-04 cannot fire); the whole element in
// the buffer. The scan checks all that first and changes nothing while it
// does. If any assumption fails it returns false with the scanner where the
// general loop (xmlNext) picks up, at the '<' of the element or where it
// started: the only thing it may have consumed is white space before a
// '<', which the general path ignores at this level too.
//
// Once the element is known to have that shape it runs the same handlers
// the general loop would (entryStart, coreLeaf, unescape, leafEnd,
// entryEnd), in the same order, so every value check and diagnostic (E-01,
// E-03, X-01, X-04, X-12, M-01, C-01, P-01 …) is exactly the general one.
func (x *xmlReader) readPlainURL() bool {
	s := x.s
	if len(x.stack) != 1 || x.stack[0].kind != ekRoot || x.d.format != FormatURLSet || x.d.opt.MaxDepth < 3 {
		return false
	}
	// Unprefixed children must be protocol elements (core); a default
	// namespace other than the sitemap one goes the general way. The
	// bindings in scope at this depth are the root's, so the answer holds
	// for the whole root element.
	if root := x.stack[0].off + 1; x.fastRoot != root {
		k, _, _ := x.resolve(nil, 0)
		x.fastRoot, x.fastCore = root, x.core(k)
	}
	if !x.fastCore {
		return false
	}
	var leaves [4]plainLeaf
	b, base := s.Unread()
	p := 0
	for p < len(b) && xmlSpace[b[p]] {
		p++
	}
	if p == len(b) {
		// Blanks up to the end of the buffer: leave them to the scanner,
		// which joins them with what follows (a text diagnostic, if any,
		// then points at their start).
		return false
	}
	if b[p] != '<' {
		return false
	}
	s.Skip(p) // blank text at the root level is ignored (see text)
	b, base = b[p:], base+int64(p)
	end, n, st := scanPlainURL(b, x.d.opt.MaxLineBytes, &leaves)
	switch st {
	case plainNo:
		return false
	case plainShort:
		// Incomplete in the buffer: the general path reads on. (Reading
		// here would change when the scanner meets the end of the input,
		// and with it how a truncated tag is reported.)
		return false
	}
	x.commitPlainURL(b[:end], base, leaves[:n])
	s.Skip(end)
	x.entryEnd(&frame{kind: ekURL, off: base})
	return true
}

// xmlSpace marks XML white space (scanIsSpace) for the fast path's loops.
var xmlSpace = [256]bool{' ': true, '\n': true, '\t': true, '\r': true}

// skipXMLSpace returns the index of the first byte at or after q that is
// not XML white space. Indentation ("\n" and spaces) is skipped eight bytes
// at a time: nz marks, exactly and without carries between bytes, the bytes
// that differ from the one repeated in its argument's pattern. A tab or CR
// stops the word step and the byte loop finishes.
func skipXMLSpace(b []byte, q int) int {
	const ones7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	nz := func(t uint64) uint64 { return ((t & ones7) + ones7 | t) & hi }
	for q+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[q:])
		other := nz(w^0x2020202020202020) & nz(w^0x0a0a0a0a0a0a0a0a)
		if other == 0 {
			q += 8
			continue
		}
		q += bits.TrailingZeros64(other) >> 3
		break
	}
	for q < len(b) && xmlSpace[b[q]] {
		q++
	}
	return q
}

// plainLeaf is one child of a <url> found by scanPlainURL: its field,
// the offset of its '<' and of its value, which is b[vs:ve] (still escaped).
type plainLeaf struct {
	field      leafField
	at, vs, ve int32
}

// plainLeafNames are the local names, ranks and tag lengths of the <url>
// children the fast path reads, by field.
var plainLeafNames = [...]struct {
	name string
	rank int
}{fLoc: {"loc", 1}, fLastmod: {"lastmod", 2}, fChangefreq: {"changefreq", 3}, fPriority: {"priority", 4}}

// Results of scanPlainURL.
const (
	plainOK    = iota
	plainNo    // not the simple shape: use the general path
	plainShort // the buffer ends inside the element
)

// scanPlainURL checks that b starts with a <url> element of the shape
// readPlainURL handles and returns the index after its end tag and its
// leaves.
// It has no side effects. Tags are compared as constants, which the
// compiler turns into a load and compare or two.
func scanPlainURL(b []byte, maxVal int, leaves *[4]plainLeaf) (end, n, status int) {
	if len(b) > 1<<31-1 {
		return 0, 0, plainNo // offsets are kept in int32
	}
	if len(b) < len("<url>") {
		return 0, 0, plainShort // (or not a <url>: the general path sorts it out)
	}
	if string(b[:5]) != "<url>" {
		return 0, 0, plainNo
	}
	q := 5
	rank := 0
	for {
		q = skipXMLSpace(b, q)
		// The longest open tag is 12 bytes. With less left the element
		// is incomplete (or ends the document: "</url>\n</urlset>" is
		// longer); the general path reads on.
		if len(b)-q < 12 {
			return 0, 0, plainShort
		}
		if b[q] != '<' {
			return 0, 0, plainNo // text inside <url>: general path (XML-04 or bare loc)
		}
		var field leafField
		var nl int // length of the local name
		switch {
		case string(b[q:q+5]) == "<loc>":
			field, nl = fLoc, 3
		case string(b[q:q+9]) == "<lastmod>":
			field, nl = fLastmod, 7
		case string(b[q:q+12]) == "<changefreq>":
			field, nl = fChangefreq, 10
		case string(b[q:q+10]) == "<priority>":
			field, nl = fPriority, 8
		case string(b[q:q+6]) == "</url>":
			return q + 6, n, plainOK
		default:
			return 0, 0, plainNo
		}
		// Strictly rising ranks: no child twice, none out of
		// order.
		if r := plainLeafNames[field].rank; r > rank {
			rank = r
		} else {
			return 0, 0, plainNo
		}
		vs := q + nl + 2
		i := bytes.IndexByte(b[vs:], '<')
		if i < 0 {
			return 0, 0, plainShort
		}
		if i > maxVal {
			return 0, 0, plainNo // LIM-04 is the general path's to report
		}
		ve := vs + i
		if len(b)-ve < nl+3 {
			return 0, 0, plainShort
		}
		var closed bool
		switch field {
		case fLoc:
			closed = string(b[ve:ve+6]) == "</loc>"
		case fLastmod:
			closed = string(b[ve:ve+10]) == "</lastmod>"
		case fChangefreq:
			closed = string(b[ve:ve+13]) == "</changefreq>"
		case fPriority:
			closed = string(b[ve:ve+11]) == "</priority>"
		}
		if !closed {
			return 0, 0, plainNo // markup inside the value, or another end tag
		}
		leaves[n] = plainLeaf{field: field, at: int32(q), vs: int32(vs), ve: int32(ve)}
		n++
		q = ve + nl + 3
	}
}

// commitPlainURL runs, for the <url> element b (starting at the absolute
// offset base) checked by scanPlainURL, the handlers the general loop runs
// for its tokens up to its end tag; the caller then consumes b and ends
// the entry (entryEnd).
func (x *xmlReader) commitPlainURL(b []byte, base int64, leaves []plainLeaf) {
	end := len(b)
	uf := frame{kind: ekSkip, off: base}
	x.entryStart(&uf, ekURL)
	// amp is the next '&' at or after the current value (or end): one
	// search usually serves every value of the element.
	amp := end
	if len(leaves) > 0 {
		amp = indexByteOr(b[leaves[0].vs:end], '&', end-int(leaves[0].vs)) + int(leaves[0].vs)
	}
	for i := range leaves {
		lf := &leaves[i]
		// What coreLeaf does for a child that is neither repeated nor out
		// of order (scanPlainURL made sure): mark it seen, raise the rank.
		x.has |= 1 << lf.field
		x.rank = plainLeafNames[lf.field].rank
		f := frame{kind: ekLeaf, field: lf.field, off: base + int64(lf.at)}
		raw := b[lf.vs:lf.ve]
		if amp < int(lf.vs) {
			amp = indexByteOr(b[lf.vs:end], '&', end-int(lf.vs)) + int(lf.vs)
		}
		if amp < int(lf.ve) {
			// The five predefined entities are replaced here; any other
			// reference (or a bare '&') goes to unescape, which reports it
			// (E-01, E-03, XML-03) exactly as the general path does.
			var ok bool
			if x.acc, ok = unescapePredefined(x.acc[:0], raw); !ok {
				x.acc = x.unescape(x.acc[:0], raw, base+int64(lf.vs))
			}
			raw = x.acc
		}
		// Without a reference the value is the text itself: no copy. The
		// name is the one in the open tag, also still in the buffer.
		x.leafValue(&f, raw, b[lf.at+1:lf.at+1+int32(len(plainLeafNames[lf.field].name))])
	}
}

// indexByteOr is bytes.IndexByte with none reported as def.
func indexByteOr(b []byte, c byte, def int) int {
	if i := bytes.IndexByte(b, c); i >= 0 {
		return i
	}
	return def
}

// unescapePredefined appends raw to dst with the five predefined entities
// (&amp; &lt; &gt; &apos; &quot;) replaced. ok is false for any other '&'
// (a character reference, another entity, a bare '&'), which the caller
// leaves to unescape.
func unescapePredefined(dst, raw []byte) ([]byte, bool) {
	for {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return append(dst, raw...), true
		}
		dst = append(dst, raw[:i]...)
		raw = raw[i:]
		switch {
		case len(raw) >= 5 && string(raw[:5]) == "&amp;":
			dst, raw = append(dst, '&'), raw[5:]
		case len(raw) >= 4 && string(raw[:4]) == "&lt;":
			dst, raw = append(dst, '<'), raw[4:]
		case len(raw) >= 4 && string(raw[:4]) == "&gt;":
			dst, raw = append(dst, '>'), raw[4:]
		case len(raw) >= 6 && string(raw[:6]) == "&quot;":
			dst, raw = append(dst, '"'), raw[6:]
		case len(raw) >= 6 && string(raw[:6]) == "&apos;":
			dst, raw = append(dst, '\''), raw[6:]
		default:
			return dst, false
		}
	}
}

// printableASCII reports whether every byte of v is printable ASCII
// (0x20–0x7E), eight bytes at a time. Such a value needs none of the checks
// of checkChars (no control character, nothing to validate as UTF-8) and
// none of refuseLoc's control check (not even DEL).
func printableASCII(v []byte) bool {
	const lo, one, hi = 0x2020202020202020, 0x0101010101010101, 0x8080808080808080
	// A byte < 0x20 borrows and sets its top bit in w-lo; a byte >= 0x80
	// has it set in w; 0x7F (DEL) sets it in w+one. Without such a byte
	// there is no borrow or carry across bytes, so a clean word leaves
	// every top bit clear.
	n := len(v)
	if n < 8 {
		for _, c := range v {
			if c < 0x20 || c >= 0x7f {
				return false
			}
		}
		return true
	}
	var acc uint64
	i := 0
	for ; i+16 <= n; i += 16 {
		w1 := binary.LittleEndian.Uint64(v[i:])
		w2 := binary.LittleEndian.Uint64(v[i+8:])
		acc |= w1 | (w1 - lo) | (w1 + one) | w2 | (w2 - lo) | (w2 + one)
	}
	if i+8 <= n {
		w := binary.LittleEndian.Uint64(v[i:])
		acc |= w | (w - lo) | (w + one)
	}
	// The last 8 bytes, overlapping what the loop saw.
	w := binary.LittleEndian.Uint64(v[n-8:])
	acc |= w | (w - lo) | (w + one)
	return acc&hi == 0
}
