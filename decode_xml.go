package sitemap

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
)

// nsKind classifies a namespace URI.
type nsKind uint8

const (
	nsNone        nsKind = iota // no namespace
	nsSitemap                   // http://www.sitemaps.org/schemas/sitemap/0.9
	nsLegacy                    // Google's 0.84 (LG-01)
	nsSitemapNear               // a near miss of the 0.9 URI (LG-03)
	nsImage
	nsVideo
	nsNews
	nsXHTML
	nsMobile
	nsPageMap
	nsAtom
	nsAtom03
	nsXML // the xml: prefix
	nsOther
)

// nsShortName names the extension namespaces for messages.
func nsShortName(k nsKind) string {
	switch k {
	case nsImage:
		return "image"
	case nsVideo:
		return "video"
	case nsNews:
		return "news"
	case nsXHTML:
		return "xhtml"
	}
	return ""
}

// classifyNS maps a namespace URI to its kind; near reports a near miss
// (https, a trailing slash, other case, a wrong host) accepted with a
// warning (LG-03, EX-04).
func classifyNS(uri string) (k nsKind, near bool) {
	switch uri {
	case "":
		return nsNone, false
	case NamespaceSitemap:
		return nsSitemap, false
	case NamespaceLegacy:
		return nsLegacy, false
	case NamespaceImage:
		return nsImage, false
	case NamespaceVideo:
		return nsVideo, false
	case NamespaceNews:
		return nsNews, false
	case NamespaceXHTML:
		return nsXHTML, false
	case NamespaceMobile:
		return nsMobile, false
	case NamespacePageMap:
		return nsPageMap, false
	case "http://www.w3.org/2005/Atom":
		return nsAtom, false
	case "http://purl.org/atom/ns#":
		return nsAtom03, false
	case "http://www.w3.org/XML/1998/namespace":
		return nsXML, false
	}
	n := strings.ToLower(strings.TrimSpace(uri))
	n = strings.TrimPrefix(n, "https://")
	n = strings.TrimPrefix(n, "http://")
	n = strings.TrimRight(n, "/")
	n = strings.TrimPrefix(n, "www.")
	switch n {
	case "sitemaps.org/schemas/sitemap/0.9", "google.com/schemas/sitemap/0.9", "sitemaps.org/schemas/sitemap/0.9/sitemap.xsd":
		return nsSitemap, true
	case "google.com/schemas/sitemap/0.84":
		return nsLegacy, true
	case "google.com/schemas/sitemap-image/1.1":
		return nsImage, true
	case "google.com/schemas/sitemap-video/1.1":
		return nsVideo, true
	case "google.com/schemas/sitemap-news/0.9":
		return nsNews, true
	case "w3.org/1999/xhtml":
		return nsXHTML, true
	case "google.com/schemas/sitemap-mobile/1.0":
		return nsMobile, true
	case "google.com/schemas/sitemap-pagemap/1.0":
		return nsPageMap, true
	}
	return nsOther, false
}

type nsBinding struct {
	prefix string
	uri    string
	kind   nsKind
	near   bool
}

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

// leafField names the value a leaf element holds.
type leafField uint8

const (
	fNone leafField = iota
	fLoc
	fLastmod
	fChangefreq
	fPriority
	fImgLoc
	fImgCaption
	fImgGeo
	fImgTitle
	fImgLicense
	fVThumb
	fVTitle
	fVDesc
	fVContent
	fVPlayer
	fVDuration
	fVExpiration
	fVRating
	fVViewCount
	fVPubDate
	fVTag
	fVCategory
	fVFamily
	fVRestriction
	fVGallery
	fVPrice
	fVReqSub
	fVUploader
	fVPlatform
	fVLive
	fNName
	fNLang
	fNAccess
	fNGenres
	fNPubDate
	fNTitle
	fNKeywords
	fNTickers
	fRSSLink
	fRSSGuid
	fRSSPubDate
	fAtomUpdated
	fAtomModified
	fAtomPublished
)

type frame struct {
	kind    elemKind
	field   leafField
	off     int64 // absolute offset of '<'
	nameAt  int32 // qualified name in xmlReader.names
	nameLen int32
	nsLen   int32  // len(xmlReader.ns) before this element's declarations
	base    string // Atom: the xml:base in scope
}

// xmlReader is the XML side of a Decoder.
type xmlReader struct {
	d     *Decoder
	s     *xmlscan.Scanner
	stack []frame
	names []byte
	ns    []nsBinding
	acc   []byte // the open leaf's value

	rootKind   nsKind
	rootSeen   bool
	rootClosed bool
	entries    int // entries seen (kept or not), for X-07/I-08
	reported   map[string]bool
	strayDone  bool

	// The entry being read.
	u        URL
	ix       IndexEntry
	eline    int
	ecol     int
	has      uint64 // core children seen (bits by leafField)
	rank     int    // highest core rank seen (5 = an extension)
	orderBad bool
	bare     []byte // text directly inside <url>/<sitemap>

	// Extension containers of the entry.
	ihas, vhas, nhas, phas          uint64
	irank, vrank, nrank, prank      int
	iorderBad, vorderBad, norderBad bool
	link, guid                      string
	guidPerma                       bool
	feedDate                        Date
	feedDatePrio                    int
	lastDateIn                      string
	lastDate                        Date
	lastIssues                      DateIssue
	lastDateErr                     error
	out                             Item
	ready                           bool
	fatal                           error
	prolog                          bool // still before the root element

	// An empty <loc> of the entry is reported once, with the entry
	// (entryEnd) or when another <loc> follows (coreLeaf): emptyLoc is 1 +
	// its offset, emptyWhy the reference whose dropping emptied it.
	emptyLoc int64
	emptyWhy string
	// The latest reference unescape dropped (XML-03, E-03): 1 + its
	// offset, and "entity reference &name; was dropped (RULE)".
	dropOff  int64
	dropName string

	zones    zoneCache // time-zone offsets of dates (decode_fast.go)
	fastRoot int64     // 1 + offset of the root whose default namespace readPlainURL checked
	fastCore bool      // whether that namespace makes <url> children protocol elements
	prioSlab []float64 // room for the next priorities (newPriority)
}

func (x *xmlReader) init(d *Decoder) {
	x.d = d
	x.s = d.s
	x.prolog = true
	x.stack = make([]frame, 0, 16)
	x.names = make([]byte, 0, 256)
}

func (x *xmlReader) reportOnce(key, rule string, sev Severity, off int64, msg string) {
	if x.reported == nil {
		x.reported = make(map[string]bool)
	}
	if x.reported[key] || len(x.reported) > 256 {
		return
	}
	x.reported[key] = true
	x.d.reportAt(rule, sev, off, msg)
}

