package check

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/urlnorm"

	"github.com/sitemapkit/sitemap/rules"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/language"
)

// ChangeFreqs are the values of <changefreq> (C-01), in the XSD's order.
var changeFreqs = [...]string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

// ChangeFreq checks a <changefreq> value (C-01): one of the seven values,
// in lowercase. A value that differs only in letter case breaks C-04 (the
// XSD's enumeration is case-sensitive) and has the lowercase form in
// Problem.Suggest.
func ChangeFreq(s string) *Problem {
	for _, c := range changeFreqs {
		if s == c {
			return nil
		}
	}
	for _, c := range changeFreqs {
		if strings.EqualFold(s, c) {
			pr := problem(rules.C04, "differs from the schema's value "+strconv.Quote(c)+" in letter case; the values are lowercase", "write "+strconv.Quote(c))
			pr.Suggest = c
			return pr
		}
	}
	return problem(rules.C01, "is not one of always, hourly, daily, weekly, monthly, yearly, never", "")
}

// Priority checks a <priority> value (P-01): 0.0–1.0, not NaN.
func Priority(p float64) *Problem {
	if p >= 0 && p <= 1 {
		return nil
	}
	return problem(rules.P01, "is outside 0.0–1.0", "")
}

// DateForm is a date form W3C Datetime allows and the sitemap schema
// (xsd:date ∪ xsd:dateTime) does not (M-04).
type DateForm int

const (
	FormYear   DateForm = iota + 1 // YYYY
	FormMonth                      // YYYY-MM
	FormMinute                     // YYYY-MM-DDThh:mmTZD, no seconds
)

// DatePrecision describes a date written in form f (M-04): valid W3C
// Datetime that the sitemap schema rejects. The encoder refuses a year or
// a year and month alone (it would have to invent the day, M-08) and
// writes a minute-precision time with ":00" seconds; a validator warns
// about all three.
func DatePrecision(f DateForm) *Problem {
	what := "a year only"
	switch f {
	case FormMonth:
		what = "a year and month only"
	case FormMinute:
		what = "a time without seconds"
	}
	return problem(rules.M04, "has "+what+": valid W3C Datetime, but the sitemap schema rejects it", "write a full date YYYY-MM-DD or a date-time with seconds")
}

// DateYear checks the year of a date (M-01): W3C Datetime has four-digit
// years, 0001–9999.
func DateYear(y int) *Problem {
	if y >= 1 && y <= 9999 {
		return nil
	}
	return problem(rules.M01, "has the year "+strconv.Itoa(y), "W3C Datetime needs a four-digit year 0001–9999")
}

// Hreflang checks an hreflang code (H-06): x-default, or
// language[-Script][-REGION]: a 2–3 letter ISO 639 language, a 4-letter
// ISO 15924 script and a 2-letter ISO 3166-1 or 3-digit UN M.49 region
// (es-419), in any letter case, each a code golang.org/x/text/language
// knows (so a region alone, such as "GB", is refused: "gb" is no
// language).
func Hreflang(s string) *Problem {
	if s == "" {
		return problem(rules.H06, "is empty", "give a language code such as en or en-GB, or x-default")
	}
	if validHreflang(s) {
		return nil
	}
	return problem(rules.H06, "is not language[-Script][-REGION] with known ISO codes, such as en, en-GB, zh-Hant-TW or es-419, nor x-default", "a region alone is no language: write en-GB, not GB")
}

// RepeatedHreflang is the problem of an hreflang code that an earlier
// alternate of the same <url> already has, compared case-insensitively
// (H-08): each language has one alternate, and a <url> at most one
// x-default.
func RepeatedHreflang(s string) *Problem {
	if strings.EqualFold(s, "x-default") {
		return problem(rules.H08, "appears more than once in this <url>", "a <url> has at most one x-default; keep one")
	}
	return problem(rules.H08, "appears more than once in this <url>", "each language has one alternate; keep one")
}

func validHreflang(s string) bool {
	if strings.EqualFold(s, "x-default") {
		return true
	}
	part, rest, more := strings.Cut(s, "-")
	if !allAlpha(part) || len(part) < 2 || len(part) > 3 {
		return false
	}
	if _, err := language.ParseBase(part); err != nil {
		return false
	}
	if !more {
		return true
	}
	part, rest, more = strings.Cut(rest, "-")
	if len(part) == 4 && allAlpha(part) {
		if _, err := language.ParseScript(part); err != nil {
			return false
		}
		if !more {
			return true
		}
		part, _, more = strings.Cut(rest, "-")
	}
	if more || !(len(part) == 2 && allAlpha(part) || len(part) == 3 && allDigit(part)) {
		return false
	}
	_, err := language.ParseRegion(part)
	return err == nil
}

