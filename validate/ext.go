package validate

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
)

// extURL checks a URL-valued extension field: absolute http(s) (and
// percent-encoded) under the given rule.
func (c *Checker) extURL(rule, tag, v string, line, col int) *url.URL {
	if why := encodingProblem(v); why != "" {
		c.emit(line, col, "L-07", sitemap.SeverityError, "%s %q %s (L-07)", tag, short(v), why)
	}
	r, why, u := absoluteProblem(v)
	if r != "" {
		c.emit(line, col, rule, sitemap.SeverityError, "%s %q %s", tag, short(v), why)
		return nil
	}
	return u
}

// images is IM-01 (image:loc present, absolute) and IM-02 (≤ 1,000 per
// url).
func (c *Checker) images(u *sitemap.URL, line, col int) {
	if n := len(u.Images); n > sitemap.MaxImagesPerURL {
		c.emit(line, col, "IM-02", sitemap.SeverityError,
			"<url> has %d <image:image>; Google reads at most %d per URL", n, sitemap.MaxImagesPerURL)
	}
	for i := range u.Images {
		im := &u.Images[i]
		if len(u.Images) > 1 {
			c.prefix = "<image:image> #" + strconv.Itoa(i+1) + ": "
		}
		if im.Loc == "" {
			c.emit(line, col, "IM-01", sitemap.SeverityError, "<image:image> without <image:loc>; each image needs its URL")
		} else {
			c.extURL("IM-01", "<image:loc>", im.Loc, line, col)
		}
		c.prefix = ""
	}
}

// video is V-01 (required tags, content_loc or player_loc) and V-06 (the
// validator's checks of G-VID's constraints). "At most one restriction,
// platform and uploader" is structural: the model holds one of each, so
// the decoder reports repeats.
func (c *Checker) video(u *sitemap.URL, v *sitemap.Video, line, col int) {
	req := func(val, tag string) {
		if strings.TrimSpace(val) == "" {
			c.emit(line, col, "V-01", sitemap.SeverityError, "<video:video> has no %s; it is required", tag)
		}
	}
	req(v.ThumbnailLoc, "<video:thumbnail_loc>")
	req(v.Title, "<video:title>")
	req(v.Description, "<video:description>")
	if v.ThumbnailLoc != "" {
		c.extURL("V-01", "<video:thumbnail_loc>", v.ThumbnailLoc, line, col)
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		c.emit(line, col, "V-01", sitemap.SeverityError,
			"<video:video> has neither <video:content_loc> nor <video:player_loc>; Google needs at least one (the XSD cannot say so)")
	}
	if v.ContentLoc != "" {
		c.extURL("V-01", "<video:content_loc>", v.ContentLoc, line, col)
		if v.ContentLoc == u.Loc {
			c.emit(line, col, "V-06", sitemap.SeverityError, "<video:content_loc> is the page's own <loc>; it must be the URL of the media file")
		}
	}
	if v.PlayerLoc != "" {
		c.extURL("V-01", "<video:player_loc>", v.PlayerLoc, line, col)
		if v.PlayerLoc == u.Loc {
			c.emit(line, col, "V-06", sitemap.SeverityError, "<video:player_loc> is the page's own <loc>; it must be the URL of the player")
		}
	}
	if v.Duration != nil && (*v.Duration < 1 || *v.Duration > sitemap.MaxVideoDuration) {
		c.emit(line, col, "V-06", sitemap.SeverityError,
			"<video:duration> %d is outside 1–%d seconds", *v.Duration, sitemap.MaxVideoDuration)
	}
	if v.Rating != nil && (*v.Rating < 0 || *v.Rating > 5) {
		c.emit(line, col, "V-06", sitemap.SeverityError, "<video:rating> %g is outside 0.0–5.0", *v.Rating)
	}
	if v.ViewCount != nil && *v.ViewCount < 0 {
		c.emit(line, col, "V-06", sitemap.SeverityError, "<video:view_count> %d is negative", *v.ViewCount)
	}
	if n := utf8.RuneCountInString(v.Description); n > sitemap.MaxVideoDescription {
		c.emit(line, col, "V-06", sitemap.SeverityError,
			"<video:description> is %d characters long; Google allows at most %d", n, sitemap.MaxVideoDescription)
	}
	if n := len(v.Tags); n > sitemap.MaxVideoTags {
		c.emit(line, col, "V-06", sitemap.SeverityError,
			"<video:video> has %d <video:tag>; at most %d are allowed (S-08)", n, sitemap.MaxVideoTags)
	}
	if r := v.Restriction; r != nil {
		if r.Relationship != sitemap.Allow && r.Relationship != sitemap.Deny {
			c.emit(line, col, "V-01", sitemap.SeverityError, "<video:restriction> relationship %q must be allow or deny", r.Relationship)
		}
		if !countryList(r.Countries) {
			c.emit(line, col, "V-01", sitemap.SeverityError,
				"<video:restriction> %q is not a space-separated list of ISO 3166 country codes such as \"IE GB US\"", short(r.Countries))
		}
	}
	if p := v.Platform; p != nil {
		if p.Relationship != sitemap.Allow && p.Relationship != sitemap.Deny {
			c.emit(line, col, "V-01", sitemap.SeverityError, "<video:platform> relationship %q must be allow or deny", p.Relationship)
		}
		for _, f := range strings.Fields(p.Platforms) {
			if f != "web" && f != "mobile" && f != "tv" {
				c.emit(line, col, "V-01", sitemap.SeverityError, "<video:platform> names %q; the platforms are web, mobile and tv", f)
			}
		}
	}
	if up := v.Uploader; up != nil {
		if n := utf8.RuneCountInString(up.Name); n > 255 {
			c.emit(line, col, "V-06", sitemap.SeverityError, "<video:uploader> is %d characters long; at most 255 are allowed", n)
		}
		if up.Info != "" {
			if iu := c.extURL("V-06", "<video:uploader info>", up.Info, line, col); iu != nil {
				if pu, err := url.Parse(u.Loc); err == nil && pu.Hostname() != "" {
					if a, b := registrableDomain(iu.Hostname()), registrableDomain(pu.Hostname()); a != b {
						c.emit(line, col, "V-06", sitemap.SeverityError,
							"<video:uploader info> is on %s, but the page is on %s; it must be on the same domain as <loc>", a, b)
					}
				}
			}
		}
	}
}

