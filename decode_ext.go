package sitemap

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the extension containers of a <url>: <image:image>,
// <video:video>, <news:news> and <news:publication>, their children's
// order and the values they hold.

// container is what the order and duplicate checks (X-06, X-11, IM-01,
// V-03, N-08, N-01) remember of one element's children: which were seen
// (bits by leafField), the highest schema rank so far, and whether an order
// problem was already reported.
type container struct {
	has      uint64
	rank     int
	orderBad bool
}

// extOther skips an extension element, with EX-03 for unknown namespaces
// and LG-04 for the obsolete mobile one.
func (x *xmlReader) extOther(f *frame, kind nsKind, uri string) {
	switch kind {
	case nsMobile:
		x.reportOnce("mobile", rules.LG04, SeverityInfo, f.off, "the mobile extension (<mobile:mobile/>) is obsolete and ignored; remove it")
	case nsOther:
		if uri != "" {
			x.reportOnce("ns:"+uri, rules.EX03, SeverityInfo, f.off, fmt.Sprintf("elements of unknown extension namespace %q (first <%s>) are allowed but not read", uri, shortText(x.s.Name())))
		}
	case nsNone:
		x.reportOnce("ns:", rules.EX03, SeverityInfo, f.off, fmt.Sprintf("element <%s> in no namespace is not part of the protocol; ignored", shortText(x.s.Name())))
	}
}

// extLeaf opens a leaf of an extension container with order and duplicate
// checks; repeatable fields may occur more than once.
func (x *xmlReader) extLeaf(f *frame, field leafField, rank int, repeatable bool, c *container, rule rules.ID, parent string) bool {
	bit := uint64(1) << (field & 63)
	if !repeatable && c.has&bit != 0 {
		x.report(rules.X11, f.off, fmt.Sprintf("a second <%s> in <%s>; the first is kept", shortText(x.s.Name()), parent))
		return false
	}
	c.has |= bit
	if rank < c.rank && !c.orderBad {
		c.orderBad = true
		x.reportAs(rule, SeverityError, f.off, x.orderMsg(parent, c.rank))
	}
	if rank > c.rank {
		c.rank = rank
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
		x.report(rules.IM01, f.off, fmt.Sprintf("unexpected <%s> in <image:image>; ignored", shortText(x.s.Name())))
		return
	}
	if rank > 1 { // IM-03, V-02: deprecated tags are warnings
		x.report(rules.IM03, f.off, fmt.Sprintf("<%s> is deprecated since 2022 and has no effect at Google; read, but you can remove it", shortText(x.s.Name())))
	}
	x.extLeaf(f, field, rank, false, &x.image, rules.IM01, "image:image")
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
		x.report(rules.V03, f.off, fmt.Sprintf("unexpected <%s> in <video:video>; ignored", shortText(x.s.Name())))
		return
	}
	if deprecated { // IM-03, V-02: deprecated tags are warnings
		x.report(rules.V02, f.off, fmt.Sprintf("<%s> is deprecated since 2022 and has no effect at Google; read, but you can remove it", shortText(x.s.Name())))
	}
	if field == fNone {
		// Valid but not kept: check order, skip the content.
		if rank < x.video.rank && !x.video.orderBad {
			x.video.orderBad = true
			x.report(rules.V03, f.off, x.orderMsg("video:video", x.video.rank))
		}
		if rank > x.video.rank {
			x.video.rank = rank
		}
		return
	}
	if !x.extLeaf(f, field, rank, repeat, &x.video, rules.V03, "video:video") {
		return
	}
	v := &x.u.Videos[len(x.u.Videos)-1]
	switch field {
	case fVPlayer:
		if s, ok := x.attrString("allow_embed"); ok {
			v.PlayerAllowEmbed = s
			x.report(rules.V02, f.off, "the player_loc attribute allow_embed is deprecated since 2022; read, but you can remove it")
		}
		if s, ok := x.attrString("autoplay"); ok {
			v.PlayerAutoplay = s
			x.report(rules.V02, f.off, "the player_loc attribute autoplay is deprecated since 2022; read, but you can remove it")
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
		if x.news.has&bit != 0 {
			x.report(rules.X11, f.off, "a second <news:publication> in <news:news>; the first is kept")
			return
		}
		x.news.has |= bit
		if x.news.rank > 1 && !x.news.orderBad {
			x.news.orderBad = true
			x.report(rules.N08, f.off, x.orderMsg("news:news", x.news.rank))
		}
		if x.news.rank < 1 {
			x.news.rank = 1
		}
		f.kind = ekPublication
		x.publication = container{}
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
		x.report(rules.N08, f.off, fmt.Sprintf("unexpected <%s> in <news:news>; ignored", shortText(x.s.Name())))
		return
	}
	x.extLeaf(f, field, rank, false, &x.news, rules.N08, "news:news")
}

// extValue stores an image, video or news value.
func (x *xmlReader) extValue(f *frame, val, name []byte) {
	str := func() string { return x.strs.string(val) }
	bad := func(rule rules.ID, want string) {
		x.reportAs(rule, SeverityError, f.off, fmt.Sprintf("<%s> %q is not %s; ignored", shortText(name), shortText(val), want))
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
			nw.PublicationDate = x.date(val, f.off, rules.N04, "<news:publication_date>")
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
			bad(rules.V01, "a whole number of seconds")
			return
		}
		v.Duration = &n
	case fVExpiration:
		v.ExpirationDate = x.date(val, f.off, rules.V01, "<video:expiration_date>")
	case fVRating:
		r, err := strconv.ParseFloat(string(val), 64)
		if err != nil || !isDecimal(val) {
			bad(rules.V01, "a number from 0.0 to 5.0")
			return
		}
		v.Rating = &r
	case fVViewCount:
		n, err := strconv.ParseInt(string(val), 10, 64)
		if err != nil {
			bad(rules.V01, "a whole number")
			return
		}
		v.ViewCount = &n
	case fVPubDate:
		v.PublicationDate = x.date(val, f.off, rules.V01, "<video:publication_date>")
	case fVTag:
		v.Tags = append(v.Tags, str())
	case fVCategory:
		v.Category = str()
	case fVFamily, fVReqSub, fVLive:
		b, ok := parseYesNo(val)
		if !ok {
			bad(rules.V01, "yes or no")
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