// NewsLanguage checks <news:language> (N-03): the news XSD's pattern
// zh-cn|zh-tw|([a-z]{2,3}). An empty value breaks N-01 (required). For a
// value such as "pt-br" or "EN" the language part in lowercase is in
// Problem.Suggest.
func NewsLanguage(s string) *Problem {
	if validNewsLanguage(s) {
		return nil
	}
	if s == "" {
		return problem(rules.N01, "is empty", "it is required: an ISO 639 code such as en, or zh-cn / zh-tw")
	}
	pr := problem(rules.N03, "is not an ISO 639 code", "write two or three lowercase letters, or zh-cn / zh-tw")
	if l, _, _ := strings.Cut(strings.ToLower(s), "-"); validNewsLanguage(l) {
		pr.Suggest = l
		pr.Fix += ", such as " + strconv.Quote(l)
	}
	return pr
}

func validNewsLanguage(s string) bool {
	if s == "zh-cn" || s == "zh-tw" {
		return true
	}
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLower(s[i]) {
			return false
		}
	}
	return true
}

// Countries checks the content of <video:restriction> (V-01): the video
// XSD's tCountryList, ([A-Z]{2}( +[A-Z]{2})*)?.
func Countries(s string) *Problem {
	for i := 0; i < len(s); {
		if i > 0 {
			if s[i] != ' ' {
				return badCountries()
			}
			for i < len(s) && s[i] == ' ' {
				i++
			}
		}
		if i+2 > len(s) || !isUpper(s[i]) || !isUpper(s[i+1]) {
			return badCountries()
		}
		i += 2
	}
	return nil
}

func badCountries() *Problem {
	return problem(rules.V01, "is not a list of ISO 3166-1 alpha-2 country codes", `write capitals separated by spaces, such as "IE GB US"`)
}

// Platforms checks the content of <video:platform> (V-01): the video
// XSD's tPlatformList, ((web|mobile|tv)( (web|mobile|tv))*)?.
func Platforms(s string) *Problem {
	if s == "" {
		return nil
	}
	for {
		word, rest, more := strings.Cut(s, " ")
		switch word {
		case "web", "mobile", "tv":
		default:
			return problem(rules.V01, "is not a list of the platforms web, mobile and tv", `separate them by single spaces, such as "web mobile"`)
		}
		if !more {
			return nil
		}
		s = rest
	}
}

// Relationship checks the relationship attribute of <video:restriction>
// and <video:platform> (V-01).
func Relationship(s string) *Problem {
	if s == "allow" || s == "deny" {
		return nil
	}
	return problem(rules.V01, "is neither allow nor deny", "")
}

// YesNo reports whether s is the video XSD's tYesNo.
func YesNo(s string) bool {
	switch s {
	case "yes", "Yes", "YES", "no", "No", "NO":
		return true
	}
	return false
}

// Limits of the video extension (V-01).
const (
	MaxVideoDuration    = 28800 // seconds
	MaxVideoDescription = 2048  // characters
	MaxVideoTitle       = 100   // characters, the video XSD's maxLength
	MaxVideoUploader    = 255   // characters
	MaxVideoTags        = 32
)

// VideoDuration checks <video:duration> (V-01): 1–28,800 seconds.
func VideoDuration(d int) *Problem {
	if d >= 1 && d <= MaxVideoDuration {
		return nil
	}
	return problem(rules.V01, "is outside 1–28800 seconds", "")
}

// VideoRating checks <video:rating> (V-01): 0.0–5.0, not NaN.
func VideoRating(r float64) *Problem {
	if r >= 0 && r <= 5 {
		return nil
	}
	return problem(rules.V01, "is outside 0.0–5.0", "")
}

// VideoViewCount checks <video:view_count> (V-01): not negative.
func VideoViewCount(n int64) *Problem {
	if n >= 0 {
		return nil
	}
	return problem(rules.V01, "is negative", "")
}

// VideoTags checks the number of <video:tag> of one video (V-06; the
// limit is S-08's).
func VideoTags(n int) *Problem {
	if n <= MaxVideoTags {
		return nil
	}
	return problem(rules.V06, "has "+strconv.Itoa(n)+" tags; a video may carry at most 32 (S-08)", "drop the least telling ones")
}

// MaxRunes checks the length of a text field in characters: at most max
// (V-01's title, description and uploader limits).
func MaxRunes(rule rules.ID, s string, max int) *Problem {
	if len(s) <= max {
		return nil
	}
	if n := utf8.RuneCountInString(s); n > max {
		return problem(rule, "is "+strconv.Itoa(n)+" characters long; at most "+strconv.Itoa(max)+" are allowed", "shorten it")
	}
	return nil
}

// Required checks that a required text field is there (rule, such as
// V-01 or N-01): not empty and not white space only, since readers trim
// values.
func Required(rule rules.ID, s string) *Problem {
	if s == "" {
		return problem(rule, "is required", "")
	}
	if strings.Trim(s, " \t\r\n") == "" {
		return problem(rule, "is required but holds only white space", "")
	}
	return nil
}