// countryList matches the XSD pattern ([A-Z]{2}( +[A-Z]{2})*)?.
func countryList(s string) bool {
	if s == "" {
		return true
	}
	for i, f := range strings.Split(s, " ") {
		if f == "" && i > 0 {
			continue // several spaces
		}
		if len(f) != 2 || f[0] < 'A' || f[0] > 'Z' || f[1] < 'A' || f[1] > 'Z' {
			return false
		}
	}
	return !strings.HasSuffix(s, " ")
}

// newsLanguage matches the XSD pattern zh-cn|zh-tw|([a-z]{2,3}) (N-03).
func newsLanguage(s string) bool {
	if s == "zh-cn" || s == "zh-tw" {
		return true
	}
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// newsEntry is N-01 (required tags), N-03 (language), N-06/N-11 (older
// than 48 hours) and N-10 (more than 1,000 per sitemap).
func (c *Checker) newsEntry(n *sitemap.News, line, col int) {
	c.news++
	if c.news == sitemap.MaxNewsPerSitemap+1 {
		c.emit(line, col, "N-10", sitemap.SeverityWarning,
			"more than %d <news:news> in one sitemap; Google reads at most %d per news sitemap: split it under an index (N-11)", sitemap.MaxNewsPerSitemap, sitemap.MaxNewsPerSitemap)
	}
	if strings.TrimSpace(n.Publication.Name) == "" {
		c.emit(line, col, "N-01", sitemap.SeverityError, "<news:publication> has no <news:name>; it is required")
	}
	switch {
	case n.Publication.Language == "":
		c.emit(line, col, "N-01", sitemap.SeverityError, "<news:publication> has no <news:language>; it is required")
	case !newsLanguage(n.Publication.Language):
		c.emit(line, col, "N-03", sitemap.SeverityError,
			"<news:language> %q is not an ISO 639 code of 2 or 3 lowercase letters (or zh-cn / zh-tw)", n.Publication.Language)
	}
	if strings.TrimSpace(n.Title) == "" {
		c.emit(line, col, "N-01", sitemap.SeverityError, "<news:news> has no <news:title>; it is required")
	}
	if n.PublicationDate.IsZero() {
		c.emit(line, col, "N-01", sitemap.SeverityError, "<news:news> has no <news:publication_date>; it is required")
	} else if age := c.now.Sub(n.PublicationDate.Time); age > 48*time.Hour {
		c.emit(line, col, "N-06", sitemap.SeverityWarning,
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
