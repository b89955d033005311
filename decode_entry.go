package sitemap

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the entries of the XML formats: the root element, the
// <url>, <sitemap>, RSS <item> and Atom <entry> elements, their protocol
// children and the values they hold.

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

// entryState is the entry being read: a <url>, <sitemap>, RSS <item> or
// Atom <entry>, with what its checks remember until it ends.
type entryState struct {
	u     URL
	ix    IndexEntry
	eline int // where the entry starts (Item.Line, Item.Col)
	ecol  int
	// Where the <loc> whose value is the entry's URL starts (Item.LocLine,
	// Item.LocCol); 0 until one is read.
	locLine, locCol int
	// The entry's own children (loc, lastmod, …): bits by leafField, and
	// the highest rank seen (5 = an extension element).
	container
	bare []byte // text directly inside <url>/<sitemap>

	// An empty <loc> of the entry is reported once, with the entry
	// (entryEnd) or when another <loc> follows (coreLeaf): emptyLoc is 1 +
	// its offset, emptyWhy the reference whose dropping emptied it.
	emptyLoc int64
	emptyWhy string
	// locSkip: the entry's <loc> is refused (refuseLoc, reported); the
	// entry is skipped.
	locSkip bool

	// Feeds: the item's or entry's link, the RSS guid, and the date (the
	// preferred kind seen so far: feedDatePrio).
	link, guid   string
	guidPerma    bool
	feedDate     Date
	feedDatePrio int

	// The entry's extension containers (decode_ext.go).
	image, video, news, publication container
}

// root handles the root element (F-04, X-02, X-03, LG-02, LG-03).
func (x *xmlReader) root(f *frame, kind nsKind, near bool, uri string, local []byte) {
	d := x.d
	if x.rootClosed {
		x.report(RuleXMLSyntax, f.off, fmt.Sprintf("a second root element <%s> after the first one closed; ignored", shortText(x.s.Name())))
		return
	}
	x.rootSeen = true
	x.rootLine, _ = x.s.Pos(f.off)
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
			x.report(rules.LG02, f.off, fmt.Sprintf("legacy namespace %s (Google's pre-2006 protocol); read as %s, which it should be replaced with", NamespaceLegacy, NamespaceSitemap))
		case kind == nsNone:
			x.reportAs(rules.LG03, SeverityWarning, f.off, fmt.Sprintf("<%s> declares no namespace; read as a sitemap. Add xmlns=%q (X-03)", local, NamespaceSitemap))
		case near && (kind == nsSitemap):
			x.reportAs(rules.LG03, SeverityWarning, f.off, fmt.Sprintf("namespace %q is a near miss of %q (exact string required, X-03); read as a sitemap", uri, NamespaceSitemap))
		default:
			x.report(rules.X03, f.off, fmt.Sprintf("<%s> is in namespace %q, not %q; read as a sitemap anyway", local, uri, NamespaceSitemap))
			x.rootKind = kind
		}
	case "rss":
		d.format = FormatRSS
		f.kind = ekRoot
		x.rootKind = kind
		if v, _ := x.attrString("version"); v != "2.0" {
			x.report(rules.R01, f.off, fmt.Sprintf("RSS version %q; feeds used as sitemaps are RSS 2.0 (read as 2.0)", v))
		}
	case "feed":
		d.format = FormatAtom
		f.kind = ekRoot
		x.rootKind = kind
		if kind != nsAtom && kind != nsAtom03 {
			x.report(rules.R05, f.off, fmt.Sprintf("<feed> in namespace %q, not Atom 1.0 (http://www.w3.org/2005/Atom) or 0.3; read as Atom", uri))
		}
	default:
		if l := strings.ToLower(string(local)); l == "html" || l == "head" || l == "body" {
			d.format = FormatHTML
			x.fatal = d.fatalAt(rules.F04, f.off, ErrNotSitemap, "this is an HTML page, not a sitemap; check the URL, or whether the server answered with an error or login page")
			return
		}
		hint := ""
		if string(local) == "RDF" {
			hint = " (RSS 1.0/RDF is not a sitemap format; use RSS 2.0, Atom or a urlset)"
		}
		x.fatal = d.fatalAt(rules.X02, f.off, ErrNotSitemap, fmt.Sprintf("the root element is <%s>, not <urlset>, <sitemapindex>, <rss> or <feed>%s; not a sitemap", shortText(x.s.Name()), hint))
	}
}