func (x *xmlReader) report(rule string, sev Severity, off int64, msg string) {
	x.d.reportAt(rule, sev, off, msg)
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
				x.report(RuleXMLSyntax, SeverityError, s.Offset(), s.Syntax()+"; write '<' as &lt;")
			}
			x.text(s.Text(), s.Offset(), false)
		case xmlscan.CDATA:
			x.text(s.Text(), s.Offset(), true)
		case xmlscan.Comment:
			if s.Syntax() != "" {
				x.report(RuleXMLSyntax, SeverityError, s.Offset(), s.Syntax()+" <!"+shortText(s.Text())+">; ignored")
			}
		case xmlscan.PI:
			if string(s.Name()) == "xml" && (s.Offset() != 0 || !x.prolog) {
				x.report(RuleXMLSyntax, SeverityError, s.Offset(), "an XML declaration <?xml …?> is allowed only at the very start of the document")
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
		x.fatal = x.d.fatalAt("F-04", s.Offset(), ErrNotSitemap, "this is an HTML page (<!DOCTYPE html>), not a sitemap; check the URL, or whether the server answered with an error or login page")
		return
	}
	if !x.prolog {
		x.report(RuleXMLSyntax, SeverityError, s.Offset(), "a DOCTYPE after the root element has started; ignored")
		return
	}
	x.report(RuleDoctype, SeverityWarning, s.Offset(), "the document has a DOCTYPE; sitemaps need none. It is ignored: entities it declares are never expanded and nothing it names is fetched")
}

// eof finishes the document at the end of input or a read failure.
func (x *xmlReader) eof() error {
	s := x.s
	if s.Err() != nil && s.Err() != io.EOF {
		return x.d.readFailure(s.Err(), s.Offset())
	}
	if !x.rootSeen {
		return x.d.fatalAt("F-04", s.Offset(), ErrNotSitemap, "no root element: the document holds no XML elements")
	}
	if len(x.stack) > 0 {
		top := x.stack[len(x.stack)-1]
		if x.stack[0].kind == ekRoot || len(x.stack) > 1 {
			l, c := s.Pos(x.stack[0].off)
			_ = c
			msg := fmt.Sprintf("the document ends inside <%s> (opened at line %d) after %d entries; it is truncated",
				x.name(&top), l, x.d.count)
			if s.Truncated() {
				msg = fmt.Sprintf("the document ends in the middle of a tag after %d entries; it is truncated", x.d.count)
			}
			return x.d.fatalAt(RuleXMLSyntax, s.Offset(), ErrTruncated, msg)
		}
	}
	if s.Truncated() {
		return x.d.fatalAt(RuleXMLSyntax, s.Offset(), ErrTruncated, "the document ends in the middle of a tag")
	}
	return io.EOF
}

func (x *xmlReader) name(f *frame) []byte { return x.names[f.nameAt : f.nameAt+f.nameLen] }

// resolve maps an element prefix to its namespace binding kind.
func (x *xmlReader) resolve(prefix []byte, off int64) (nsKind, bool, string) {
	for i := len(x.ns) - 1; i >= 0; i-- {
		if b := &x.ns[i]; b.prefix == string(prefix) {
			return b.kind, b.near, b.uri
		}
	}
	if len(prefix) == 0 {
		return nsNone, false, ""
	}
	if string(prefix) == "xml" {
		return nsXML, false, ""
	}
	// An undeclared prefix: guess the usual ones (EX-04), else unknown.
	p := string(prefix)
	var k nsKind
	switch p {
	case "image":
		k = nsImage
	case "video":
		k = nsVideo
	case "news":
		k = nsNews
	case "xhtml":
		k = nsXHTML
	case "mobile":
		k = nsMobile
	default:
		x.reportOnce("prefix:"+p, RuleXMLSyntax, SeverityError, off, fmt.Sprintf("the prefix %q is used but never declared with xmlns:%s=…; its elements are ignored", p, p))
		return nsOther, false, ""
	}
	x.reportOnce("prefix:"+p, "EX-04", SeverityError, off, fmt.Sprintf("the prefix %q is used but never declared; read as the %s extension. Declare xmlns:%s=%q on the root element", p, p, p, nsURI(k)))
	return k, false, nsURI(k)
}

