package validate

import (
	"strconv"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// images is IM-01 (image:loc present, absolute; a licence a URL too) and
// IM-02 (≤ 1,000 per url).
func (c *Checker) images(u *sitemap.URL, line, col int) {
	if n := len(u.Images); n > sitemap.MaxImagesPerURL {
		c.emit(line, col, rules.IM02, sitemap.SeverityError,
			"<url> has %d <image:image>; Google reads at most %d per URL", n, sitemap.MaxImagesPerURL)
	}
	for i := range u.Images {
		im := &u.Images[i]
		if len(u.Images) > 1 {
			c.prefix = "<image:image> #" + strconv.Itoa(i+1) + ": "
		}
		if im.Loc == "" {
			c.emit(line, col, rules.IM01, sitemap.SeverityError, "<image:image> without <image:loc>; each image needs its URL")
		} else {
			c.extURL(rules.IM01, "<image:loc>", im.Loc, false, line, col)
		}
		if im.License != "" {
			c.extURL(rules.IM01, "<image:license>", im.License, false, line, col)
		}
		c.prefix = ""
	}
}

// video is V-01: the required tags, content_loc or player_loc (neither the
// page's own loc), the value ranges and lists, the uploader's info on the
// page's domain; and S-08 (at most 32 tags). "At most one restriction,
// platform and uploader" is structural: the model holds one of each, so
// the decoder reports repeats.
func (c *Checker) video(u *sitemap.URL, v *sitemap.Video, line, col int) {
	req := func(val, tag string) bool {
		if check.Required(rules.V01, val).OK() {
			return true
		}
		c.emit(line, col, rules.V01, sitemap.SeverityError, "<video:video> has no %s; it is required", tag)
		return false
	}
	if req(v.ThumbnailLoc, "<video:thumbnail_loc>") {
		c.extURL(rules.V01, "<video:thumbnail_loc>", v.ThumbnailLoc, false, line, col)
	}
	if req(v.Title, "<video:title>") {
		c.value(line, col, "<video:title>", v.Title, check.MaxRunes(rules.V01, v.Title, check.MaxVideoTitle))
	}
	if req(v.Description, "<video:description>") {
		c.value(line, col, "<video:description>", v.Description, check.MaxRunes(rules.V01, v.Description, check.MaxVideoDescription))
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		c.emit(line, col, rules.V01, sitemap.SeverityError,
			"<video:video> has neither <video:content_loc> nor <video:player_loc>; Google needs at least one (the XSD cannot say so)")
	}
	if v.ContentLoc != "" {
		c.extURL(rules.V01, "<video:content_loc>", v.ContentLoc, false, line, col)
		c.value(line, col, "<video:content_loc>", v.ContentLoc, check.NotLoc(v.ContentLoc, u.Loc))
	}
	if v.PlayerLoc != "" {
		c.extURL(rules.V01, "<video:player_loc>", v.PlayerLoc, false, line, col)
		c.value(line, col, "<video:player_loc>", v.PlayerLoc, check.NotLoc(v.PlayerLoc, u.Loc))
	}
	if v.Duration != nil {
		if pr := check.VideoDuration(*v.Duration); !pr.OK() {
			c.value(line, col, "<video:duration>", strconv.Itoa(*v.Duration), pr)
		}
	}
	if v.Rating != nil {
		if pr := check.VideoRating(*v.Rating); !pr.OK() {
			c.value(line, col, "<video:rating>", strconv.FormatFloat(*v.Rating, 'g', -1, 64), pr)
		}
	}
	if v.ViewCount != nil {
		if pr := check.VideoViewCount(*v.ViewCount); !pr.OK() {
			c.value(line, col, "<video:view_count>", strconv.FormatInt(*v.ViewCount, 10), pr)
		}
	}
	c.value(line, col, "<video:video>", "", check.VideoTags(len(v.Tags)))
	if r := v.Restriction; r != nil {
		c.value(line, col, "<video:restriction> relationship", string(r.Relationship), check.Relationship(string(r.Relationship)))
		c.value(line, col, "<video:restriction>", r.Countries, check.Countries(r.Countries))
	}
	if p := v.Platform; p != nil {
		c.value(line, col, "<video:platform> relationship", string(p.Relationship), check.Relationship(string(p.Relationship)))
		c.value(line, col, "<video:platform>", p.Platforms, check.Platforms(p.Platforms))
	}
	if up := v.Uploader; up != nil {
		c.value(line, col, "<video:uploader>", up.Name, check.MaxRunes(rules.V01, up.Name, check.MaxVideoUploader))
		if up.Info != "" {
			if _, ok := c.extURL(rules.V01, "<video:uploader info>", up.Info, false, line, col); ok {
				if _, pr := check.URL(u.Loc); pr.OK() {
					c.value(line, col, "<video:uploader info>", up.Info, check.SameDomainURLs(up.Info, u.Loc))
				}
			}
		}
	}
}

// newsEntry is N-01 (required tags), N-03 (language), N-08 (access,
// genres and stock tickers as the XSD wants them), N-06/N-11 (older than
// 48 hours) and N-10 (more than 1,000 per sitemap).
func (c *Checker) newsEntry(n *sitemap.News, line, col int) {
	c.news++
	if c.news == sitemap.MaxNewsPerSitemap+1 {
		c.emit(line, col, rules.N10, sitemap.SeverityWarning,
			"more than %d <news:news> in one sitemap; Google reads at most %d per news sitemap: split it under an index (N-11)", sitemap.MaxNewsPerSitemap, sitemap.MaxNewsPerSitemap)
	}
	if !check.Required(rules.N01, n.Publication.Name).OK() {
		c.emit(line, col, rules.N01, sitemap.SeverityError, "<news:publication> has no <news:name>; it is required")
	}
	if n.Publication.Language == "" {
		c.emit(line, col, rules.N01, sitemap.SeverityError, "<news:publication> has no <news:language>; it is required")
	} else {
		c.value(line, col, "<news:language>", n.Publication.Language, check.NewsLanguage(n.Publication.Language))
	}
	if !check.Required(rules.N01, n.Title).OK() {
		c.emit(line, col, rules.N01, sitemap.SeverityError, "<news:news> has no <news:title>; it is required")
	}
	// N-08: the 2010 XSD's optional tags, as the encoder checks them.
	if n.Access != "" {
		c.value(line, col, "<news:access>", n.Access, check.NewsAccess(n.Access))
	}
	if n.Genres != "" {
		c.value(line, col, "<news:genres>", n.Genres, check.NewsGenres(n.Genres))
	}
	if n.StockTickers != "" {
		c.value(line, col, "<news:stock_tickers>", n.StockTickers, check.NewsTickers(n.StockTickers))
	}
	if n.PublicationDate.IsZero() {
		c.emit(line, col, rules.N01, sitemap.SeverityError, "<news:news> has no <news:publication_date>; it is required")
	} else if age := c.now.Sub(n.PublicationDate.Time); age > 48*time.Hour {
		c.emit(line, col, rules.N06, sitemap.SeverityWarning,
			"<news:publication_date> %s is %s old; a news sitemap lists only articles from the last two days (N-11)", n.PublicationDate, humanAge(age))
	}
}

func humanAge(d time.Duration) string {
	h := int64(d / time.Hour)
	if h < 72 {
		return strconv.FormatInt(h, 10) + " hours"
	}
	return strconv.FormatInt(h/24, 10) + " days"
}
