package sitemap

import (
	"bytes"
	"fmt"
	"io"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"github.com/sitemapkit/sitemap/rules"
)

// elemKind is what an open element is to the decoder.
type elemKind uint8

const (
	ekSkip        elemKind = iota // content ignored (its subtree too)
	ekRoot                        // urlset, sitemapindex, rss, feed
	ekURL                         // <url>
	ekSitemap                     // <sitemap> of an index
	ekLeaf                        // a text value: see frame.field
	ekImage                       // <image:image>
	ekVideo                       // <video:video>
	ekNews                        // <news:news>
	ekPublication                 // <news:publication>
	ekChannel                     // RSS <channel>
	ekItem                        // RSS <item>
	ekEntry                       // Atom <entry>
)

// frame is one open element.
type frame struct {
	kind    elemKind
	field   leafField
	off     int64 // absolute offset of '<'
	nameAt  int32 // qualified name in openElements.names
	nameLen int32
	nsLen   int32  // len(openElements.ns) before this element's declarations
	base    string // Atom: the xml:base in scope
}

// openElements is the element stack: a frame per open element, their
// qualified names in one arena, and the namespace bindings in scope.
type openElements struct {
	stack []frame
	names []byte
	ns    []nsBinding
}

// name returns the qualified name of the open element f.
func (o *openElements) name(f *frame) []byte { return o.names[f.nameAt : f.nameAt+f.nameLen] }

// xmlReader is the XML side of a Decoder: it runs the scanner's tokens (or
// the fast path's <url> elements, decode_fast.go) through the handlers of
// decode_*.go and hands back one entry at a time. Its state comes in
// parts: the open elements (here), the entry being read and its extension
// containers (decode_entry.go, decode_ext.go), what was reported
// (reportState) and the caches of value parsing (decode_value.go).
type xmlReader struct {
	d *Decoder
	s *xmlscan.Scanner

	openElements
	entryState
	reportState
	valueState

	acc []byte // the open leaf's value

	// The document.
	rootKind   nsKind
	rootSeen   bool
	rootLine   int // line of the root element's '<' (asked when it opens: Pos of a discarded offset is not known)
	rootClosed bool
	prolog     bool // still before the root element
	entries    int  // entries seen (kept or not), for X-07/I-08

	out   Item  // the entry xmlNext returns, valid until the next call
	ready bool  // out holds an entry not yet returned
	fatal error // why reading stopped (a *DecodeError)

	fastRoot int64 // 1 + offset of the root whose default namespace readPlainURL checked
	fastCore bool  // whether that namespace makes <url> children protocol elements
}

// reportState is what the XML side remembers of the diagnostics it sent.
type reportState struct {
	reported  map[string]bool // keys of reportOnce
	strayDone bool            // text outside the root was reported
	// The latest reference unescape dropped (XML-03, E-03): 1 + its
	// offset, "entity reference &name; was dropped", and RULE.
	dropOff  int64
	dropName string
	dropRule rules.ID
	drops    int // references dropped so far

}

func (x *xmlReader) init(d *Decoder) {
	x.d = d
	x.s = d.s
	x.prolog = true
	x.stack = make([]frame, 0, 16)
	x.names = make([]byte, 0, 256)
}

func (x *xmlReader) reportOnce(key string, rule rules.ID, sev Severity, off int64, msg string) {
	if x.reported == nil {
		x.reported = make(map[string]bool)
	}
	if x.reported[key] || len(x.reported) > 256 {
		return
	}
	x.reported[key] = true
	x.d.reportAt(rule, sev, off, msg)
}

// report reports a finding under rule at the book's severity for it.
func (x *xmlReader) report(rule rules.ID, off int64, msg string) {
	x.d.reportAt(rule, rule.Severity(), off, msg)
}

// reportAs reports at the severity sev the call chooses: a rule the
// decoder reports at another severity than the book's on purpose (X-12
// around a value is an error where the schema fails, LG-03 a warning
// since the entry is read anyway), or a rule held in a variable.
func (x *xmlReader) reportAs(rule rules.ID, sev Severity, off int64, msg string) {
	x.d.reportAt(rule, sev, off, msg)
}