// child handles a start tag whose parent frame is not skipped.
func (x *xmlReader) child(p, f *frame, kind nsKind, near bool, uri string, local []byte) {
	if p.kind == ekLeaf {
		x.report(rules.X06, f.off, fmt.Sprintf("element <%s> inside <%s>, which holds only text; ignored", shortText(x.s.Name()), shortText(x.name(p))))
		return
	}
	core := x.core(kind)
	if near && !core {
		x.reportOnce("near:"+uri, rules.EX04, SeverityWarning, f.off, fmt.Sprintf("namespace %q is a near miss of %q (exact string required); read as the %s extension", uri, nsURI(kind), nsShortName(kind)))
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
				x.coreLeaf(f, fLoc, 1, rules.I08, "<sitemap>")
			case "lastmod":
				x.coreLeaf(f, fLastmod, 2, rules.I08, "<sitemap>")
			case "sitemap", "sitemapindex", "urlset":
				x.report(rules.I07, f.off, fmt.Sprintf("<%s> nested inside <sitemap>; ignored", local))
			default:
				x.report(rules.I08, f.off, fmt.Sprintf("unexpected <%s> in <sitemap>, which holds loc and lastmod; ignored", shortText(x.s.Name())))
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
			x.extLeaf(f, fNName, 1, false, &x.publication, rules.N01, "news:publication")
		case "language":
			x.extLeaf(f, fNLang, 2, false, &x.publication, rules.N01, "news:publication")
		default:
			x.report(rules.N01, f.off, fmt.Sprintf("unexpected <%s> in <news:publication>, which holds name and language; ignored", shortText(x.s.Name())))
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
			drops := x.drops
			href, ok := x.attrString("href")
			if ok && href != "" && (rel == "" || rel == "alternate") && x.link == "" && !x.locSkip {
				if rule, msg := locProblem(href, false); rule == rules.L07 {
					x.skip(rule, f.off, "<link href> "+msg+"; entry skipped")
					x.locSkip = true
					return
				}
				if x.drops != drops {
					x.skip(x.dropRule, f.off, fmt.Sprintf("<link href> %q is not the URL written: its %s; entry skipped", shortText([]byte(href)), x.dropName))
					x.locSkip = true
					return
				}
				x.link = resolveRef(f.base, href)
				switch {
				case x.link == "":
					x.skip(rules.R05, f.off, fmt.Sprintf("relative link %q and no xml:base or base URL to resolve it against; entry skipped (pass the feed's URL as the base)", href))
				case !absHTTP(href):
					x.report(rules.R05, f.off, fmt.Sprintf("relative link %q read as %q (resolved against xml:base or the feed's URL); give the absolute URL", shortText([]byte(href)), shortText([]byte(x.link))))
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
			x.report(rules.X06, f.off, fmt.Sprintf("extension element <%s> between entries; other-namespace elements may only come before the first entry", shortText(x.s.Name())))
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
		x.report(rules.I02, f.off, "<url> in a <sitemapindex>, which holds <sitemap> entries; ignored")
	case "sitemap":
		if d.format == FormatIndex {
			x.entryStart(f, ekSitemap)
			return
		}
		x.report(rules.X06, f.off, "<sitemap> in a <urlset>, which holds <url> entries; ignored (an index is a separate <sitemapindex> file)")
	case "sitemapindex":
		x.report(rules.I07, f.off, "a nested <sitemapindex>; indexes cannot be nested. Ignored")
	case "urlset":
		x.report(rules.X02, f.off, "a nested <urlset>; ignored")
	default:
		want := "<url>"
		if d.format == FormatIndex {
			want = "<sitemap>"
		}
		x.report(rules.X06, f.off, fmt.Sprintf("unexpected <%s> in <%s>, which holds %s entries; ignored", shortText(x.s.Name()), x.name(&x.stack[0]), want))
	}
}

// entryStart opens a <url>, <sitemap>, RSS <item> or Atom <entry>.
func (x *xmlReader) entryStart(f *frame, kind elemKind) {
	f.kind = kind
	x.entries++
	line, col := x.s.Pos(f.off)
	x.entryState.reset(x.d.opt.Name, line, col)
}

// reset starts a new entry of the document source at line:col. The
// extension containers are reset as each one opens.
func (e *entryState) reset(source string, line, col int) {
	e.u = URL{Source: source}
	e.ix = IndexEntry{Source: source}
	e.eline, e.ecol = line, col
	e.locLine, e.locCol = 0, 0
	e.container = container{}
	e.bare = e.bare[:0]
	e.emptyLoc, e.emptyWhy, e.locSkip = 0, "", false
	e.link, e.guid, e.guidPerma = "", "", false
	e.feedDate, e.feedDatePrio = Date{}, 0
}

// coreLeaf opens loc/lastmod/changefreq/priority with X-06 order and X-11
// duplicate checks.
func (x *xmlReader) coreLeaf(f *frame, field leafField, rank int, orderRule rules.ID, parent string) {
	bit := uint64(1) << field
	if x.has&bit != 0 {
		x.report(rules.X11, f.off, fmt.Sprintf("a second <%s> in %s; the first is kept", shortText(x.s.Name()), parent))
		return
	}
	x.has |= bit
	if field == fLoc && x.emptyLoc != 0 {
		x.report(rules.X04, x.emptyLoc-1, x.emptyLocMsg(parent)+"; the next <loc> is read")
		x.emptyLoc = 0
	}
	if rank < x.rank && !x.orderBad {
		x.orderBad = true
		order := "loc, lastmod, changefreq, priority, then extensions"
		if orderRule == rules.I08 {
			order = "loc, lastmod, then extensions"
		}
		x.reportAs(orderRule, SeverityError, f.off, fmt.Sprintf("<%s> out of order; children of %s go %s", shortText(x.s.Name()), parent, order))
	}
	if rank > x.rank {
		x.rank = rank
	}
	f.kind, f.field = ekLeaf, field
	x.acc = x.acc[:0]
}

func (x *xmlReader) urlChild(f *frame, kind nsKind, core bool, uri string, local []byte) {
	if core {
		switch string(local) {
		case "loc":
			x.coreLeaf(f, fLoc, 1, rules.X06, "<url>")
		case "lastmod":
			x.coreLeaf(f, fLastmod, 2, rules.X06, "<url>")
		case "changefreq":
			x.coreLeaf(f, fChangefreq, 3, rules.X06, "<url>")
		case "priority":
			x.coreLeaf(f, fPriority, 4, rules.X06, "<url>")
		case "url", "urlset", "sitemap", "sitemapindex":
			x.report(rules.X06, f.off, fmt.Sprintf("<%s> nested inside <url>; ignored", local))
		default:
			x.report(rules.X06, f.off, fmt.Sprintf("unexpected <%s> in <url>, which holds loc, lastmod, changefreq, priority and extension elements; ignored", shortText(x.s.Name())))
		}
		return
	}
	x.rank = 5
	switch kind {
	case nsImage:
		if string(local) == "image" {
			f.kind = ekImage
			x.u.Images = append(x.u.Images, Image{})
			x.image = container{}
			return
		}
		x.report(rules.IM01, f.off, fmt.Sprintf("<%s> directly in <url>; image elements go inside <image:image>. Ignored", shortText(x.s.Name())))
	case nsVideo:
		if string(local) == "video" {
			f.kind = ekVideo
			x.u.Videos = append(x.u.Videos, Video{})
			x.video = container{}
			return
		}
		x.report(rules.V01, f.off, fmt.Sprintf("<%s> directly in <url>; video elements go inside <video:video>. Ignored", shortText(x.s.Name())))
	case nsNews:
		if string(local) == "news" {
			if x.u.News != nil {
				x.report(rules.X11, f.off, "a second <news:news> in one <url>; the first is kept")
				return
			}
			f.kind = ekNews
			x.u.News = &News{}
			x.news = container{}
			return
		}
		x.report(rules.N01, f.off, fmt.Sprintf("<%s> directly in <url>; news elements go inside <news:news>. Ignored", shortText(x.s.Name())))
	case nsXHTML:
		if string(local) != "link" {
			x.reportOnce("xhtml:"+string(local), rules.EX03, SeverityInfo, f.off, fmt.Sprintf("<%s> in a <url> is not read; only xhtml:link hreflang alternates are", shortText(x.s.Name())))
			return
		}
		rel, _ := x.attrString("rel")
		if rel != "alternate" {
			x.reportAs(rules.H03, SeverityWarning, f.off, fmt.Sprintf("<xhtml:link> with rel=%q; only rel=\"alternate\" hreflang links are read", rel))
			return
		}
		var a Alternate
		a.Hreflang, _ = x.attrString("hreflang")
		a.Href, _ = x.attrString("href")
		switch media, _ := x.attrString("media"); {
		case a.Hreflang == "" && media != "":
			// A separate mobile URL (rel="alternate" media="only screen
			// and …"), not a language version: not an hreflang alternate.
			x.report(rules.H10, f.off, fmt.Sprintf("<xhtml:link rel=\"alternate\" media=%q> marks a separate mobile URL, not a language version; not read as an hreflang alternate", shortText([]byte(media))))
		case a.Hreflang == "":
			x.report(rules.H06, f.off, "<xhtml:link rel=\"alternate\"> without hreflang; an alternate names its language (hreflang=\"en-GB\") or x-default. Link ignored")
		case a.Href == "":
			x.report(rules.H05, f.off, fmt.Sprintf("<xhtml:link hreflang=%q> without href; an alternate needs the absolute URL of its page. Link ignored", shortText([]byte(a.Hreflang))))
		default:
			x.u.Alternates = append(x.u.Alternates, a)
		}
	default:
		x.extOther(f, kind, uri)
	}
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
	clean := printableASCII(val)
	if !clean { // printable ASCII needs no look (printableASCII)
		val = x.checkChars(val, f.off, name)
	}
	switch f.field {
	case fLoc:
		if untrimmed {
			x.report(rules.X12, f.off, fmt.Sprintf("<loc> %q %s; read trimmed", shortText(raw), check.Untrimmed(string(raw)).Text()))
		}
		if len(val) == 0 {
			// Reported once with the entry, naming the reference
			// dropped inside this <loc> that left it empty, if any.
			x.emptyLoc, x.emptyWhy = f.off+1, ""
			if x.dropOff-1 > f.off {
				x.emptyWhy = x.dropName + " (" + string(x.dropRule) + ")"
			}
			x.has &^= 1 << fLoc
			return
		}
		if x.refuseLoc(val, f.off, clean, x.dropOff-1 > f.off, "<loc>") {
			x.locSkip = true
			return
		}
		if x.d.format == FormatIndex {
			x.ix.Loc = x.strs.string(val)
		} else {
			x.u.Loc = x.strs.string(val)
		}
		x.locLine, x.locCol = x.s.Pos(f.off)
	case fLastmod:
		if untrimmed {
			x.report(rules.X12, f.off, "white space around the <lastmod> value; trimmed")
		}
		d := x.date(val, f.off, rules.M01, "<lastmod>")
		if x.d.format == FormatIndex {
			x.ix.LastMod = d
		} else {
			x.u.LastMod = d
		}
	case fChangefreq:
		if untrimmed {
			x.reportAs(rules.X12, SeverityError, f.off, "white space around the <changefreq> value; the schema rejects it (value trimmed)")
		}
		x.u.ChangeFreq = x.changefreq(val, f.off)
	case fPriority:
		if untrimmed {
			x.reportAs(rules.X12, SeverityError, f.off, "white space around the <priority> value; the schema rejects it (value trimmed)")
		}
		x.u.Priority = x.priority(val, f.off)
	case fRSSLink, fRSSGuid:
		if x.dropOff-1 > f.off {
			// The URL read is not the one written (decode_loc.go).
			if f.field == fRSSLink {
				x.skip(x.dropRule, f.off, fmt.Sprintf("<link> %q is not the URL written: its %s; item skipped", shortText(val), x.dropName))
				x.locSkip = true
			}
			return
		}
		if f.field == fRSSLink {
			x.link = string(val)
		} else {
			x.guid = string(val)
		}
	case fRSSPubDate:
		if d, ok := parseRFC822(string(val)); ok {
			x.feedDate = d
		} else if len(val) > 0 {
			x.report(rules.R02, f.off, fmt.Sprintf("<pubDate> %q is not an RFC 822 date (Mon, 02 Jan 2006 15:04:05 GMT); ignored", shortText(val)))
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
			x.report(rules.R03, f.off, fmt.Sprintf("<%s> %q is not an RFC 3339 date; ignored", shortText(name), shortText(val)))
			return
		}
		x.feedDate, x.feedDatePrio = d, prio
	default:
		x.extValue(f, val, name)
	}
}

// entryEnd finishes a <url>, <sitemap>, <item> or <entry>.
func (x *xmlReader) entryEnd(f *frame) {
	bare := trimXMLSpace(x.bare)
	switch f.kind {
	case ekURL, ekSitemap:
		if x.locSkip {
			return // refuseLoc reported why
		}
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
				if x.refuseLoc(bare, f.off, printableASCII(bare), false, "the bare URL in "+tag) {
					return
				}
				loc = string(x.checkChars(bare, f.off, []byte(tag[1:len(tag)-1])))
				what := "has no <loc>"
				if x.emptyLoc != 0 {
					what = "has an empty <loc>"
				}
				x.report(rules.X04, f.off, fmt.Sprintf("%s %s; its bare text %q was read as the URL. Wrap it in <loc>…</loc>", tag, what, shortText(bare)))
			case x.emptyLoc != 0:
				// One diagnostic for one problem: the empty <loc> is why
				// the entry is skipped.
				x.skip(rules.X04, x.emptyLoc-1, x.emptyLocMsg(tag)+"; entry skipped")
				return
			default:
				x.skip(rules.X04, f.off, fmt.Sprintf("%s without <loc>; entry skipped", tag))
				return
			}
		} else if len(bare) > 0 {
			x.reportAs(RuleStrayText, SeverityWarning, f.off, fmt.Sprintf("text %q directly inside %s; ignored", shortText(bare), tag))
		}
		if f.kind == ekSitemap {
			x.ix.Loc = loc
			x.out = Item{Kind: ItemIndex, Index: x.ix, Line: x.eline, Col: x.ecol, LocLine: x.locLine, LocCol: x.locCol}
		} else {
			x.u.Loc = loc
			x.out = Item{Kind: ItemURL, URL: x.u, Line: x.eline, Col: x.ecol, LocLine: x.locLine, LocCol: x.locCol}
		}
		x.ready = true
	case ekItem:
		if x.locSkip {
			return // reported
		}
		loc := x.link
		if loc == "" && x.guid != "" && x.guidPerma && hasHTTPScheme([]byte(x.guid)) {
			loc = x.guid
		}
		if loc == "" {
			x.report(rules.R05, f.off, "RSS <item> without <link> (or permalink <guid>); skipped")
			return
		}
		if rule, msg := locProblem(loc, false); rule == rules.L07 {
			x.skip(rule, f.off, "<link> "+msg+"; item skipped")
			return
		}
		if !absHTTP(loc) {
			r := resolveRef(x.d.opt.BaseURL, loc)
			if r == "" {
				x.skip(rules.R05, f.off, fmt.Sprintf("relative <link> %q and no base URL to resolve it against; item skipped (pass the feed's URL as the base)", shortText([]byte(loc))))
				return
			}
			if x.refuseLoc([]byte(r), f.off, false, false, fmt.Sprintf("<link> %q resolved to", shortText([]byte(loc)))) {
				return
			}
			x.report(rules.R05, f.off, fmt.Sprintf("relative <link> %q read as %q (resolved against the feed's URL); give the absolute URL", shortText([]byte(loc)), shortText([]byte(r))))
			loc = r
		}
		x.out = Item{Kind: ItemURL, URL: URL{Loc: loc, LastMod: x.feedDate, Source: x.d.opt.Name}, Line: x.eline, Col: x.ecol}
		x.ready = true
	case ekEntry:
		if x.locSkip {
			return // reported
		}
		if x.link == "" {
			x.report(rules.R03, f.off, "Atom <entry> without a usable <link href> (rel=\"alternate\" or no rel); skipped")
			return
		}
		if x.refuseLoc([]byte(x.link), f.off, false, false, "<link href>") {
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
