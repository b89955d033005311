package sitemap

import "strconv"

// ChangeFreq is the <changefreq> hint (C-01). The zero value means absent.
type ChangeFreq string

// The seven values the protocol allows (C-01), in lowercase as the XSD
// requires.
const (
	Always  ChangeFreq = "always"
	Hourly  ChangeFreq = "hourly"
	Daily   ChangeFreq = "daily"
	Weekly  ChangeFreq = "weekly"
	Monthly ChangeFreq = "monthly"
	Yearly  ChangeFreq = "yearly"
	Never   ChangeFreq = "never"
)

// Valid reports whether c is one of the seven protocol values, exactly as
// the XSD spells them (lowercase). The empty value is not valid; callers
// treat it as absent.
func (c ChangeFreq) Valid() bool {
	switch c {
	case Always, Hourly, Daily, Weekly, Monthly, Yearly, Never:
		return true
	}
	return false
}

// URL is one <url> entry of a urlset, with every extension Google reads.
// Its JSON form is the entry record of docs/CONVENTIONS.md: field names follow
// the protocol's element names and absent fields are omitted.
type URL struct {
	// Loc is the absolute, percent-encoded URL (L-01, L-07), not XML-escaped.
	Loc string `json:"loc"`
	// LastMod is when the page last changed significantly (M-02, M-05); the
	// zero Date means absent. Its precision is kept as given.
	LastMod Date `json:"lastmod,omitzero"`
	// ChangeFreq is the optional change hint; "" means absent.
	ChangeFreq ChangeFreq `json:"changefreq,omitempty"`
	// Priority is the optional 0.0–1.0 priority (P-01); nil means absent.
	Priority *float64 `json:"priority,omitempty"`
	// Images are the <image:image> children (IM-01), at most 1,000 (IM-02).
	Images []Image `json:"images,omitempty"`
	// Videos are the <video:video> children (V-01).
	Videos []Video `json:"videos,omitempty"`
	// News is the optional <news:news> child (N-01).
	News *News `json:"news,omitempty"`
	// Alternates are the hreflang <xhtml:link rel="alternate"> children
	// (H-03), x-default included.
	Alternates []Alternate `json:"alternates,omitempty"`
	// ContentHash is an optional caller-supplied fingerprint of the page's
	// content, used by stateful generation to decide whether LastMod moves.
	// It is never written to a sitemap.
	ContentHash string `json:"content_hash,omitempty"`
	// Source is the sitemap that listed the entry, set by readers; it never
	// appears on input and is never written to a sitemap.
	Source string `json:"source,omitempty"`
	// Title is the page's title for people (a CSV or JSONL title, a
	// crawl's <title>): the link text of the site map for visitors
	// (package view) and the pages of a drawing (package graph). It is
	// never written to a sitemap, which has no such element.
	Title string `json:"title,omitempty"`
}

// Image is one <image:image> (IM-01). Caption, GeoLocation, Title and
// License are deprecated since 2022 (IM-03): they are read, and written only
// when the encoder's Legacy option is set (IM-04).
type Image struct {
	Loc         string `json:"loc,omitempty"`
	Caption     string `json:"caption,omitempty"`
	GeoLocation string `json:"geo_location,omitempty"`
	Title       string `json:"title,omitempty"`
	License     string `json:"license,omitempty"`
}

// Video is one <video:video> (V-01). Pointer fields are optional and nil
// when absent. Category, GalleryLoc, Prices and the player attributes are
// deprecated since 2022 (V-02): read, and written only with the encoder's
// Legacy option (V-04).
type Video struct {
	ThumbnailLoc         string       `json:"thumbnail_loc,omitempty"`
	Title                string       `json:"title,omitempty"`
	Description          string       `json:"description,omitempty"`
	ContentLoc           string       `json:"content_loc,omitempty"`
	PlayerLoc            string       `json:"player_loc,omitempty"`
	Duration             *int         `json:"duration,omitempty"`
	ExpirationDate       Date         `json:"expiration_date,omitzero"`
	Rating               *float64     `json:"rating,omitempty"`
	ViewCount            *int64       `json:"view_count,omitempty"`
	PublicationDate      Date         `json:"publication_date,omitzero"`
	Tags                 []string     `json:"tags,omitempty"`
	FamilyFriendly       *bool        `json:"family_friendly,omitempty"`
	Restriction          *Restriction `json:"restriction,omitempty"`
	RequiresSubscription *bool        `json:"requires_subscription,omitempty"`
	Uploader             *Uploader    `json:"uploader,omitempty"`
	Platform             *Platform    `json:"platform,omitempty"`
	Live                 *bool        `json:"live,omitempty"`

	// Deprecated tags and attributes (V-02).
	Category         string       `json:"category,omitempty"`
	GalleryLoc       string       `json:"gallery_loc,omitempty"`
	Prices           []VideoPrice `json:"prices,omitempty"`
	PlayerAllowEmbed string       `json:"player_allow_embed,omitempty"`
	PlayerAutoplay   string       `json:"player_autoplay,omitempty"`
}