// skip reports an error about the entry (item) being read, which is left
// out: the diagnostic's Skipped is set.
func (x *xmlReader) skip(rule rules.ID, off int64, msg string) {
	x.d.sendAt(rule, SeverityError, true, off, msg)
}

// xmlNext runs the scanner until an entry is complete or the input ends.
// The entry it returns is x.out, valid until the next call.
func (d *Decoder) xmlNext() (*Item, error) {
	x := &d.x
	s := d.s
	for {
		// A clean <url> of a urlset is read without tokens (decode_fast.go);
		// anything else, and every other element, goes through the scanner.
		if !d.noFast && x.readPlainURL() {
			if x.fatal != nil {
				return nil, x.fatal
			}
			if x.ready {
				// x.out is valid until the next call; the next entry
				// overwrites all of it.
				x.ready = false
				return &x.out, nil
			}
			continue
		}
		switch s.Next() {
		case xmlscan.EOF:
			return nil, x.eof()
		case xmlscan.StartTag:
			x.start()
		case xmlscan.EndTag:
			x.end()
		case xmlscan.Text:
			if s.Syntax() != "" {
				x.report(RuleXMLSyntax, s.Offset(), s.Syntax()+"; write '<' as &lt;")
			}
			x.text(s.Text(), s.Offset(), false)
		case xmlscan.CDATA:
			x.text(s.Text(), s.Offset(), true)
		case xmlscan.Comment:
			if s.Syntax() != "" {
				x.report(RuleXMLSyntax, s.Offset(), s.Syntax()+" <!"+shortText(s.Text())+">; ignored")
			}
		case xmlscan.PI:
			if string(s.Name()) == "xml" && (s.Offset() != 0 || !x.prolog) {
				x.report(RuleXMLSyntax, s.Offset(), "an XML declaration <?xml …?> is allowed only at the very start of the document")
			}
		case xmlscan.Doctype:
			x.doctype()
		}
		if x.fatal != nil {
			return nil, x.fatal
		}
		if x.ready {
			x.ready = false
			return &x.out, nil
		}
	}
}