// NotLoc checks that a video's content_loc or player_loc is not the page's
// own <loc> (V-06).
func NotLoc(v, loc string) *Problem {
	if v != loc {
		return nil
	}
	return problem(rules.V06, "is the page's own loc", "it must point to the media file or the player, not to the page")
}

// SameDomain checks that a video's uploader info URL is on the registrable
// domain (eTLD+1) of the page's <loc> (V-06): infoHost and locHost are the
// hosts of the two URLs.
func SameDomain(infoHost, locHost string) *Problem {
	if infoHost == locHost || isASCII(infoHost) && isASCII(locHost) && strings.EqualFold(infoHost, locHost) {
		// The common case, without the public suffix list's allocations.
		// (Only in ASCII: Unicode case folding is not IDNA's mapping.)
		return nil
	}
	a, b := registrableDomain(infoHost), registrableDomain(locHost)
	if a == b {
		return nil
	}
	return problem(rules.V06, "is on "+a+", but the page is on "+b, "the uploader's info page must be on the same domain as the page")
}

// SameDomainURLs is SameDomain for two URLs that [URL] accepted (info, the
// uploader's info URL, and loc, the page's), without parsing them again.
func SameDomainURLs(info, loc string) *Problem {
	return SameDomain(hostOf(info), hostOf(loc))
}

// hostOf returns the host of a URL that [URL] accepted (no user info):
// the text between "//" and the next '/', '?', '#' or port, without the
// brackets of an IPv6 literal.
func hostOf(s string) string {
	i := strings.Index(s, "//")
	if i < 0 {
		return ""
	}
	h := s[i+2:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if strings.HasPrefix(h, "[") {
		if j := strings.IndexByte(h, ']'); j >= 0 {
			return h[1:j]
		}
		return h
	}
	if j := strings.LastIndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	return h
}

// registrableDomain returns the eTLD+1 of host, or the normalised host
// itself when it has none (an IP address, localhost).
func registrableDomain(host string) string {
	h := strings.TrimSuffix(urlnorm.Host(host), ".")
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}

// Currency reports whether s is an ISO 4217 code of three capital letters
// (V-02's price currency).
func Currency(s string) bool {
	return len(s) == 3 && isUpper(s[0]) && isUpper(s[1]) && isUpper(s[2])
}

// NewsAccess checks <news:access> against the 2010 news XSD (N-08):
// Subscription or Registration.
func NewsAccess(s string) *Problem {
	switch s {
	case "Subscription", "Registration":
		return nil
	}
	return problem(rules.N08, "is neither Subscription nor Registration", "the news XSD allows only these two values; leave it out for free articles")
}

// NewsGenres checks <news:genres> against the news XSD's pattern (N-08):
// a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion and
// UserGenerated, each comma followed by spaces or nothing.
func NewsGenres(s string) *Problem {
	if Genres(s) {
		return nil
	}
	return problem(rules.N08, "is not a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated", "the news XSD allows only these names (\"Blog, OpEd\"); leave out the others")
}

// NewsTickers checks <news:stock_tickers> against the news XSD (N-08).
func NewsTickers(s string) *Problem {
	if Tickers(s) {
		return nil
	}
	return problem(rules.N08, "is not a comma-separated list of at most 5 EXCHANGE:SYMBOL tickers, such as \"NASDAQ:AMAT, BOM:500325\"", "")
}

// Genres matches the news XSD's genres pattern (N-08): one of six names,
// then any number of ", *name".
func Genres(s string) bool {
	for i := 0; ; i++ {
		if i > 0 {
			if !strings.HasPrefix(s, ",") {
				return false
			}
			s = strings.TrimLeft(s[1:], " ")
		}
		j := strings.IndexByte(s, ',')
		if j < 0 {
			j = len(s)
		}
		switch s[:j] {
		case "PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated":
		default:
			return false
		}
		s = s[j:]
		if s == "" {
			return true
		}
	}
}

// Tickers matches the news XSD's (\w+:\w+(, *\w+:\w+){0,4})?, where \w is
// any character but punctuation, separators and "other" (XSD regex).
func Tickers(s string) bool {
	word := func(s string) (rest string, ok bool) {
		n := 0
		for n < len(s) {
			r, size := utf8.DecodeRuneInString(s[n:])
			if unicode.IsPunct(r) || unicode.In(r, unicode.Z, unicode.C) || r == utf8.RuneError && size == 1 {
				break
			}
			n += size
		}
		return s[n:], n > 0
	}
	for i := 0; ; i++ {
		if i > 4 {
			return false
		}
		if i > 0 {
			if !strings.HasPrefix(s, ",") {
				return false
			}
			s = strings.TrimLeft(s[1:], " ")
		}
		var ok bool
		if s, ok = word(s); !ok || !strings.HasPrefix(s, ":") {
			return false
		}
		if s, ok = word(s[1:]); !ok {
			return false
		}
		if s == "" {
			return true
		}
	}
}

func allAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return true
}

func allDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
