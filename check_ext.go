package sitemap

import (
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// The checks of the extensions' fields (images, videos, news, hreflang
// alternates). The value rules are package internal/check's, shared with
// package validate.

func (o EncoderOptions) checkImage(f field, im *Image) error {
	if im.Loc == "" {
		return entryErr(f.with("loc"), rules.IM01, "", "is required: every image needs an absolute URL")
	}
	if err := checkOtherURL(f.with("loc"), im.Loc, rules.IM01, false); err != nil {
		return err
	}
	if !o.Legacy {
		return nil // IM-04: the deprecated fields are not written
	}
	if err := checkTextField(f.with("caption"), rules.IM01, im.Caption, false, 0); err != nil {
		return err
	}
	if err := checkTextField(f.with("geo_location"), rules.IM01, im.GeoLocation, false, 0); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), rules.IM01, im.Title, false, 0); err != nil {
		return err
	}
	if im.License != "" {
		return checkOtherURL(f.with("license"), im.License, rules.IM01, false)
	}
	return nil
}

// Limits of the video extension (V-01) beyond limits.go.
const (
	maxVideoTitle    = check.MaxVideoTitle
	maxVideoUploader = check.MaxVideoUploader
	maxVideoCategory = 256 // the video XSD's maxLength for <video:category>
)

func (o EncoderOptions) checkVideo(f field, loc string, v *Video) error {
	if v.ThumbnailLoc == "" {
		return entryErr(f.with("thumbnail_loc"), rules.V01, "", "is required")
	}
	if err := checkOtherURL(f.with("thumbnail_loc"), v.ThumbnailLoc, rules.V01, false); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), rules.V01, v.Title, true, maxVideoTitle); err != nil {
		return err
	}
	if err := checkTextField(f.with("description"), rules.V01, v.Description, true, MaxVideoDescription); err != nil {
		return err
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		return entryErr(f.with("content_loc"), rules.V01, "", "or player_loc is required: a video needs the media file's URL or the player's")
	}
	for _, u := range [2]struct{ name, val string }{{"content_loc", v.ContentLoc}, {"player_loc", v.PlayerLoc}} {
		if u.val == "" {
			continue
		}
		if err := checkOtherURL(f.with(u.name), u.val, rules.V01, false); err != nil {
			return err
		}
		if pr := check.NotLoc(u.val, loc); !pr.OK() {
			return problemErr(f.with(u.name), u.val, pr)
		}
	}
	if v.Duration != nil {
		if pr := check.VideoDuration(*v.Duration); !pr.OK() {
			return problemErr(f.with("duration"), strconv.Itoa(*v.Duration), pr)
		}
	}
	if err := checkDate(f.with("expiration_date"), rules.V01, v.ExpirationDate); err != nil {
		return err
	}
	if v.Rating != nil {
		if pr := check.VideoRating(*v.Rating); !pr.OK() {
			return problemErr(f.with("rating"), strconv.FormatFloat(*v.Rating, 'g', -1, 64), pr)
		}
	}
	if v.ViewCount != nil {
		if pr := check.VideoViewCount(*v.ViewCount); !pr.OK() {
			return problemErr(f.with("view_count"), strconv.FormatInt(*v.ViewCount, 10), pr)
		}
	}
	if err := checkDate(f.with("publication_date"), rules.V01, v.PublicationDate); err != nil {
		return err
	}
	if pr := check.VideoTags(len(v.Tags)); !pr.OK() {
		return problemErr(f.with("tags"), "", pr)
	}
	for i, tag := range v.Tags {
		if err := checkTextField(f.at("tags", i), rules.V01, tag, true, 0); err != nil {
			return err
		}
	}
	if r := v.Restriction; r != nil {
		if pr := check.Relationship(string(r.Relationship)); !pr.OK() {
			return problemErr(f.with("restriction.relationship"), string(r.Relationship), pr)
		}
		if pr := check.Countries(r.Countries); !pr.OK() {
			return problemErr(f.with("restriction.countries"), r.Countries, pr)
		}
	}
	if u := v.Uploader; u != nil {
		if err := checkTextField(f.with("uploader.name"), rules.V01, u.Name, true, maxVideoUploader); err != nil {
			return err
		}
		if u.Info != "" {
			if err := checkOtherURL(f.with("uploader.info"), u.Info, rules.V01, false); err != nil {
				return err
			}
			if err := checkUploaderDomain(f.with("uploader.info"), u.Info, loc); err != nil {
				return err
			}
		}
	}
	if p := v.Platform; p != nil {
		if pr := check.Relationship(string(p.Relationship)); !pr.OK() {
			return problemErr(f.with("platform.relationship"), string(p.Relationship), pr)
		}
		if pr := check.Platforms(p.Platforms); !pr.OK() {
			return problemErr(f.with("platform.platforms"), p.Platforms, pr)
		}
	}
	if !o.Legacy {
		return nil // V-04: the deprecated fields are not written
	}
	return o.checkVideoLegacy(f, v)
}

