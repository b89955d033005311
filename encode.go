package sitemap

import (
	"errors"
	"io"
	"net/url"
	"strconv"

	"github.com/sitemapkit/sitemap/rules"
)

// Ext is a set of extension namespaces (EX-01).
type Ext uint8

// The extension namespaces the encoder can declare and write.
const (
	ExtImage Ext = 1 << iota // xmlns:image, NamespaceImage (IM-01)
	ExtVideo                 // xmlns:video, NamespaceVideo (V-01)
	ExtNews                  // xmlns:news, NamespaceNews (N-01)
	ExtXHTML                 // xmlns:xhtml, NamespaceXHTML, for hreflang alternates (H-01)

	// ExtAll is every extension the encoder knows.
	ExtAll = ExtImage | ExtVideo | ExtNews | ExtXHTML
)

// Extensions reports which extension namespaces u needs: ExtImage when it
// has images, ExtVideo for videos, ExtNews for news, ExtXHTML for
// alternates. OR the results over a file's entries to get the smallest
// EncoderOptions.Extensions for it (EX-05).
func Extensions(u *URL) Ext {
	var e Ext
	if len(u.Images) > 0 {
		e |= ExtImage
	}
	if len(u.Videos) > 0 {
		e |= ExtVideo
	}
	if u.News != nil {
		e |= ExtNews
	}
	if len(u.Alternates) > 0 {
		e |= ExtXHTML
	}
	return e
}

// EncoderOptions says what kind of document an [Encoder] writes. Its
// methods are the encoder's building blocks, usable without an Encoder:
// AppendHeader, then any number of AppendURL (or AppendIndexEntry), then
// Trailer give a complete document, and the lengths of the pieces are the
// exact byte counts (S-07).
//
// The output is deterministic and compact, one entry per line:
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//	<url><loc>https://www.example.com/</loc><lastmod>2026-11-02</lastmod></url>
//	</urlset>
type EncoderOptions struct {
	// Index writes a <sitemapindex> of <sitemap> entries instead of a
	// <urlset> (I-01). Extensions is ignored for an index.
	Index bool
	// Extensions are the namespaces declared on <urlset> (EX-05: declare
	// only what the file uses; see [Extensions]). An entry that needs an
	// undeclared namespace is refused with an *EntryError (rule EX-05).
	Extensions Ext
	// Stylesheet, when set, adds <?xml-stylesheet type="text/xsl"
	// href="…"?> after the XML declaration, so browsers render the file.
	// The href is written as given (XML-escaped; characters XML forbids
	// are dropped, since the header has no error path).
	Stylesheet string
	// Legacy also writes the deprecated tags: image caption, geo_location,
	// title and license (IM-04), video category, gallery_loc, price and
	// the player_loc attributes (V-04), and the news access, genres,
	// keywords and stock_tickers (N-09). Without it those fields are
	// neither checked nor written.
	Legacy bool
	// Scope, when set, is the URL the document will be served from (or the
	// site's base URL): every loc must be in its scope (L-09, L-15, I-06),
	// that is, have its scheme, host and port and a path under its
	// directory. It must be an absolute http(s) URL.
	Scope *url.URL
	// SchemaLocation adds xmlns:xsi and xsi:schemaLocation pointing at the
	// official XSDs of the root and of every declared extension.
	SchemaLocation bool
}