func shortText(b []byte) string {
	if len(b) > 60 {
		b = b[:60]
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func (x *xmlReader) doctype() {
	s := x.s
	body := bytes.TrimSpace(s.Text()[len("DOCTYPE"):])
	if len(body) >= 4 && bytes.EqualFold(body[:4], []byte("html")) {
		x.d.format = FormatHTML
		x.fatal = x.d.fatalAt(rules.F04, s.Offset(), ErrNotSitemap, "this is an HTML page (<!DOCTYPE html>), not a sitemap; check the URL, or whether the server answered with an error or login page")
		return
	}
	if !x.prolog {
		x.report(RuleXMLSyntax, s.Offset(), "a DOCTYPE after the root element has started; ignored")
		return
	}
	x.report(RuleDoctype, s.Offset(), "the document has a DOCTYPE; sitemaps need none. It is ignored: entities it declares are never expanded and nothing it names is fetched")
}

// eof finishes the document at the end of input or a read failure.
func (x *xmlReader) eof() error {
	s := x.s
	if s.Err() != nil && s.Err() != io.EOF {
		return x.d.readFailure(s.Err(), s.Offset())
	}
	if !x.rootSeen {
		return x.d.fatalAt(rules.F04, s.Offset(), ErrNotSitemap, "no root element: the document holds no XML elements")
	}
	if len(x.stack) > 0 {
		top := x.stack[len(x.stack)-1]
		if x.stack[0].kind == ekRoot || len(x.stack) > 1 {
			entries := fmt.Sprintf("%d entries", x.d.count)
			if x.d.count == 1 {
				entries = "1 entry"
			}
			msg := fmt.Sprintf("the document ends inside <%s> (opened at line %d) after %s; it is truncated",
				x.name(&top), x.rootLine, entries)
			if len(x.stack) > 1 {
				// The root's line is known; the inner element's may be
				// far behind the scanner's buffer.
				msg = fmt.Sprintf("the document ends inside <%s>, in the <%s> opened at line %d, after %s; it is truncated",
					x.name(&top), x.name(&x.stack[0]), x.rootLine, entries)
			}
			if s.Truncated() {
				msg = fmt.Sprintf("the document ends in the middle of a tag after %s; it is truncated", entries)
			}
			return x.d.fatalAt(RuleXMLSyntax, s.Offset(), ErrTruncated, msg)
		}
	}
	if s.Truncated() {
		return x.d.fatalAt(RuleXMLSyntax, s.Offset(), ErrTruncated, "the document ends in the middle of a tag")
	}
	return io.EOF
}

// attr returns the raw value of the attribute with the given local name
// (any prefix but xmlns), or nil.
func (x *xmlReader) attr(local string) ([]byte, bool) {
	for _, a := range x.s.Attrs() {
		n := a.Name
		if i := bytes.IndexByte(n, ':'); i >= 0 {
			if string(n[:i]) == "xmlns" {
				continue
			}
			n = n[i+1:]
		}
		if string(n) == local {
			return a.Value, true
		}
	}
	return nil, false
}

// attrString returns an attribute's value unescaped and trimmed.
func (x *xmlReader) attrString(local string) (string, bool) {
	v, ok := x.attr(local)
	if !ok {
		return "", false
	}
	if bytes.IndexByte(v, '&') < 0 {
		return string(bytes.TrimSpace(v)), true
	}
	return string(bytes.TrimSpace(x.unescape(nil, v, x.s.Offset()))), true
}

// push opens a frame for the current start tag.
func (x *xmlReader) push(kind elemKind, nsLen int) *frame {
	name := x.s.Name()
	x.stack = append(x.stack, frame{kind: kind, off: x.s.Offset(), nameAt: int32(len(x.names)), nameLen: int32(len(name)), nsLen: int32(nsLen)})
	x.names = append(x.names, name...)
	return &x.stack[len(x.stack)-1]
}

// start handles a start tag.
func (x *xmlReader) start() {
	s := x.s
	d := x.d
	if len(x.stack) >= d.opt.MaxDepth {
		x.fatal = d.fatalAt(RuleMaxDepth, s.Offset(), ErrLimit, fmt.Sprintf("elements nested deeper than %d; stopped reading: no flag raises this limit; a sitemap needs 5 levels, so fix the document's nesting (a missing closing tag?), or, in a Go program, raise DecoderOptions.MaxDepth", d.opt.MaxDepth))
		return
	}
	if s.Syntax() != "" {
		x.report(RuleXMLSyntax, s.Offset(), fmt.Sprintf("<%s>: %s", shortText(s.Name()), s.Syntax()))
	}
	var parent *frame
	if n := len(x.stack); n > 0 {
		parent = &x.stack[n-1]
		if parent.kind == ekSkip {
			x.push(ekSkip, len(x.ns))
			if s.SelfClosing() {
				x.pop()
			}
			return
		}
	}
	nsLen := len(x.ns)
	for _, a := range s.Attrs() {
		n := a.Name
		if len(n) < 5 || string(n[:5]) != "xmlns" {
			continue
		}
		var prefix string
		if len(n) > 5 {
			if n[5] != ':' {
				continue
			}
			prefix = string(n[6:])
		}
		uri := string(a.Value)
		if bytes.IndexByte(a.Value, '&') >= 0 {
			uri = string(x.unescape(nil, a.Value, s.Offset()))
		}
		k, near := classifyNS(uri)
		x.ns = append(x.ns, nsBinding{prefix: prefix, uri: uri, kind: k, near: near})
	}
	prefix, local := []byte(nil), s.Name()
	if i := bytes.IndexByte(local, ':'); i >= 0 {
		prefix, local = local[:i], local[i+1:]
	}
	kind, near, uri := x.resolve(prefix, s.Offset())
	f := x.push(ekSkip, nsLen)
	if parent == nil {
		x.root(f, kind, near, uri, local)
	} else {
		f.base = parent.base
	}
	if x.d.format == FormatAtom && x.fatal == nil {
		if v, ok := x.attrString("base"); ok && v != "" {
			if r := resolveRef(f.base, v); r != "" {
				f.base = r
			}
		}
	}
	if parent != nil {
		x.child(parent, f, kind, near, uri, local)
	}
	if x.fatal != nil {
		return
	}
	if s.SelfClosing() {
		x.pop()
	}
}

// text handles character data (raw is still escaped unless cdata).
func (x *xmlReader) text(raw []byte, off int64, cdata bool) {
	n := len(x.stack)
	if n == 0 {
		if !isBlank(raw) && !x.strayDone {
			x.strayDone = true
			where := "before the root element"
			if x.rootClosed {
				where = "after the root element"
			}
			x.report(RuleXMLSyntax, off, "text "+where+"; a document holds one root element and nothing else")
		}
		return
	}
	f := &x.stack[n-1]
	switch f.kind {
	case ekLeaf:
		if cdata {
			x.acc = append(x.acc, raw...)
		} else {
			x.acc = x.unescape(x.acc, raw, off)
		}
		if len(x.acc) > x.d.opt.MaxLineBytes {
			x.fatal = x.d.fatalAt(RuleMaxToken, f.off, ErrLimit, fmt.Sprintf("the value of <%s> is longer than %d bytes; stopped reading", shortText(x.name(f)), x.d.opt.MaxLineBytes))
		}
	case ekSkip:
	case ekURL, ekSitemap:
		if !isBlank(raw) && len(x.bare) < 4096 {
			if cdata {
				x.bare = append(x.bare, raw...)
			} else {
				x.bare = x.unescape(x.bare, raw, off)
			}
		}
	default:
		if !isBlank(raw) {
			x.reportOnce("stray", RuleStrayText, SeverityWarning, off, fmt.Sprintf("text directly inside <%s>, which holds only elements; ignored", shortText(x.name(f))))
		}
	}
}

// isBlank reports whether b is only XML white space.
func isBlank(b []byte) bool {
	if len(b) > 64 {
		// Long runs (indentation blocks, padding): vectorised counts.
		n := bytes.Count(b, []byte{' '})
		if n == len(b) {
			return true
		}
		n += bytes.Count(b, []byte{'\n'}) + bytes.Count(b, []byte{'\t'}) + bytes.Count(b, []byte{'\r'})
		return n == len(b)
	}
	for _, c := range b {
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// pop closes the top frame and finishes what it held.
func (x *xmlReader) pop() {
	n := len(x.stack) - 1
	f := x.stack[n]
	x.stack = x.stack[:n]
	x.names = x.names[:f.nameAt]
	x.ns = x.ns[:f.nsLen]
	switch f.kind {
	case ekLeaf:
		x.leafEnd(&f)
	case ekURL, ekSitemap, ekItem, ekEntry:
		x.entryEnd(&f)
	case ekRoot:
		x.rootClosed = true
		if x.entries == 0 {
			switch x.d.format {
			case FormatURLSet:
				x.report(rules.X07, f.off, "the <urlset> holds no <url>; the schema requires at least one (an empty sitemap is best not submitted)")
			case FormatIndex:
				x.report(rules.I08, f.off, "the <sitemapindex> holds no <sitemap>; the schema requires at least one")
			case FormatRSS, FormatAtom:
				x.report(rules.R01, f.off, "the feed holds no entries")
			}
		}
	}
}

// end handles an end tag: well-formed closes the top frame; a mismatch is
// recovered (XML-01) by closing up to a matching open element or ignoring
// the stray end tag.
func (x *xmlReader) end() {
	s := x.s
	n := len(x.stack)
	if n > 0 && bytes.Equal(x.name(&x.stack[n-1]), s.Name()) {
		x.pop()
		return
	}
	for i := n - 2; i >= 0; i-- {
		if bytes.Equal(x.name(&x.stack[i]), s.Name()) {
			x.report(RuleXMLSyntax, s.Offset(), fmt.Sprintf("</%s> closes <%s> that is still open; the document is not well-formed", shortText(s.Name()), shortText(x.name(&x.stack[n-1]))))
			for len(x.stack) > i {
				x.pop()
			}
			return
		}
	}
	if n > 1 {
		// A misspelt end tag: read it as the end of the open element.
		x.report(RuleXMLSyntax, s.Offset(), fmt.Sprintf("end tag </%s> does not match <%s>; read as its end", shortText(s.Name()), shortText(x.name(&x.stack[n-1]))))
		x.pop()
		return
	}
	x.report(RuleXMLSyntax, s.Offset(), fmt.Sprintf("end tag </%s> matches no open element; ignored", shortText(s.Name())))
}