func nsURI(k nsKind) string {
	switch k {
	case nsImage:
		return NamespaceImage
	case nsVideo:
		return NamespaceVideo
	case nsNews:
		return NamespaceNews
	case nsXHTML:
		return NamespaceXHTML
	case nsMobile:
		return NamespaceMobile
	}
	return ""
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
		x.fatal = d.fatalAt(RuleMaxDepth, s.Offset(), ErrLimit, fmt.Sprintf("elements nested deeper than %d; stopped reading (a sitemap needs 5 levels; raise MaxDepth to read further)", d.opt.MaxDepth))
		return
	}
	if s.Syntax() != "" {
		x.report(RuleXMLSyntax, SeverityError, s.Offset(), fmt.Sprintf("<%s>: %s", shortText(s.Name()), s.Syntax()))
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

// root handles the root element (F-04, X-02, X-03, LG-02, LG-03).
func (x *xmlReader) root(f *frame, kind nsKind, near bool, uri string, local []byte) {
	d := x.d
	if x.rootClosed {
		x.report(RuleXMLSyntax, SeverityError, f.off, fmt.Sprintf("a second root element <%s> after the first one closed; ignored", shortText(x.s.Name())))
		return
	}
	x.rootSeen = true
	x.prolog = false
	f.base = d.opt.BaseURL
	switch string(local) {
	case "urlset", "sitemapindex":
		if string(local) == "urlset" {
			d.format = FormatURLSet
		} else {
			d.format = FormatIndex
		}
		f.kind = ekRoot
		x.rootKind = kind
		switch {
		case kind == nsSitemap && !near:
		case kind == nsLegacy:
			x.report("LG-02", SeverityWarning, f.off, fmt.Sprintf("legacy namespace %s (Google's pre-2006 protocol); read as %s, which it should be replaced with", NamespaceLegacy, NamespaceSitemap))
		case kind == nsNone:
			x.report("LG-03", SeverityWarning, f.off, fmt.Sprintf("<%s> declares no namespace; read as a sitemap. Add xmlns=%q (X-03)", local, NamespaceSitemap))
		case near && (kind == nsSitemap):
			x.report("LG-03", SeverityWarning, f.off, fmt.Sprintf("namespace %q is a near miss of %q (exact string required, X-03); read as a sitemap", uri, NamespaceSitemap))
		default:
			x.report("X-03", SeverityError, f.off, fmt.Sprintf("<%s> is in namespace %q, not %q; read as a sitemap anyway", local, uri, NamespaceSitemap))
			x.rootKind = kind
		}
	case "rss":
		d.format = FormatRSS
		f.kind = ekRoot
		x.rootKind = kind
		if v, _ := x.attrString("version"); v != "2.0" {
			x.report("R-01", SeverityWarning, f.off, fmt.Sprintf("RSS version %q; feeds used as sitemaps are RSS 2.0 (read as 2.0)", v))
		}
	case "feed":
		d.format = FormatAtom
		f.kind = ekRoot
		x.rootKind = kind
		if kind != nsAtom && kind != nsAtom03 {
			x.report("R-05", SeverityWarning, f.off, fmt.Sprintf("<feed> in namespace %q, not Atom 1.0 (http://www.w3.org/2005/Atom) or 0.3; read as Atom", uri))
		}
	default:
		if l := strings.ToLower(string(local)); l == "html" || l == "head" || l == "body" {
			d.format = FormatHTML
			x.fatal = d.fatalAt("F-04", f.off, ErrNotSitemap, "this is an HTML page, not a sitemap; check the URL, or whether the server answered with an error or login page")
			return
		}
		hint := ""
		if string(local) == "RDF" {
			hint = " (RSS 1.0/RDF is not a sitemap format; use RSS 2.0, Atom or a urlset)"
		}
		x.fatal = d.fatalAt("X-02", f.off, ErrNotSitemap, fmt.Sprintf("the root element is <%s>, not <urlset>, <sitemapindex>, <rss> or <feed>%s; not a sitemap", shortText(x.s.Name()), hint))
	}
}

// core reports whether an element of namespace kind k is a protocol
// element of this document (not an extension).
func (x *xmlReader) core(k nsKind) bool {
	if k == x.rootKind {
		return true
	}
	if x.d.format == FormatURLSet || x.d.format == FormatIndex {
		return k == nsSitemap || k == nsLegacy || k == nsNone
	}
	return false
}

// child handles a start tag whose parent frame is not skipped.
func (x *xmlReader) child(p, f *frame, kind nsKind, near bool, uri string, local []byte) {
	if p.kind == ekLeaf {
		x.report("X-06", SeverityError, f.off, fmt.Sprintf("element <%s> inside <%s>, which holds only text; ignored", shortText(x.s.Name()), shortText(x.name(p))))
		return
	}
	core := x.core(kind)
	if near && !core {
		x.reportOnce("near:"+uri, "EX-04", SeverityWarning, f.off, fmt.Sprintf("namespace %q is a near miss of %q (exact string required); read as the %s extension", uri, nsURI(kind), nsShortName(kind)))
	}
	switch p.kind {
	case ekRoot:
		x.rootChild(f, kind, core, uri, local)
	case ekURL:
		x.urlChild(f, kind, core, uri, local)
	case ekSitemap:
		if core {
			switch string(local) {
			case "loc":
				x.coreLeaf(f, fLoc, 1, "I-08", "<sitemap>")
			case "lastmod":
				x.coreLeaf(f, fLastmod, 2, "I-08", "<sitemap>")
			case "sitemap", "sitemapindex", "urlset":
				x.report("I-07", SeverityError, f.off, fmt.Sprintf("<%s> nested inside <sitemap>; ignored", local))
			default:
				x.report("I-08", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <sitemap>, which holds loc and lastmod; ignored", shortText(x.s.Name())))
			}
			return
		}
		x.rank = 3
		x.extOther(f, kind, uri)
	case ekImage:
		x.imageChild(f, kind, uri, local)
	case ekVideo:
		x.videoChild(f, kind, uri, local)
	case ekNews:
		x.newsChild(f, kind, uri, local)
	case ekPublication:
		if kind != nsNews {
			x.extOther(f, kind, uri)
			return
		}
		switch string(local) {
		case "name":
			x.extLeaf(f, fNName, 1, false, &x.phas, &x.prank, nil, "N-01", "news:publication")
		case "language":
			x.extLeaf(f, fNLang, 2, false, &x.phas, &x.prank, nil, "N-01", "news:publication")
		default:
			x.report("N-01", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <news:publication>, which holds name and language; ignored", shortText(x.s.Name())))
		}
	case ekChannel:
		if core && string(local) == "item" {
			x.entryStart(f, ekItem)
		}
	case ekItem:
		if !core {
			return
		}
		switch string(local) {
		case "link":
			f.kind, f.field = ekLeaf, fRSSLink
			x.acc = x.acc[:0]
		case "guid":
			f.kind, f.field = ekLeaf, fRSSGuid
			x.acc = x.acc[:0]
			v, ok := x.attrString("isPermaLink")
			x.guidPerma = !ok || v == "true"
		case "pubDate":
			f.kind, f.field = ekLeaf, fRSSPubDate
			x.acc = x.acc[:0]
		}
	case ekEntry:
		if !core {
			return
		}
		switch string(local) {
		case "link":
			rel, _ := x.attrString("rel")
			href, ok := x.attrString("href")
			if ok && href != "" && (rel == "" || rel == "alternate") && x.link == "" {
				x.link = resolveRef(f.base, href)
				if x.link == "" {
					x.report("R-05", SeverityError, f.off, fmt.Sprintf("relative link %q and no xml:base or base URL to resolve it against; entry skipped (pass the feed's URL as the base)", href))
				}
			}
		case "updated":
			f.kind, f.field = ekLeaf, fAtomUpdated
			x.acc = x.acc[:0]
		case "modified":
			f.kind, f.field = ekLeaf, fAtomModified
			x.acc = x.acc[:0]
		case "published", "issued":
			f.kind, f.field = ekLeaf, fAtomPublished
			x.acc = x.acc[:0]
		}
	}
}

func (x *xmlReader) rootChild(f *frame, kind nsKind, core bool, uri string, local []byte) {
	d := x.d
	switch d.format {
	case FormatRSS:
		if core && string(local) == "channel" {
			f.kind = ekChannel
		}
		return
	case FormatAtom:
		if core && string(local) == "entry" {
			x.entryStart(f, ekEntry)
		}
		return
	}
	if !core {
		if x.entries > 0 {
			x.report("X-06", SeverityError, f.off, fmt.Sprintf("extension element <%s> between entries; other-namespace elements may only come before the first entry", shortText(x.s.Name())))
		}
		x.extOther(f, kind, uri)
		return
	}
	switch string(local) {
	case "url":
		if d.format == FormatURLSet {
			x.entryStart(f, ekURL)
			return
		}
		x.report("I-02", SeverityError, f.off, "<url> in a <sitemapindex>, which holds <sitemap> entries; ignored")
	case "sitemap":
		if d.format == FormatIndex {
			x.entryStart(f, ekSitemap)
			return
		}
		x.report("X-06", SeverityError, f.off, "<sitemap> in a <urlset>, which holds <url> entries; ignored (an index is a separate <sitemapindex> file)")
	case "sitemapindex":
		x.report("I-07", SeverityError, f.off, "a nested <sitemapindex>; indexes cannot be nested. Ignored")
	case "urlset":
		x.report("X-02", SeverityError, f.off, "a nested <urlset>; ignored")
	default:
		want := "<url>"
		if d.format == FormatIndex {
			want = "<sitemap>"
		}
		x.report("X-06", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <%s>, which holds %s entries; ignored", shortText(x.s.Name()), x.name(&x.stack[0]), want))
	}
}

// entryStart opens a <url>, <sitemap>, RSS <item> or Atom <entry>.
func (x *xmlReader) entryStart(f *frame, kind elemKind) {
	f.kind = kind
	x.entries++
	x.eline, x.ecol = x.s.Pos(f.off)
	x.u = URL{Source: x.d.opt.Name}
	x.ix = IndexEntry{Source: x.d.opt.Name}
	x.has, x.rank, x.orderBad = 0, 0, false
	x.emptyLoc, x.emptyWhy = 0, ""
	x.bare = x.bare[:0]
	x.link, x.guid, x.guidPerma = "", "", false
	x.feedDate, x.feedDatePrio = Date{}, 0
}

// coreLeaf opens loc/lastmod/changefreq/priority with X-06 order and X-11
// duplicate checks.
func (x *xmlReader) coreLeaf(f *frame, field leafField, rank int, orderRule, parent string) {
	bit := uint64(1) << field
	if x.has&bit != 0 {
		x.report("X-11", SeverityError, f.off, fmt.Sprintf("a second <%s> in %s; the first is kept", shortText(x.s.Name()), parent))
		return
	}
	x.has |= bit
	if field == fLoc && x.emptyLoc != 0 {
		x.report("X-04", SeverityError, x.emptyLoc-1, x.emptyLocMsg(parent)+"; the next <loc> is read")
		x.emptyLoc = 0
	}
	if rank < x.rank && !x.orderBad {
		x.orderBad = true
		order := "loc, lastmod, changefreq, priority, then extensions"
		if orderRule == "I-08" {
			order = "loc, lastmod, then extensions"
		}
		x.report(orderRule, SeverityError, f.off, fmt.Sprintf("<%s> out of order; children of %s go %s", shortText(x.s.Name()), parent, order))
	}
	if rank > x.rank {
		x.rank = rank
	}
	f.kind, f.field = ekLeaf, field
	x.acc = x.acc[:0]
}

// extOther skips an extension element, with EX-03 for unknown namespaces
// and LG-04 for the obsolete mobile one.
func (x *xmlReader) extOther(f *frame, kind nsKind, uri string) {
	switch kind {
	case nsMobile:
		x.reportOnce("mobile", "LG-04", SeverityInfo, f.off, "the mobile extension (<mobile:mobile/>) is obsolete and ignored; remove it")
	case nsOther:
		if uri != "" {
			x.reportOnce("ns:"+uri, "EX-03", SeverityInfo, f.off, fmt.Sprintf("elements of unknown extension namespace %q (first <%s>) are allowed but not read", uri, shortText(x.s.Name())))
		}
	case nsNone:
		x.reportOnce("ns:", "EX-03", SeverityInfo, f.off, fmt.Sprintf("element <%s> in no namespace is not part of the protocol; ignored", shortText(x.s.Name())))
	}
}

func (x *xmlReader) urlChild(f *frame, kind nsKind, core bool, uri string, local []byte) {
	if core {
		switch string(local) {
		case "loc":
			x.coreLeaf(f, fLoc, 1, "X-06", "<url>")
		case "lastmod":
			x.coreLeaf(f, fLastmod, 2, "X-06", "<url>")
		case "changefreq":
			x.coreLeaf(f, fChangefreq, 3, "X-06", "<url>")
		case "priority":
			x.coreLeaf(f, fPriority, 4, "X-06", "<url>")
		case "url", "urlset", "sitemap", "sitemapindex":
			x.report("X-06", SeverityError, f.off, fmt.Sprintf("<%s> nested inside <url>; ignored", local))
		default:
			x.report("X-06", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <url>, which holds loc, lastmod, changefreq, priority and extension elements; ignored", shortText(x.s.Name())))
		}
		return
	}
	x.rank = 5
	switch kind {
	case nsImage:
		if string(local) == "image" {
			f.kind = ekImage
			x.u.Images = append(x.u.Images, Image{})
			x.ihas, x.irank, x.iorderBad = 0, 0, false
			return
		}
		x.report("IM-01", SeverityError, f.off, fmt.Sprintf("<%s> directly in <url>; image elements go inside <image:image>. Ignored", shortText(x.s.Name())))
	case nsVideo:
		if string(local) == "video" {
			f.kind = ekVideo
			x.u.Videos = append(x.u.Videos, Video{})
			x.vhas, x.vrank, x.vorderBad = 0, 0, false
			return
		}
		x.report("V-01", SeverityError, f.off, fmt.Sprintf("<%s> directly in <url>; video elements go inside <video:video>. Ignored", shortText(x.s.Name())))
	case nsNews:
		if string(local) == "news" {
			if x.u.News != nil {
				x.report("X-11", SeverityError, f.off, "a second <news:news> in one <url>; the first is kept")
				return
			}
			f.kind = ekNews
			x.u.News = &News{}
			x.nhas, x.nrank, x.norderBad = 0, 0, false
			return
		}
		x.report("N-01", SeverityError, f.off, fmt.Sprintf("<%s> directly in <url>; news elements go inside <news:news>. Ignored", shortText(x.s.Name())))
	case nsXHTML:
		if string(local) != "link" {
			x.reportOnce("xhtml:"+string(local), "EX-03", SeverityInfo, f.off, fmt.Sprintf("<%s> in a <url> is not read; only xhtml:link hreflang alternates are", shortText(x.s.Name())))
			return
		}
		rel, _ := x.attrString("rel")
		if rel != "alternate" {
			x.report("H-03", SeverityWarning, f.off, fmt.Sprintf("<xhtml:link> with rel=%q; only rel=\"alternate\" hreflang links are read", rel))
			return
		}
		var a Alternate
		a.Hreflang, _ = x.attrString("hreflang")
		a.Href, _ = x.attrString("href")
		x.u.Alternates = append(x.u.Alternates, a)
	default:
		x.extOther(f, kind, uri)
	}
}

// extLeaf opens a leaf of an extension container with order and duplicate
// checks; repeatable fields may occur more than once.
func (x *xmlReader) extLeaf(f *frame, field leafField, rank int, repeatable bool, has *uint64, lastRank *int, orderBad *bool, rule, parent string) bool {
	bit := uint64(1) << (field & 63)
	if !repeatable && *has&bit != 0 {
		x.report("X-11", SeverityError, f.off, fmt.Sprintf("a second <%s> in <%s>; the first is kept", shortText(x.s.Name()), parent))
		return false
	}
	*has |= bit
	if rank < *lastRank && (orderBad == nil || !*orderBad) {
		if orderBad != nil {
			*orderBad = true
		}
		x.report(rule, SeverityError, f.off, x.orderMsg(parent, *lastRank))
	}
	if rank > *lastRank {
		*lastRank = rank
	}
	f.kind, f.field = ekLeaf, field
	x.acc = x.acc[:0]
	return true
}

// The schemas' child orders of the extension containers (IM-01, V-03,
// N-08, N-01), indexed by rank - 1.
var (
	imageChildOrder       = []string{"loc", "caption", "geo_location", "title", "license"}
	videoChildOrder       = []string{"thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration", "expiration_date", "rating", "content_segment_loc", "view_count", "publication_date", "tag", "category", "family_friendly", "restriction", "gallery_loc", "price", "requires_subscription", "uploader", "tvshow", "platform", "live", "id"}
	newsChildOrder        = []string{"publication", "access", "genres", "publication_date", "title", "keywords", "stock_tickers"}
	publicationChildOrder = []string{"name", "language"}
)

// orderMsg is the message for the current start tag, a child of parent
// (a qualified name such as "video:video") met after a sibling of rank
// last, which the schema puts later: "<video:tag> after <video:live>;
// children of <video:video> go thumbnail_loc, title, …" (as X-06 does).
// The sibling is named with the current tag's prefix.
func (x *xmlReader) orderMsg(parent string, last int) string {
	var order []string
	switch parent {
	case "image:image":
		order = imageChildOrder
	case "video:video":
		order = videoChildOrder
	case "news:news":
		order = newsChildOrder
	case "news:publication":
		order = publicationChildOrder
	}
	name := shortText(x.s.Name())
	if last < 1 || last > len(order) {
		return fmt.Sprintf("<%s> out of the schema's order in <%s>", name, parent)
	}
	prefix := ""
	if i := strings.IndexByte(name, ':'); i >= 0 {
		prefix = name[:i+1]
	}
	return fmt.Sprintf("<%s> after <%s%s>; children of <%s> go %s", name, prefix, order[last-1], parent, strings.Join(order, ", "))
}

func (x *xmlReader) imageChild(f *frame, kind nsKind, uri string, local []byte) {
	if kind != nsImage {
		x.extOther(f, kind, uri)
		return
	}
	var field leafField
	rank := 0
	switch string(local) {
	case "loc":
		field, rank = fImgLoc, 1
	case "caption":
		field, rank = fImgCaption, 2
	case "geo_location":
		field, rank = fImgGeo, 3
	case "title":
		field, rank = fImgTitle, 4
	case "license":
		field, rank = fImgLicense, 5
	default:
		x.report("IM-01", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <image:image>; ignored", shortText(x.s.Name())))
		return
	}
	if rank > 1 { // §20.4 item 7: deprecated tags are warnings
		x.report("IM-03", SeverityWarning, f.off, fmt.Sprintf("<%s> is deprecated since 2022 and has no effect at Google; read, but you can remove it", shortText(x.s.Name())))
	}
	x.extLeaf(f, field, rank, false, &x.ihas, &x.irank, &x.iorderBad, "IM-01", "image:image")
}

// videoChildSpec gives a video child's field, its V-03 rank, whether it may
// repeat and whether it is deprecated (V-02). field fNone with rank > 0
// means a valid child the model does not keep.
func videoChildSpec(local string) (field leafField, rank int, repeat, deprecated bool) {
	switch local {
	case "thumbnail_loc":
		return fVThumb, 1, false, false
	case "title":
		return fVTitle, 2, false, false
	case "description":
		return fVDesc, 3, false, false
	case "content_loc":
		return fVContent, 4, false, false
	case "player_loc":
		return fVPlayer, 5, false, false
	case "duration":
		return fVDuration, 6, false, false
	case "expiration_date":
		return fVExpiration, 7, false, false
	case "rating":
		return fVRating, 8, false, false
	case "content_segment_loc":
		return fNone, 9, true, false
	case "view_count":
		return fVViewCount, 10, false, false
	case "publication_date":
		return fVPubDate, 11, false, false
	case "tag":
		return fVTag, 12, true, false
	case "category":
		return fVCategory, 13, false, true
	case "family_friendly":
		return fVFamily, 14, false, false
	case "restriction":
		return fVRestriction, 15, false, false
	case "gallery_loc":
		return fVGallery, 16, false, true
	case "price":
		return fVPrice, 17, true, true
	case "requires_subscription":
		return fVReqSub, 18, false, false
	case "uploader":
		return fVUploader, 19, false, false
	case "tvshow":
		return fNone, 20, false, true
	case "platform":
		return fVPlatform, 21, false, false
	case "live":
		return fVLive, 22, false, false
	case "id":
		return fNone, 23, true, false
	}
	return fNone, 0, false, false
}

func (x *xmlReader) videoChild(f *frame, kind nsKind, uri string, local []byte) {
	if kind != nsVideo {
		x.extOther(f, kind, uri)
		return
	}
	field, rank, repeat, deprecated := videoChildSpec(string(local))
	if rank == 0 {
		x.report("V-03", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <video:video>; ignored", shortText(x.s.Name())))
		return
	}
	if deprecated { // §20.4 item 7: deprecated tags are warnings
		x.report("V-02", SeverityWarning, f.off, fmt.Sprintf("<%s> is deprecated since 2022 and has no effect at Google; read, but you can remove it", shortText(x.s.Name())))
	}
	if field == fNone {
		// Valid but not kept: check order, skip the content.
		if rank < x.vrank && !x.vorderBad {
			x.vorderBad = true
			x.report("V-03", SeverityError, f.off, x.orderMsg("video:video", x.vrank))
		}
		if rank > x.vrank {
			x.vrank = rank
		}
		return
	}
	if !x.extLeaf(f, field, rank, repeat, &x.vhas, &x.vrank, &x.vorderBad, "V-03", "video:video") {
		return
	}
	v := &x.u.Videos[len(x.u.Videos)-1]
	switch field {
	case fVPlayer:
		if s, ok := x.attrString("allow_embed"); ok {
			v.PlayerAllowEmbed = s
			x.report("V-02", SeverityWarning, f.off, "the player_loc attribute allow_embed is deprecated since 2022; read, but you can remove it")
		}
		if s, ok := x.attrString("autoplay"); ok {
			v.PlayerAutoplay = s
			x.report("V-02", SeverityWarning, f.off, "the player_loc attribute autoplay is deprecated since 2022; read, but you can remove it")
		}
	case fVRestriction:
		rel, _ := x.attrString("relationship")
		v.Restriction = &Restriction{Relationship: Relationship(rel)}
	case fVPlatform:
		rel, _ := x.attrString("relationship")
		v.Platform = &Platform{Relationship: Relationship(rel)}
	case fVUploader:
		info, _ := x.attrString("info")
		v.Uploader = &Uploader{Info: info}
	case fVPrice:
		var p VideoPrice
		p.Currency, _ = x.attrString("currency")
		p.Type, _ = x.attrString("type")
		p.Resolution, _ = x.attrString("resolution")
		v.Prices = append(v.Prices, p)
	}
}

func (x *xmlReader) newsChild(f *frame, kind nsKind, uri string, local []byte) {
	if kind != nsNews {
		x.extOther(f, kind, uri)
		return
	}
	var field leafField
	rank := 0
	switch string(local) {
	case "publication":
		bit := uint64(1) << 63
		if x.nhas&bit != 0 {
			x.report("X-11", SeverityError, f.off, "a second <news:publication> in <news:news>; the first is kept")
			return
		}
		x.nhas |= bit
		if x.nrank > 1 && !x.norderBad {
			x.norderBad = true
			x.report("N-08", SeverityError, f.off, x.orderMsg("news:news", x.nrank))
		}
		if x.nrank < 1 {
			x.nrank = 1
		}
		f.kind = ekPublication
		x.phas, x.prank = 0, 0
		return
	case "access":
		field, rank = fNAccess, 2
	case "genres":
		field, rank = fNGenres, 3
	case "publication_date":
		field, rank = fNPubDate, 4
	case "title":
		field, rank = fNTitle, 5
	case "keywords":
		field, rank = fNKeywords, 6
	case "stock_tickers":
		field, rank = fNTickers, 7
	default:
		x.report("N-08", SeverityError, f.off, fmt.Sprintf("unexpected <%s> in <news:news>; ignored", shortText(x.s.Name())))
		return
	}
	x.extLeaf(f, field, rank, false, &x.nhas, &x.nrank, &x.norderBad, "N-08", "news:news")
}

// text handles character data (raw is still escaped unless cdata).
func (x *xmlReader) text(raw []byte, off int64, cdata bool) {
	n := len(x.stack)
	if n == 0 {
		if !x.isBlank(raw) && !x.strayDone {
			x.strayDone = true
			where := "before the root element"
			if x.rootClosed {
				where = "after the root element"
			}
			x.report(RuleXMLSyntax, SeverityError, off, "text "+where+"; a document holds one root element and nothing else")
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
		if !x.isBlank(raw) && len(x.bare) < 4096 {
			if cdata {
				x.bare = append(x.bare, raw...)
			} else {
				x.bare = x.unescape(x.bare, raw, off)
			}
		}
	default:
		if !x.isBlank(raw) {
			x.reportOnce("stray", RuleStrayText, SeverityWarning, off, fmt.Sprintf("text directly inside <%s>, which holds only elements; ignored", shortText(x.name(f))))
		}
	}
}

// isBlank reports whether b is only XML white space.
func (x *xmlReader) isBlank(b []byte) bool {
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

// unescape appends raw to dst, replacing the five predefined entities and
// character references (E-02). Other entity references are never expanded
// (XML-03): they are dropped with a diagnostic. A bare '&' is kept with an
// E-01 error.
func (x *xmlReader) unescape(dst, raw []byte, off int64) []byte {
	base := off
	for {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		at := base + int64(i)
		raw = raw[i:]
		base = at
		lim := len(raw)
		if lim > 40 {
			lim = 40
		}
		j := bytes.IndexByte(raw[1:lim], ';') + 1
		if j <= 1 || !isRefName(raw[1:j]) {
			x.report("E-01", SeverityError, at, "a bare '&' in text; write it as &amp; (read as '&')")
			dst = append(dst, '&')
			raw = raw[1:]
			base++
			continue
		}
		ent := raw[1:j]
		switch string(ent) {
		case "amp":
			dst = append(dst, '&')
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "apos":
			dst = append(dst, '\'')
		case "quot":
			dst = append(dst, '"')
		default:
			if ent[0] == '#' {
				var v uint64
				var err error
				if len(ent) > 1 && (ent[1] == 'x' || ent[1] == 'X') {
					v, err = strconv.ParseUint(string(ent[2:]), 16, 32)
				} else {
					v, err = strconv.ParseUint(string(ent[1:]), 10, 32)
				}
				r := rune(v)
				if err != nil || !isXMLChar(r) {
					x.report("E-03", SeverityError, at, fmt.Sprintf("character reference &%s; is not a character XML allows; dropped", shortText(ent)))
					x.dropOff, x.dropName = at+1, "character reference &"+shortText(ent)+"; was dropped (E-03)"
				} else {
					dst = utf8.AppendRune(dst, r)
				}
			} else {
				x.report(RuleEntity, SeverityError, at, fmt.Sprintf("entity reference &%s; is not expanded (only &amp; &lt; &gt; &apos; &quot; and character references are read; DTD entities never are); dropped", shortText(ent)))
				x.dropOff, x.dropName = at+1, "entity reference &"+shortText(ent)+"; was dropped ("+RuleEntity+")"
			}
		}
		raw = raw[j+1:]
		base += int64(j + 1)
	}
}

// isRefName reports whether b (between '&' and ';') has the shape of a
// reference: a name or #digits / #xhex.
func isRefName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '#' {
		if len(b) < 2 {
			return false
		}
		for _, c := range b[1:] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x' || c == 'X') {
				return false
			}
		}
		return true
	}
	if !xmlscan.IsNameStart(b[0]) {
		return false
	}
	for _, c := range b {
		if !xmlscan.IsNameByte(c) {
			return false
		}
	}
	return true
}

// isXMLChar reports whether XML 1.0 allows r (E-03).
func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// valueCharClass marks bytes that need a closer look in a value: 1 for C0
// controls XML forbids, 2 for non-ASCII.
var valueCharClass = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		if c != '\t' && c != '\n' && c != '\r' {
			t[c] = 1
		}
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = 2
	}
	return
}()

// checkChars reports forbidden characters (E-03) and invalid UTF-8
// in a value and returns it usable: invalid UTF-8 replaced.
func (x *xmlReader) checkChars(v []byte, off int64, what []byte) []byte {
	if printableASCII(v) { // the usual case: nothing to report or replace
		return v
	}
	var flags byte
	for _, c := range v {
		flags |= valueCharClass[c]
	}
	if flags == 0 {
		return v
	}
	if flags&1 != 0 {
		for _, c := range v {
			if valueCharClass[c]&1 != 0 {
				x.report("E-03", SeverityError, off, fmt.Sprintf("<%s> holds control character U+%04X, which XML forbids; the document is not well-formed", shortText(what), c))
				return v
			}
		}
	}
	if flags&2 == 0 {
		return v
	}
	if !utf8.Valid(v) {
		x.report("X-01", SeverityError, off, fmt.Sprintf("<%s> holds bytes that are not UTF-8; sitemaps must be UTF-8 (X-01). Replaced by U+FFFD", shortText(what)))
		return bytes.ToValidUTF8(v, []byte("\uFFFD"))
	}
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRune(v[i:])
		if r == 0xFFFE || r == 0xFFFF {
			x.report("E-03", SeverityError, off, fmt.Sprintf("<%s> holds U+%04X, which XML forbids", shortText(what), r))
			break
		}
		i += n
	}
	return v
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
				x.report("X-07", SeverityError, f.off, "the <urlset> holds no <url>; the schema requires at least one (an empty sitemap is best not submitted)")
			case FormatIndex:
				x.report("I-08", SeverityError, f.off, "the <sitemapindex> holds no <sitemap>; the schema requires at least one")
			case FormatRSS, FormatAtom:
				x.report("R-01", SeverityWarning, f.off, "the feed holds no entries")
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
			x.report(RuleXMLSyntax, SeverityError, s.Offset(), fmt.Sprintf("</%s> closes <%s> that is still open; the document is not well-formed", shortText(s.Name()), shortText(x.name(&x.stack[n-1]))))
			for len(x.stack) > i {
				x.pop()
			}
			return
		}
	}
	if n > 1 {
		// A misspelt end tag: read it as the end of the open element.
		x.report(RuleXMLSyntax, SeverityError, s.Offset(), fmt.Sprintf("end tag </%s> does not match <%s>; read as its end", shortText(s.Name()), shortText(x.name(&x.stack[n-1]))))
		x.pop()
		return
	}
	x.report(RuleXMLSyntax, SeverityError, s.Offset(), fmt.Sprintf("end tag </%s> matches no open element; ignored", shortText(s.Name())))
}

// trimXMLSpace trims XML white space.
func trimXMLSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && xmlscan.IsSpace(b[i]) {
		i++
	}
	for j > i && xmlscan.IsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// leafEnd stores a finished leaf value in the entry.
func (x *xmlReader) leafEnd(f *frame) {
	// pop truncated the name arena, but its bytes stay intact (within its
	// capacity) until the next push.
	x.leafValue(f, x.acc, x.names[f.nameAt:f.nameAt+f.nameLen:f.nameAt+f.nameLen])
}

// leafValue stores the leaf value raw (unescaped, untrimmed) of the element
// named name in the entry; it keeps no reference to raw or name.
func (x *xmlReader) leafValue(f *frame, raw, name []byte) {
	val := trimXMLSpace(raw)
	untrimmed := len(val) != len(raw)
	if !printableASCII(val) { // printable ASCII needs no look (decode_fast.go)
		val = x.checkChars(val, f.off, name)
	}
	switch f.field {
	case fLoc:
		if untrimmed {
			x.report("X-12", SeverityWarning, f.off, "white space around the <loc> value; trimmed")
		}
		if len(val) == 0 {
			// Reported once with the entry, naming the reference
			// dropped inside this <loc> that left it empty, if any.
			x.emptyLoc, x.emptyWhy = f.off+1, ""
			if x.dropOff-1 > f.off {
				x.emptyWhy = x.dropName
			}
			x.has &^= 1 << fLoc
			return
		}
		if x.d.format == FormatIndex {
			x.ix.Loc = string(val)
		} else {
			x.u.Loc = string(val)
		}
	case fLastmod:
		if untrimmed {
			x.report("X-12", SeverityWarning, f.off, "white space around the <lastmod> value; trimmed (§10.3)")
		}
		d := x.date(val, f.off, true, "M-01", "<lastmod>")
		if x.d.format == FormatIndex {
			x.ix.LastMod = d
		} else {
			x.u.LastMod = d
		}
	case fChangefreq:
		if untrimmed {
			x.report("X-12", SeverityError, f.off, "white space around the <changefreq> value; the schema rejects it (value trimmed)")
		}
		x.u.ChangeFreq = x.changefreq(val, f.off)
	case fPriority:
		if untrimmed {
			x.report("X-12", SeverityError, f.off, "white space around the <priority> value; the schema rejects it (value trimmed)")
		}
		x.u.Priority = x.priority(val, f.off)
	case fRSSLink:
		x.link = string(val)
	case fRSSGuid:
		x.guid = string(val)
	case fRSSPubDate:
		if d, ok := parseRFC822(string(val)); ok {
			x.feedDate = d
		} else if len(val) > 0 {
			x.report("R-02", SeverityWarning, f.off, fmt.Sprintf("<pubDate> %q is not an RFC 822 date (Mon, 02 Jan 2006 15:04:05 GMT); ignored", shortText(val)))
		}
	case fAtomUpdated, fAtomModified, fAtomPublished:
		prio := 2
		if f.field == fAtomPublished {
			prio = 1
		}
		if prio < x.feedDatePrio {
			return
		}
		d, _, err := ParseDateLenient(string(val))
		if err != nil {
			x.report("R-03", SeverityWarning, f.off, fmt.Sprintf("<%s> %q is not an RFC 3339 date; ignored", shortText(name), shortText(val)))
			return
		}
		x.feedDate, x.feedDatePrio = d, prio
	default:
		x.extValue(f, val, name)
	}
}

// date parses a date value leniently (§10.3), reporting W3C errors (rule),
// large offsets (D-03) and, for lastmod, forms the XSD rejects (M-04).
func (x *xmlReader) date(val []byte, off int64, xsd bool, rule, what string) Date {
	var d Date
	var issues DateIssue
	var err error
	// The usual forms, valid and in range, parse without allocating and
	// report nothing (parseCommonDate); the rest go the general way.
	if d, ok := parseCommonDate(val, &x.zones); ok {
		return d
	}
	if string(val) == x.lastDateIn && x.lastDateIn != "" {
		d, issues, err = x.lastDate, x.lastIssues, x.lastDateErr
	} else {
		in := string(val)
		d, issues, err = ParseDateLenient(in)
		x.lastDateIn, x.lastDate, x.lastIssues, x.lastDateErr = in, d, issues, err
	}
	if err != nil {
		x.report(rule, SeverityError, off, fmt.Sprintf("%s %q is not a W3C Datetime (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm); ignored", what, shortText(val)))
		return Date{}
	}
	w3cErr := issues & W3CErrors
	if w3cErr != 0 {
		x.report(rule, SeverityError, off, fmt.Sprintf("%s %q is not valid W3C Datetime: %s", what, shortText(val), w3cErr))
	}
	if issues&DateLargeOffset != 0 {
		x.report("D-03", SeverityWarning, off, fmt.Sprintf("%s %q has a time-zone offset beyond ±14:00", what, shortText(val)))
	}
	// M-04 says "valid W3C Datetime": only for a value that is. One the
	// W3C error above already rejects gets that one diagnostic (§10.3).
	if xsd && w3cErr == 0 {
		switch d.Precision {
		case PrecisionYear, PrecisionMonth, PrecisionMinute:
			x.report("M-04", SeverityWarning, off, fmt.Sprintf("%s %q is valid W3C Datetime but the sitemap schema rejects it (§10.3); write YYYY-MM-DD or a full date-time with seconds", what, shortText(val)))
		}
	}
	return d
}

// changefreq maps a value to the enumeration (C-01), accepting other case
// with a C-04 error.
func (x *xmlReader) changefreq(val []byte, off int64) ChangeFreq {
	switch string(val) {
	case "always":
		return Always
	case "hourly":
		return Hourly
	case "daily":
		return Daily
	case "weekly":
		return Weekly
	case "monthly":
		return Monthly
	case "yearly":
		return Yearly
	case "never":
		return Never
	}
	for _, c := range [...]ChangeFreq{Always, Hourly, Daily, Weekly, Monthly, Yearly, Never} {
		if strings.EqualFold(string(val), string(c)) {
			x.report("C-04", SeverityError, off, fmt.Sprintf("<changefreq>%s</changefreq>: the schema's values are lowercase; read as %q", shortText(val), c))
			return c
		}
	}
	x.report("C-01", SeverityError, off, fmt.Sprintf("<changefreq> %q is not one of always, hourly, daily, weekly, monthly, yearly, never; ignored", shortText(val)))
	return ""
}

// priority parses an xsd:decimal in 0.0–1.0 (P-01).
func (x *xmlReader) priority(val []byte, off int64) *float64 {
	if p, ok := parseSimpleDecimal(val); ok && p <= 1 { // "0.8", "1.0": no diagnostic
		return x.newPriority(p)
	}
	if !isDecimal(val) {
		x.report("P-01", SeverityError, off, fmt.Sprintf("<priority> %q is not a decimal number from 0.0 to 1.0; ignored", shortText(val)))
		return nil
	}
	p, err := strconv.ParseFloat(string(val), 64)
	if err != nil || p < 0 || p > 1 {
		x.report("P-01", SeverityError, off, fmt.Sprintf("<priority> %s is outside 0.0–1.0; ignored", shortText(val)))
		return nil
	}
	if p == 0 {
		p = 0 // no negative zero
	}
	return x.newPriority(p)
}

// isDecimal reports whether b is an xsd:decimal lexical form: optional
// sign, digits with at most one '.', at least one digit, no exponent.
func isDecimal(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	digits, dot := 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// parseYesNo parses the video yes/no values (the XSD also takes Yes/YES/No/NO).
func parseYesNo(v []byte) (bool, bool) {
	switch string(v) {
	case "yes", "Yes", "YES":
		return true, true
	case "no", "No", "NO":
		return false, true
	}
	return false, false
}

// extValue stores an image, video or news value.
func (x *xmlReader) extValue(f *frame, val, name []byte) {
	str := func() string { return string(val) }
	bad := func(rule, want string) {
		x.report(rule, SeverityError, f.off, fmt.Sprintf("<%s> %q is not %s; ignored", shortText(name), shortText(val), want))
	}
	switch f.field {
	case fImgLoc, fImgCaption, fImgGeo, fImgTitle, fImgLicense:
		im := &x.u.Images[len(x.u.Images)-1]
		switch f.field {
		case fImgLoc:
			im.Loc = str()
		case fImgCaption:
			im.Caption = str()
		case fImgGeo:
			im.GeoLocation = str()
		case fImgTitle:
			im.Title = str()
		case fImgLicense:
			im.License = str()
		}
		return
	case fNName, fNLang, fNAccess, fNGenres, fNPubDate, fNTitle, fNKeywords, fNTickers:
		nw := x.u.News
		switch f.field {
		case fNName:
			nw.Publication.Name = str()
		case fNLang:
			nw.Publication.Language = str()
		case fNAccess:
			nw.Access = str()
		case fNGenres:
			nw.Genres = str()
		case fNPubDate:
			nw.PublicationDate = x.date(val, f.off, false, "N-04", "<news:publication_date>")
		case fNTitle:
			nw.Title = str()
		case fNKeywords:
			nw.Keywords = str()
		case fNTickers:
			nw.StockTickers = str()
		}
		return
	}
	if len(x.u.Videos) == 0 {
		return
	}
	v := &x.u.Videos[len(x.u.Videos)-1]
	switch f.field {
	case fVThumb:
		v.ThumbnailLoc = str()
	case fVTitle:
		v.Title = str()
	case fVDesc:
		v.Description = str()
	case fVContent:
		v.ContentLoc = str()
	case fVPlayer:
		v.PlayerLoc = str()
	case fVDuration:
		n, err := strconv.Atoi(string(val))
		if err != nil {
			bad("V-01", "a whole number of seconds")
			return
		}
		v.Duration = &n
	case fVExpiration:
		v.ExpirationDate = x.date(val, f.off, false, "V-01", "<video:expiration_date>")
	case fVRating:
		r, err := strconv.ParseFloat(string(val), 64)
		if err != nil || !isDecimal(val) {
			bad("V-01", "a number from 0.0 to 5.0")
			return
		}
		v.Rating = &r
	case fVViewCount:
		n, err := strconv.ParseInt(string(val), 10, 64)
		if err != nil {
			bad("V-01", "a whole number")
			return
		}
		v.ViewCount = &n
	case fVPubDate:
		v.PublicationDate = x.date(val, f.off, false, "V-01", "<video:publication_date>")
	case fVTag:
		v.Tags = append(v.Tags, str())
	case fVCategory:
		v.Category = str()
	case fVFamily, fVReqSub, fVLive:
		b, ok := parseYesNo(val)
		if !ok {
			bad("V-01", "yes or no")
			return
		}
		switch f.field {
		case fVFamily:
			v.FamilyFriendly = &b
		case fVReqSub:
			v.RequiresSubscription = &b
		case fVLive:
			v.Live = &b
		}
	case fVRestriction:
		if v.Restriction != nil {
			v.Restriction.Countries = str()
		}
	case fVGallery:
		v.GalleryLoc = str()
	case fVPrice:
		if n := len(v.Prices); n > 0 {
			v.Prices[n-1].Value = str()
		}
	case fVUploader:
		if v.Uploader != nil {
			v.Uploader.Name = str()
		}
	case fVPlatform:
		if v.Platform != nil {
			v.Platform.Platforms = str()
		}
	}
}

// entryEnd finishes a <url>, <sitemap>, <item> or <entry>.
func (x *xmlReader) entryEnd(f *frame) {
	bare := trimXMLSpace(x.bare)
	switch f.kind {
	case ekURL, ekSitemap:
		loc := x.u.Loc
		if f.kind == ekSitemap {
			loc = x.ix.Loc
		}
		tag := "<url>"
		if f.kind == ekSitemap {
			tag = "<sitemap>"
		}
		if loc == "" {
			switch {
			case len(bare) > 0 && hasHTTPScheme(bare) && !bytes.ContainsAny(bare, " \t\r\n"):
				loc = string(x.checkChars(bare, f.off, []byte(tag[1:len(tag)-1])))
				what := "has no <loc>"
				if x.emptyLoc != 0 {
					what = "has an empty <loc>"
				}
				x.report("X-04", SeverityError, f.off, fmt.Sprintf("%s %s; its bare text %q was read as the URL. Wrap it in <loc>…</loc>", tag, what, shortText(bare)))
			case x.emptyLoc != 0:
				// One diagnostic for one problem: the empty <loc> is why
				// the entry is skipped.
				x.report("X-04", SeverityError, x.emptyLoc-1, x.emptyLocMsg(tag)+"; entry skipped")
				return
			default:
				x.report("X-04", SeverityError, f.off, fmt.Sprintf("%s without <loc>; entry skipped", tag))
				return
			}
		} else if len(bare) > 0 {
			x.report(RuleStrayText, SeverityWarning, f.off, fmt.Sprintf("text %q directly inside %s; ignored", shortText(bare), tag))
		}
		if f.kind == ekSitemap {
			x.ix.Loc = loc
			x.out = Item{Kind: ItemIndex, Index: x.ix, Line: x.eline, Col: x.ecol}
		} else {
			x.u.Loc = loc
			x.out = Item{Kind: ItemURL, URL: x.u, Line: x.eline, Col: x.ecol}
		}
		x.ready = true
	case ekItem:
		loc := x.link
		if loc == "" && x.guid != "" && x.guidPerma && hasHTTPScheme([]byte(x.guid)) {
			loc = x.guid
		}
		if loc == "" {
			x.report("R-05", SeverityWarning, f.off, "RSS <item> without <link> (or permalink <guid>); skipped")
			return
		}
		if !hasHTTPScheme([]byte(loc)) {
			r := resolveRef(x.d.opt.BaseURL, loc)
			if r == "" {
				x.report("R-05", SeverityError, f.off, fmt.Sprintf("relative <link> %q and no base URL to resolve it against; item skipped (pass the feed's URL as the base)", shortText([]byte(loc))))
				return
			}
			loc = r
		}
		x.out = Item{Kind: ItemURL, URL: URL{Loc: loc, LastMod: x.feedDate, Source: x.d.opt.Name}, Line: x.eline, Col: x.ecol}
		x.ready = true
	case ekEntry:
		if x.link == "" {
			x.report("R-03", SeverityWarning, f.off, "Atom <entry> without a usable <link href> (rel=\"alternate\" or no rel); skipped")
			return
		}
		x.out = Item{Kind: ItemURL, URL: URL{Loc: x.link, LastMod: x.feedDate, Source: x.d.opt.Name}, Line: x.eline, Col: x.ecol}
		x.ready = true
	}
}

// emptyLocMsg describes the entry's empty <loc> (X-04) in parent ("<url>").
func (x *xmlReader) emptyLocMsg(parent string) string {
	if x.emptyWhy != "" {
		return fmt.Sprintf("%s has an empty <loc>: its %s", parent, x.emptyWhy)
	}
	return parent + " has an empty <loc>"
}

// resolveRef resolves ref against base; it returns "" when ref is relative
// and base is empty or unusable.
func resolveRef(base, ref string) string {
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if r.IsAbs() {
		return ref
	}
	if base == "" {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ""
	}
	return b.ResolveReference(r).String()
}