// The XML declaration every document starts with: UTF-8, no BOM.
const xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// AppendHeader appends what comes before the first entry: the XML
// declaration, the optional stylesheet processing instruction, and the
// root start tag with its namespace declarations, each followed by "\n".
func (o EncoderOptions) AppendHeader(dst []byte) []byte {
	dst = append(dst, xmlDecl...)
	if o.Stylesheet != "" {
		dst = append(dst, `<?xml-stylesheet type="text/xsl" href="`...)
		dst = appendAttrLossy(dst, o.Stylesheet)
		dst = append(dst, "\"?>\n"...)
	}
	if o.Index {
		dst = append(dst, `<sitemapindex xmlns="`+NamespaceSitemap+`"`...)
		if o.SchemaLocation {
			dst = append(dst, ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="`+
				NamespaceSitemap+` http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd"`...)
		}
		return append(dst, ">\n"...)
	}
	dst = append(dst, `<urlset xmlns="`+NamespaceSitemap+`"`...)
	x := o.Extensions
	if x&ExtImage != 0 {
		dst = append(dst, ` xmlns:image="`+NamespaceImage+`"`...)
	}
	if x&ExtVideo != 0 {
		dst = append(dst, ` xmlns:video="`+NamespaceVideo+`"`...)
	}
	if x&ExtNews != 0 {
		dst = append(dst, ` xmlns:news="`+NamespaceNews+`"`...)
	}
	if x&ExtXHTML != 0 {
		dst = append(dst, ` xmlns:xhtml="`+NamespaceXHTML+`"`...)
	}
	if o.SchemaLocation {
		dst = append(dst, ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="`+
			NamespaceSitemap+` http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd`...)
		if x&ExtImage != 0 {
			dst = append(dst, ` `+NamespaceImage+` http://www.google.com/schemas/sitemap-image/1.1/sitemap-image.xsd`...)
		}
		if x&ExtVideo != 0 {
			dst = append(dst, ` `+NamespaceVideo+` http://www.google.com/schemas/sitemap-video/1.1/sitemap-video.xsd`...)
		}
		if x&ExtNews != 0 {
			dst = append(dst, ` `+NamespaceNews+` http://www.google.com/schemas/sitemap-news/0.9/sitemap-news.xsd`...)
		}
		if x&ExtXHTML != 0 {
			dst = append(dst, ` `+NamespaceXHTML+` http://www.w3.org/2002/08/xhtml/xhtml1-strict.xsd`...)
		}
		dst = append(dst, '"')
	}
	return append(dst, ">\n"...)
}

// Trailer returns the closing root tag with its newline: "</urlset>\n"
// (10 bytes) or "</sitemapindex>\n" (16 bytes). Reserve its length before
// accepting another entry (S-07).
func (o EncoderOptions) Trailer() string {
	if o.Index {
		return "</sitemapindex>\n"
	}
	return "</urlset>\n"
}

var (
	errURLInIndex   = errors.New("sitemap: a <url> entry cannot go in a sitemap index (EncoderOptions.Index is set)")
	errIndexInURLs  = errors.New("sitemap: a <sitemap> entry cannot go in a urlset (EncoderOptions.Index is not set)")
	errEncoderClose = errors.New("sitemap: Encoder is closed")
)

// AppendURL checks u (see Check) and appends its <url> element and a
// newline to dst. On an error it returns dst unchanged: an *EntryError for
// a bad entry, or a plain error when o cannot write URLs at all (o.Index
// set, an invalid o.Scope, a nil u).
//
// The number of bytes appended is exactly what the entry adds to the
// document, so a caller can tell before writing whether it still fits.
// When dst has room, AppendURL does not allocate for an entry whose loc
// and text need no escaping.
func (o EncoderOptions) AppendURL(dst []byte, u *URL) ([]byte, error) {
	if o.Index {
		return dst, errURLInIndex
	}
	plain, err := o.check(u)
	if err != nil {
		return dst, err
	}
	return o.appendURL(dst, u, plain), nil
}

// AppendIndexEntry checks x (see CheckIndexEntry) and appends its <sitemap>
// element and a newline to dst; on an error it returns dst unchanged.
func (o EncoderOptions) AppendIndexEntry(dst []byte, x *IndexEntry) ([]byte, error) {
	if !o.Index {
		return dst, errIndexInURLs
	}
	if err := o.CheckIndexEntry(x); err != nil {
		return dst, err
	}
	return appendIndexEntry(dst, x), nil
}

func appendIndexEntry(dst []byte, x *IndexEntry) []byte {
	dst = append(dst, "<sitemap><loc>"...)
	dst = appendText(dst, x.Loc)
	dst = append(dst, "</loc>"...)
	if !x.LastMod.IsZero() {
		dst = append(dst, "<lastmod>"...)
		dst = appendDate(dst, x.LastMod)
		dst = append(dst, "</lastmod>"...)
	}
	return append(dst, "</sitemap>\n"...)
}