// Relationship is the allow/deny attribute of <video:restriction> and
// <video:platform>.
type Relationship string

// The two relationships the video XSD allows.
const (
	Allow Relationship = "allow"
	Deny  Relationship = "deny"
)

// Restriction is <video:restriction relationship="allow|deny">: a
// space-separated list of ISO 3166-1 alpha-2 country codes.
type Restriction struct {
	Relationship Relationship `json:"relationship,omitempty"`
	Countries    string       `json:"countries,omitempty"`
}

// Platform is <video:platform relationship="allow|deny">: a space-separated
// subset of "web mobile tv".
type Platform struct {
	Relationship Relationship `json:"relationship,omitempty"`
	Platforms    string       `json:"platforms,omitempty"`
}

// Uploader is <video:uploader info="…">name</video:uploader>.
type Uploader struct {
	Name string `json:"name,omitempty"`
	Info string `json:"info,omitempty"`
}

// VideoPrice is the deprecated <video:price> (V-02).
type VideoPrice struct {
	Value      string `json:"value,omitempty"`
	Currency   string `json:"currency,omitempty"`
	Type       string `json:"type,omitempty"`
	Resolution string `json:"resolution,omitempty"`
}

// News is one <news:news> (N-01). Access, Genres, Keywords and StockTickers
// are the 2010 XSD's optional tags (N-08): read, written only with the
// encoder's Legacy option (N-09).
type News struct {
	Publication     Publication `json:"publication,omitzero"`
	PublicationDate Date        `json:"publication_date,omitzero"`
	Title           string      `json:"title,omitempty"`

	Access       string `json:"access,omitempty"`
	Genres       string `json:"genres,omitempty"`
	Keywords     string `json:"keywords,omitempty"`
	StockTickers string `json:"stock_tickers,omitempty"`
}

// Publication is <news:publication> (N-01..N-03).
type Publication struct {
	Name     string `json:"name,omitempty"`
	Language string `json:"language,omitempty"`
}

// Alternate is one hreflang <xhtml:link rel="alternate" hreflang=… href=…>
// (H-03). Hreflang "x-default" marks the fallback page (H-06).
type Alternate struct {
	Hreflang string `json:"hreflang,omitempty"`
	Href     string `json:"href,omitempty"`
}

// IndexEntry is one <sitemap> of a sitemapindex (I-02). LastMod is the time
// the child sitemap file changed (I-04); zero means absent.
type IndexEntry struct {
	Loc     string `json:"loc"`
	LastMod Date   `json:"lastmod,omitzero"`
	Source  string `json:"source,omitempty"`
}

// Float64 returns a pointer to v, for optional fields such as
// URL.Priority and Video.Rating.
func Float64(v float64) *float64 { return &v }

// Int returns a pointer to v, for optional fields such as Video.Duration.
func Int(v int) *int { return &v }

// Int64 returns a pointer to v, for Video.ViewCount.
func Int64(v int64) *int64 { return &v }

// Bool returns a pointer to v, for optional yes/no video fields.
func Bool(v bool) *bool { return &v }

// FormatPriority writes a priority the way the encoder does: one decimal
// place when that is exact (P-04), else the shortest exact decimal.
func FormatPriority(p float64) string {
	s := strconv.FormatFloat(p, 'f', 1, 64)
	if v, err := strconv.ParseFloat(s, 64); err == nil && v == p {
		return s
	}
	return strconv.FormatFloat(p, 'f', -1, 64)
}

// MarshalText implements encoding.TextMarshaler.
func (d Date) MarshalText() ([]byte, error) {
	if d.IsZero() {
		return []byte{}, nil
	}
	return d.AppendFormat(nil), nil
}

// UnmarshalText implements encoding.TextUnmarshaler. It accepts the W3C
// Datetime forms (D-01) and the lenient forms the XSD accepts (M-04); it rejects
// anything else with an error naming the value.
func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	v, _, err := ParseDateLenient(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