// checkUploaderDomain checks that the uploader's info URL is on the
// registrable domain of the page's loc (V-06). Both URLs passed the URL
// checks already (the loc is checked before the videos).
func checkUploaderDomain(f field, info, loc string) error {
	if pr := check.SameDomainURLs(info, loc); !pr.OK() {
		return problemErr(f, info, pr)
	}
	return nil
}

// checkVideoLegacy checks the deprecated video fields, written only with
// o.Legacy (V-02, V-04).
func (o EncoderOptions) checkVideoLegacy(f field, v *Video) error {
	if err := checkTextField(f.with("category"), rules.V02, v.Category, false, maxVideoCategory); err != nil {
		return err
	}
	if v.GalleryLoc != "" {
		if err := checkOtherURL(f.with("gallery_loc"), v.GalleryLoc, rules.V02, false); err != nil {
			return err
		}
	}
	for i := range v.Prices {
		pr := &v.Prices[i]
		pf := f.at("prices", i)
		if err := checkTextField(pf.with("value"), rules.V02, pr.Value, false, 0); err != nil {
			return err
		}
		if pr.Currency != "" && !check.Currency(pr.Currency) {
			return entryErr(pf.with("currency"), rules.V02, pr.Currency, "is not an ISO 4217 code of three capital letters, such as EUR")
		}
		switch pr.Type {
		case "", "purchase", "PURCHASE", "rent", "RENT":
		default:
			return entryErr(pf.with("type"), rules.V02, pr.Type, "is neither purchase nor rent")
		}
		switch pr.Resolution {
		case "", "sd", "SD", "hd", "HD":
		default:
			return entryErr(pf.with("resolution"), rules.V02, pr.Resolution, "is neither sd nor hd")
		}
	}
	if v.PlayerAllowEmbed != "" || v.PlayerAutoplay != "" {
		if v.PlayerLoc == "" {
			return entryErr(f.with("player_allow_embed"), rules.V02, v.PlayerAllowEmbed+v.PlayerAutoplay,
				"and player_autoplay are attributes of player_loc, which is empty")
		}
		if v.PlayerAllowEmbed != "" && !check.YesNo(v.PlayerAllowEmbed) {
			return entryErr(f.with("player_allow_embed"), rules.V02, v.PlayerAllowEmbed, "is neither yes nor no")
		}
		if err := checkTextField(f.with("player_autoplay"), rules.V02, v.PlayerAutoplay, false, 0); err != nil {
			return err
		}
	}
	return nil
}

func (o EncoderOptions) checkNews(n *News) error {
	f := top("news")
	if err := checkTextField(f.with("publication.name"), rules.N01, n.Publication.Name, true, 0); err != nil {
		return err
	}
	if pr := check.NewsLanguage(n.Publication.Language); !pr.OK() {
		return problemErr(f.with("publication.language"), n.Publication.Language, pr)
	}
	if n.PublicationDate.IsZero() {
		return entryErr(f.with("publication_date"), rules.N01, "", "is required: N-04 wants the article's original publication time")
	}
	if err := checkDate(f.with("publication_date"), rules.N04, n.PublicationDate); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), rules.N01, n.Title, true, 0); err != nil {
		return err
	}
	if !o.Legacy {
		return nil // N-09: the 2010 XSD's optional tags are not written
	}
	if n.Access != "" {
		if pr := check.NewsAccess(n.Access); !pr.OK() {
			return problemErr(f.with("access"), n.Access, pr)
		}
	}
	if n.Genres != "" {
		if pr := check.NewsGenres(n.Genres); !pr.OK() {
			return problemErr(f.with("genres"), n.Genres, pr)
		}
	}
	if err := checkTextField(f.with("keywords"), rules.N08, n.Keywords, false, 0); err != nil {
		return err
	}
	if n.StockTickers != "" {
		if pr := check.NewsTickers(n.StockTickers); !pr.OK() {
			return problemErr(f.with("stock_tickers"), n.StockTickers, pr)
		}
	}
	return nil
}

// checkAlternates checks the hreflang links of one <url> (H-05, H-06,
// H-08).
func checkAlternates(alts []Alternate) error {
	xdefault := -1
	for i := range alts {
		a := &alts[i]
		f := field{name: "alternates", i: i}
		if pr := check.Hreflang(a.Hreflang); !pr.OK() {
			return problemErr(f.with("hreflang"), a.Hreflang, pr)
		}
		if strings.EqualFold(a.Hreflang, "x-default") {
			if xdefault >= 0 {
				return problemErr(f.with("hreflang"), a.Hreflang, check.RepeatedHreflang(a.Hreflang))
			}
			xdefault = i
		}
		if a.Href == "" {
			return entryErr(f.with("href"), rules.H05, "", "is required: the alternate page's absolute URL")
		}
		if err := checkOtherURL(f.with("href"), a.Href, rules.H05, true); err != nil {
			return err
		}
		for j := 0; j < i; j++ {
			if strings.EqualFold(alts[j].Hreflang, a.Hreflang) && !strings.EqualFold(a.Hreflang, "x-default") {
				return problemErr(f.with("hreflang"), a.Hreflang, check.RepeatedHreflang(a.Hreflang))
			}
		}
	}
	return nil
}