// appendURL writes a checked entry: loc, lastmod, changefreq, priority
// then the extensions: alternates, images, videos, news. plainLoc
// says that loc has nothing to escape (check's result).
func (o EncoderOptions) appendURL(dst []byte, u *URL, plainLoc bool) []byte {
	dst = append(dst, "<url><loc>"...)
	if plainLoc {
		dst = append(dst, u.Loc...)
	} else {
		dst = appendText(dst, u.Loc)
	}
	dst = append(dst, "</loc>"...)
	if !u.LastMod.IsZero() {
		dst = append(dst, "<lastmod>"...)
		dst = appendDate(dst, u.LastMod)
		dst = append(dst, "</lastmod>"...)
	}
	if u.ChangeFreq != "" {
		dst = append(dst, "<changefreq>"...)
		dst = append(dst, u.ChangeFreq...) // checked: one of seven ASCII words
		dst = append(dst, "</changefreq>"...)
	}
	if u.Priority != nil {
		dst = append(dst, "<priority>"...)
		dst = appendDecimal(dst, *u.Priority)
		dst = append(dst, "</priority>"...)
	}
	for i := range u.Alternates {
		a := &u.Alternates[i]
		dst = append(dst, `<xhtml:link rel="alternate" hreflang="`...)
		dst = appendAttr(dst, a.Hreflang)
		dst = append(dst, `" href="`...)
		dst = appendAttr(dst, a.Href)
		dst = append(dst, `"/>`...)
	}
	for i := range u.Images {
		dst = o.appendImage(dst, &u.Images[i])
	}
	for i := range u.Videos {
		dst = o.appendVideo(dst, &u.Videos[i])
	}
	if u.News != nil {
		dst = o.appendNews(dst, u.News)
	}
	return append(dst, "</url>\n"...)
}

// appendElem appends open, s escaped, close; nothing when s is empty.
func appendElem(dst []byte, open, close, s string) []byte {
	if s == "" {
		return dst
	}
	dst = append(dst, open...)
	dst = appendText(dst, s)
	return append(dst, close...)
}

// IM-01 order: loc, caption, geo_location, title, license.
func (o EncoderOptions) appendImage(dst []byte, im *Image) []byte {
	dst = append(dst, "<image:image><image:loc>"...)
	dst = appendText(dst, im.Loc)
	dst = append(dst, "</image:loc>"...)
	if o.Legacy {
		dst = appendElem(dst, "<image:caption>", "</image:caption>", im.Caption)
		dst = appendElem(dst, "<image:geo_location>", "</image:geo_location>", im.GeoLocation)
		dst = appendElem(dst, "<image:title>", "</image:title>", im.Title)
		dst = appendElem(dst, "<image:license>", "</image:license>", im.License)
	}
	return append(dst, "</image:image>"...)
}

func appendYesNo(dst []byte, open, close string, b *bool) []byte {
	if b == nil {
		return dst
	}
	dst = append(dst, open...)
	if *b {
		dst = append(dst, "yes"...)
	} else {
		dst = append(dst, "no"...)
	}
	return append(dst, close...)
}

func appendDateElem(dst []byte, open, close string, d Date) []byte {
	if d.IsZero() {
		return dst
	}
	dst = append(dst, open...)
	dst = appendDate(dst, d)
	return append(dst, close...)
}

// V-03 order: thumbnail_loc, title, description, content_loc, player_loc,
// duration, expiration_date, rating, view_count, publication_date, tag*,
// category, family_friendly, restriction, gallery_loc, price*,
// requires_subscription, uploader, platform, live.
func (o EncoderOptions) appendVideo(dst []byte, v *Video) []byte {
	dst = append(dst, "<video:video>"...)
	dst = appendElem(dst, "<video:thumbnail_loc>", "</video:thumbnail_loc>", v.ThumbnailLoc)
	dst = appendElem(dst, "<video:title>", "</video:title>", v.Title)
	dst = appendElem(dst, "<video:description>", "</video:description>", v.Description)
	dst = appendElem(dst, "<video:content_loc>", "</video:content_loc>", v.ContentLoc)
	if v.PlayerLoc != "" {
		dst = append(dst, "<video:player_loc"...)
		if o.Legacy {
			if v.PlayerAllowEmbed != "" {
				dst = append(dst, ` allow_embed="`...)
				dst = appendAttr(dst, v.PlayerAllowEmbed)
				dst = append(dst, '"')
			}
			if v.PlayerAutoplay != "" {
				dst = append(dst, ` autoplay="`...)
				dst = appendAttr(dst, v.PlayerAutoplay)
				dst = append(dst, '"')
			}
		}
		dst = append(dst, '>')
		dst = appendText(dst, v.PlayerLoc)
		dst = append(dst, "</video:player_loc>"...)
	}
	if v.Duration != nil {
		dst = append(dst, "<video:duration>"...)
		dst = strconv.AppendInt(dst, int64(*v.Duration), 10)
		dst = append(dst, "</video:duration>"...)
	}
	dst = appendDateElem(dst, "<video:expiration_date>", "</video:expiration_date>", v.ExpirationDate)
	if v.Rating != nil {
		dst = append(dst, "<video:rating>"...)
		dst = appendDecimal(dst, *v.Rating)
		dst = append(dst, "</video:rating>"...)
	}
	if v.ViewCount != nil {
		dst = append(dst, "<video:view_count>"...)
		dst = strconv.AppendInt(dst, *v.ViewCount, 10)
		dst = append(dst, "</video:view_count>"...)
	}
	dst = appendDateElem(dst, "<video:publication_date>", "</video:publication_date>", v.PublicationDate)
	for _, tag := range v.Tags {
		dst = appendElem(dst, "<video:tag>", "</video:tag>", tag)
	}
	if o.Legacy {
		dst = appendElem(dst, "<video:category>", "</video:category>", v.Category)
	}
	dst = appendYesNo(dst, "<video:family_friendly>", "</video:family_friendly>", v.FamilyFriendly)
	if r := v.Restriction; r != nil {
		dst = append(dst, `<video:restriction relationship="`...)
		dst = append(dst, r.Relationship...) // checked: allow or deny
		dst = append(dst, `">`...)
		dst = append(dst, r.Countries...) // checked: capitals and spaces
		dst = append(dst, "</video:restriction>"...)
	}
	if o.Legacy {
		dst = appendElem(dst, "<video:gallery_loc>", "</video:gallery_loc>", v.GalleryLoc)
		for i := range v.Prices {
			p := &v.Prices[i]
			dst = append(dst, "<video:price"...)
			for _, a := range [3][2]string{{" currency=\"", p.Currency}, {" type=\"", p.Type}, {" resolution=\"", p.Resolution}} {
				if a[1] != "" {
					dst = append(dst, a[0]...)
					dst = append(dst, a[1]...) // checked: letters only
					dst = append(dst, '"')
				}
			}
			dst = append(dst, '>')
			dst = appendText(dst, p.Value)
			dst = append(dst, "</video:price>"...)
		}
	}
	dst = appendYesNo(dst, "<video:requires_subscription>", "</video:requires_subscription>", v.RequiresSubscription)
	if u := v.Uploader; u != nil {
		dst = append(dst, "<video:uploader"...)
		if u.Info != "" {
			dst = append(dst, ` info="`...)
			dst = appendAttr(dst, u.Info)
			dst = append(dst, '"')
		}
		dst = append(dst, '>')
		dst = appendText(dst, u.Name)
		dst = append(dst, "</video:uploader>"...)
	}
	if p := v.Platform; p != nil {
		dst = append(dst, `<video:platform relationship="`...)
		dst = append(dst, p.Relationship...)
		dst = append(dst, `">`...)
		dst = append(dst, p.Platforms...) // checked: web/mobile/tv and spaces
		dst = append(dst, "</video:platform>"...)
	}
	dst = appendYesNo(dst, "<video:live>", "</video:live>", v.Live)
	return append(dst, "</video:video>"...)
}

// N-08 order: publication (name, language), access, genres,
// publication_date, title, keywords, stock_tickers.
func (o EncoderOptions) appendNews(dst []byte, n *News) []byte {
	dst = append(dst, "<news:news><news:publication><news:name>"...)
	dst = appendText(dst, n.Publication.Name)
	dst = append(dst, "</news:name><news:language>"...)
	dst = append(dst, n.Publication.Language...) // checked: lowercase letters
	dst = append(dst, "</news:language></news:publication>"...)
	if o.Legacy {
		dst = appendElem(dst, "<news:access>", "</news:access>", n.Access)
		dst = appendElem(dst, "<news:genres>", "</news:genres>", n.Genres)
	}
	dst = appendDateElem(dst, "<news:publication_date>", "</news:publication_date>", n.PublicationDate)
	dst = appendElem(dst, "<news:title>", "</news:title>", n.Title)
	if o.Legacy {
		dst = appendElem(dst, "<news:keywords>", "</news:keywords>", n.Keywords)
		dst = appendElem(dst, "<news:stock_tickers>", "</news:stock_tickers>", n.StockTickers)
	}
	return append(dst, "</news:news>"...)
}

// appendDecimal writes a priority or rating as an xsd:decimal: one decimal
// place when that is exact (P-04), else the shortest exact decimal; the
// same text as FormatPriority, without allocating. Negative zero is
// written as 0.0.
func appendDecimal(dst []byte, p float64) []byte {
	if p == 0 {
		return append(dst, "0.0"...)
	}
	if d := float64(int64(p*10 + 0.5)); d/10 == p {
		return strconv.AppendFloat(dst, p, 'f', 1, 64)
	}
	return strconv.AppendFloat(dst, p, 'f', -1, 64)
}

// appendDate writes d in a form valid under both W3C Datetime and the XSD
// (M-08): YYYY-MM-DD for day precision, else YYYY-MM-DDThh:mm:ss with the
// fraction digits d keeps and a TZD ("Z" for a zero offset). Minute
// precision is written with seconds, ":00" for any value parsed from
// "hh:mm" (the same instant; "hh:mm" alone fails the XSD, M-04). See
// fieldsOf for zones the TZD cannot express.
// d must have passed checkDate.
func appendDate(dst []byte, d Date) []byte {
	f := fieldsOf(d)
	dst = append4(dst, f.year)
	dst = append(dst, '-')
	dst = append2(dst, f.month)
	dst = append(dst, '-')
	dst = append2(dst, f.day)
	if d.Precision == PrecisionDay {
		return dst
	}
	dst = append(dst, 'T')
	dst = append2(dst, f.hour)
	dst = append(dst, ':')
	dst = append2(dst, f.min)
	dst = append(dst, ':')
	dst = append2(dst, f.sec)
	if n := int(d.FracDigits); d.Precision == PrecisionSecond && n > 0 {
		if n > 9 {
			n = 9
		}
		var buf [9]byte
		ns := f.nsec
		for i := 8; i >= 0; i-- {
			buf[i] = byte('0' + ns%10)
			ns /= 10
		}
		dst = append(dst, '.')
		dst = append(dst, buf[:n]...)
	}
	off := f.off
	if off == 0 {
		return append(dst, 'Z')
	}
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	dst = append2(dst, off/3600)
	dst = append(dst, ':')
	return append2(dst, off/60%60)
}

func append2(dst []byte, n int) []byte {
	return append(dst, byte('0'+n/10), byte('0'+n%10))
}

func append4(dst []byte, n int) []byte {
	return append(dst, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}

// An Encoder writes one sitemap document (a urlset, or a sitemapindex
// when EncoderOptions.Index is set) to an io.Writer, one entry at a time.
//
// It buffers up to 32 KiB (one entry may make the buffer larger) and
// writes whole buffers to w; Flush writes what is buffered, Close writes
// the trailer and flushes. The header is written with the first entry, or
// by Close when there was none (an empty urlset, which the XSD rejects,
// callers should not produce one). Memory does not grow with the
// number of entries.
//
// An *EntryError from Encode leaves the document unchanged, and the
// Encoder goes on. An error from w is sticky: every later call returns it.
// An Encoder is not safe for concurrent use.
type Encoder struct {
	w       io.Writer
	o       EncoderOptions
	buf     []byte
	n       int64 // bytes produced: written to w or in buf
	count   int
	err     error // sticky
	started bool
	closed  bool
}

const encoderBufSize = 32 << 10

// NewEncoder returns an Encoder that writes to w with the options o. It
// writes nothing until the first entry (or Close).
//
// Options that cannot work (a Scope that is not an absolute http(s) URL, a
// Stylesheet with characters XML forbids) make every call return the same
// plain error, before any entry is looked at.
func NewEncoder(w io.Writer, o EncoderOptions) *Encoder {
	e := &Encoder{w: w, o: o, buf: make([]byte, 0, encoderBufSize+4096)}
	if err := o.checkScopeOption(); err != nil {
		e.err = err
	} else if bad, ok := checkText(o.Stylesheet); !ok {
		e.err = errors.New("sitemap: EncoderOptions.Stylesheet contains " + bad.describe())
	}
	return e
}

// start buffers the header.
func (e *Encoder) start() error {
	if e.started {
		return nil
	}
	m := len(e.buf)
	e.buf = e.o.AppendHeader(e.buf)
	e.n += int64(len(e.buf) - m)
	e.started = true
	return nil
}

func (e *Encoder) ready() error {
	if e.err != nil {
		return e.err
	}
	if e.closed {
		return errEncoderClose
	}
	return nil
}

// Encode checks u (see EncoderOptions.Check) and writes its <url>. On an
// *EntryError nothing is written; other errors (from the writer, or
// options that cannot work) are returned as they are.
func (e *Encoder) Encode(u *URL) error {
	if err := e.ready(); err != nil {
		return err
	}
	if e.o.Index {
		return errURLInIndex
	}
	plain, err := e.o.check(u)
	if err != nil {
		return err
	}
	if err := e.start(); err != nil {
		return err
	}
	m := len(e.buf)
	e.buf = e.o.appendURL(e.buf, u, plain)
	e.n += int64(len(e.buf) - m)
	e.count++
	return e.maybeFlush()
}

// EncodeWithin is Encode when the document may not grow beyond maxBytes
// (header, entries and trailer included, S-07): it writes u and returns
// true when the document, closed right after u, would have at most
// maxBytes bytes; otherwise it writes nothing and returns false, and the
// caller starts a new document. When u does not fit even into an empty
// document, it returns false and an *EntryError (rule S-02), so a caller
// that rolls over does not loop.
func (e *Encoder) EncodeWithin(u *URL, maxBytes int64) (bool, error) {
	if err := e.ready(); err != nil {
		return false, err
	}
	if e.o.Index {
		return false, errURLInIndex
	}
	plain, err := e.o.check(u)
	if err != nil {
		return false, err
	}
	m := len(e.buf)
	var hdr []byte
	if !e.started {
		hdr = e.o.AppendHeader(nil)
	}
	e.buf = e.o.appendURL(e.buf, u, plain)
	size := int64(len(e.buf) - m)
	if e.n+int64(len(hdr))+size+int64(len(e.o.Trailer())) > maxBytes {
		e.buf = e.buf[:m]
		if e.count == 0 {
			return false, &EntryError{Rule: rules.S02, Value: u.Loc, Field: "loc",
				Message: "makes an entry of " + strconv.FormatInt(size, 10) + " bytes, which does not fit in a document of at most " +
					strconv.FormatInt(maxBytes, 10) + " bytes even alone"}
		}
		return false, nil
	}
	if !e.started {
		// Put the header in front of the entry just appended.
		entry := append([]byte(nil), e.buf[m:]...)
		e.buf = e.buf[:m]
		if err := e.start(); err != nil {
			return false, err
		}
		e.buf = append(e.buf, entry...)
	}
	e.n += size
	e.count++
	return true, e.maybeFlush()
}

// EncodeIndexEntry checks x (see EncoderOptions.CheckIndexEntry) and
// writes its <sitemap>; errors as for Encode.
func (e *Encoder) EncodeIndexEntry(x *IndexEntry) error {
	if err := e.ready(); err != nil {
		return err
	}
	if !e.o.Index {
		return errIndexInURLs
	}
	if err := e.o.CheckIndexEntry(x); err != nil {
		return err
	}
	if err := e.start(); err != nil {
		return err
	}
	m := len(e.buf)
	e.buf = appendIndexEntry(e.buf, x)
	e.n += int64(len(e.buf) - m)
	e.count++
	return e.maybeFlush()
}

func (e *Encoder) maybeFlush() error {
	if len(e.buf) >= encoderBufSize {
		return e.Flush()
	}
	return nil
}

// Flush writes the buffered bytes to the underlying writer. It does not
// write the trailer: the document stays open.
func (e *Encoder) Flush() error {
	if e.err != nil {
		return e.err
	}
	if len(e.buf) == 0 {
		return nil
	}
	n, err := e.w.Write(e.buf)
	if err == nil && n < len(e.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = err
		return err
	}
	e.buf = e.buf[:0]
	return nil
}

// Written returns the number of uncompressed bytes the document has so
// far: the header (once the first entry or Close wrote it), every
// accepted entry and, after Close, the trailer. Bytes still buffered are
// counted; they reach the writer at the latest with Close.
func (e *Encoder) Written() int64 { return e.n }

// Count returns the number of entries written.
func (e *Encoder) Count() int { return e.count }

// Close writes the header if nothing was written yet, then the trailer,
// and flushes. It does not close the underlying writer. Calling Close
// again returns the first Close's result.
func (e *Encoder) Close() error {
	if e.closed || e.err != nil {
		return e.err
	}
	e.closed = true
	if err := e.start(); err != nil {
		return err
	}
	t := e.o.Trailer()
	e.buf = append(e.buf, t...)
	e.n += int64(len(t))
	return e.Flush()
}
