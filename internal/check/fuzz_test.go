package check

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/urlnorm"

	"golang.org/x/net/idna"
)

// FuzzURLAccepted: what URL accepts is, for net/url, an absolute http(s)
// URL with a host and no user info; it holds no white space, control or
// non-ASCII byte and at most one '#'; a loc that passes Length too has 12
// to 2,047 characters. A problem names a rule and says what is wrong, and
// a corrected value, when one is offered, is itself accepted (none is
// offered where the host cannot be converted to punycode); for X-12 it is
// the trimmed value when that is a URL.
func FuzzURLAccepted(f *testing.F) {
	for _, s := range []string{
		"https://www.example.com/a?b=c#d", "https://bücher.example/ä b", "https://www.example.com/u#a#b",
		"https://user@host/", "https://[2001:db8::1]:8080/x", "https://www.example.com:0/", "https://www.example.com/%zz",
		"http://a.b/<>\"{}|\\^`", " https://www.example.com/", "HTTPS://WWW.EXAMPLE.COM./", "https://a/\x7f",
		"https://xn--bcher-kva.example/", "https://\u212a.example/", "https://ex%41mple.com/", "https://a.b:65535",
		"https://ü:99999/", "https://ü/%", "https://[::1]x/", "https://a.b/\u00a0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, pr := URL(s)
		if !pr.OK() {
			if pr.Rule == "" || pr.Message == "" {
				t.Fatalf("URL(%q): incomplete problem %+v", s, pr)
			}
			if pr.Suggest != "" {
				if _, again := URL(pr.Suggest); !again.OK() {
					t.Fatalf("URL(%q) = %+v suggests %q, which URL refuses: %+v", s, pr, pr.Suggest, again)
				}
				if pr.Rule == "X-12" && strings.Trim(s, " \t\r\n") != pr.Suggest && urlOK(strings.Trim(s, " \t\r\n")) {
					t.Fatalf("URL(%q) suggests %q, not the trimmed URL", s, pr.Suggest)
				}
			}
			if op, opr := OtherURL(s, "IM-01", true); opr == nil || opr.Message != pr.Message || opr.Suggest != pr.Suggest || op != p ||
				(pr.Rule == "L-01" || pr.Rule == "L-16") != (opr.Rule == "IM-01") {
				t.Fatalf("OtherURL(%q) = %+v, URL %+v", s, opr, pr)
			}
			return
		}
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("URL accepts %q, url.Parse fails: %v", s, err)
		}
		if !u.IsAbs() || u.Opaque != "" || u.Host == "" || u.User != nil ||
			!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
			t.Fatalf("URL accepts %q: url.Parse gives scheme %q, opaque %q, host %q, user %v", s, u.Scheme, u.Opaque, u.Host, u.User)
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c <= ' ' || c >= 0x7f {
				t.Fatalf("URL accepts %q with the byte %#x at %d", s, c, i)
			}
		}
		if strings.Count(s, "#") > 1 {
			t.Fatalf("URL accepts %q with two '#'", s)
		}
		if h := hostOf(s); h != p.Host {
			t.Fatalf("hostOf(%q) = %q, URL's host %q", s, h, p.Host)
		}
		if Suggest(s) != s {
			t.Fatalf("Suggest(%q) = %q changes an accepted URL", s, Suggest(s))
		}
		if Length(s).OK() && (len(s) < MinLength || len(s) >= MaxLength) {
			t.Fatalf("URL and Length accept %q of %d bytes", s, len(s))
		}
		if _, opr := OtherURL(s, "H-05", true); opr.OK() != Length(s).OK() && len(s) >= MinLength {
			t.Fatalf("OtherURL(%q, maxLen) = %+v, Length %+v", s, opr, Length(s))
		}
		if _, opr := OtherURL(s, "IM-01", false); !opr.OK() {
			t.Fatalf("OtherURL(%q) = %+v; URL accepts it", s, opr)
		}
	})
}

// urlOK reports whether URL accepts s.
func urlOK(s string) bool {
	_, pr := URL(s)
	return pr.OK()
}

// The XSD patterns that Countries, Platforms, NewsLanguage, Genres and
// Currency implement by hand (the general path); Tickers' \w is checked
// against its own rune classes.
var (
	countriesRE = regexp.MustCompile(`^([A-Z]{2}( +[A-Z]{2})*)?$`)
	platformsRE = regexp.MustCompile(`^((web|mobile|tv)( (web|mobile|tv))*)?$`)
	newsLangRE  = regexp.MustCompile(`^(zh-cn|zh-tw|[a-z]{2,3})$`)
	genresRE    = regexp.MustCompile(`^(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)(, *(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*$`)
	currencyRE  = regexp.MustCompile(`^[A-Z]{3}$`)
	// A byte-wise hreflang shape (the codes themselves are x/text's).
	hreflangRE = regexp.MustCompile(`^(?i:x-default|[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?)$`)
)

// FuzzValues: the hand-written checks of internal/check against their
// general forms. Their fast paths (a byte count before counting runes, an
// ASCII fold before IDNA and the public suffix list) give what the slow
// path would, and the XSD patterns matched by hand match as the regular
// expressions do; no check panics.
func FuzzValues(f *testing.F) {
	for _, s := range []string{
		"IE GB  US", "web mobile", "zh-cn", "pt-br", "Blog, OpEd,Satire", "USD", "en-GB", "zh-Hant-TW", "es-419",
		"x-default", "https://ééé", strings.Repeat("é", 12), "\u212a.example", "NASDAQ:A, NYSE:B", " \t", "Daily",
	} {
		f.Add(s, "www.example.com")
	}
	f.Fuzz(func(t *testing.T, s, h string) {
		n := utf8.RuneCountInString(s)
		if got, want := Length(s).OK(), n >= MinLength && n < MaxLength; got != want {
			t.Fatalf("Length(%q) ok %v; %d characters", s, got, n)
		}
		if AtXSDLimit(s) != (n == MaxLength) {
			t.Fatalf("AtXSDLimit(%q) with %d characters", s, n)
		}
		for _, max := range []int{0, 1, 5, 100} {
			if got := MaxRunes("V-01", s, max).OK(); got != (n <= max) {
				t.Fatalf("MaxRunes(%q, %d) ok %v; %d characters", s, max, got, n)
			}
		}
		wantTrim := strings.Trim(s, " \t\r\n")
		if pr := Untrimmed(s); pr.OK() != (wantTrim == s) || !pr.OK() && pr.Suggest != wantTrim {
			t.Fatalf("Untrimmed(%q) = %+v", s, pr)
		}
		if pr := Required("N-01", s); pr.OK() != (wantTrim != "") {
			t.Fatalf("Required(%q) = %+v", s, pr)
		}

		// urlnorm.Host: lower case, IDNA for non-ASCII; idempotent.
		hh := urlnorm.Host(h)
		if isASCII(h) && hh != strings.ToLower(h) {
			t.Fatalf("Host(%q) = %q, not its lower case", h, hh)
		}
		if !isASCII(h) {
			if a, err := idna.Lookup.ToASCII(h); err == nil && hh != a {
				t.Fatalf("Host(%q) = %q, IDNA %q", h, hh, a)
			}
		}
		if urlnorm.Host(hh) != hh && isASCII(hh) {
			t.Fatalf("Host(%q) = %q, Host of that %q", h, hh, urlnorm.Host(hh))
		}
		// SameDomain's fast path (equal up to ASCII case) agrees with the
		// registrable domains. It took Unicode case folding for equal
		// hosts ("\xba0" and "\ufffd0").
		for _, pair := range [][2]string{{s, h}, {h, strings.ToUpper(h)}, {h, "sub." + h}} {
			a, b := pair[0], pair[1]
			got := SameDomain(a, b).OK()
			want := registrableDomain(a) == registrableDomain(b)
			if got != want {
				t.Fatalf("SameDomain(%q, %q) ok %v; registrable domains %q, %q", a, b, got, registrableDomain(a), registrableDomain(b))
			}
			if SameDomain(a, b).OK() != SameDomain(b, a).OK() {
				t.Fatalf("SameDomain(%q, %q) is not symmetric", a, b)
			}
		}

		for _, c := range []struct {
			name string
			got  bool
			re   *regexp.Regexp
		}{
			{"Countries", Countries(s).OK(), countriesRE},
			{"Platforms", Platforms(s).OK(), platformsRE},
			{"NewsLanguage", NewsLanguage(s).OK(), newsLangRE},
			{"Genres", Genres(s), genresRE},
			{"Currency", Currency(s), currencyRE},
		} {
			if want := c.re.MatchString(s); c.got != want {
				t.Fatalf("%s(%q) = %v, the XSD pattern %v", c.name, s, c.got, want)
			}
		}
		if pr := NewsLanguage(s); !pr.OK() {
			if pr.Rule != "N-01" && pr.Rule != "N-03" || pr.Suggest != "" && !NewsLanguage(pr.Suggest).OK() {
				t.Fatalf("NewsLanguage(%q) = %+v", s, pr)
			}
		}
		if pr := ChangeFreq(s); !pr.OK() && pr.Suggest != "" && (!ChangeFreq(pr.Suggest).OK() || !strings.EqualFold(pr.Suggest, s)) {
			t.Fatalf("ChangeFreq(%q) = %+v", s, pr)
		}
		if Hreflang(s).OK() && !hreflangRE.MatchString(s) {
			t.Fatalf("Hreflang accepts %q", s)
		}
		if Tickers(s) {
			for _, part := range strings.Split(s, ",") {
				if a, b, ok := strings.Cut(strings.TrimLeft(part, " "), ":"); !ok || a == "" || b == "" || strings.ContainsAny(a+b, ":, ") {
					t.Fatalf("Tickers accepts %q (part %q)", s, part)
				}
			}
		}
		if Relationship(s).OK() != (s == "allow" || s == "deny") {
			t.Fatalf("Relationship(%q) = %+v", s, Relationship(s))
		}
	})
}

// TestLengthCountsCharacters: L-05's minimum is 12 characters, not bytes.
// Length's fast path took 12 bytes for enough, so "https://ééé" (14 bytes,
// 11 characters) passed; found by FuzzValues.
func TestLengthCountsCharacters(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"https://ééé", false}, {"https://éééé", true}, {"https://a.bc", true}, {"https://a.b", false},
		{strings.Repeat("é", 11), false}, {strings.Repeat("é", 1023) + "abc", true}, {strings.Repeat("é", 2048), false},
	} {
		if got := Length(tc.s).OK(); got != tc.ok {
			t.Errorf("Length(%.20q…, %d characters) ok %v, want %v", tc.s, utf8.RuneCountInString(tc.s), got, tc.ok)
		}
	}
}

// TestSameDomainFold: SameDomain's shortcut for hosts equal up to case is
// taken in ASCII only. Unicode case folding took "\xba0" (an invalid byte)
// and "\ufffd0" for one host, which IDNA does not; found by FuzzValues.
func TestSameDomainFold(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		ok   bool
	}{
		{"\xba0", "\ufffd0", false}, {"WWW.Example.com", "www.example.COM", true},
		{"\u212a.example", "k.example", true}, // the Kelvin sign is 'k' for IDNA too
		{"a.example.co.uk", "b.example.co.uk", true}, {"example.co.uk", "other.co.uk", false},
	} {
		if got := SameDomain(tc.a, tc.b).OK(); got != tc.ok {
			t.Errorf("SameDomain(%q, %q) ok %v, want %v", tc.a, tc.b, got, tc.ok)
		}
	}
}

// TestUntrimmedURLSuggest: white space around a URL offers the trimmed
// value only when that is a URL; otherwise the correction of the trimmed
// value, or none. " https://www.example.com/a b" suggested
// "https://www.example.com/a b", which breaks L-07.
func TestUntrimmedURLSuggest(t *testing.T) {
	for _, tc := range []struct{ in, suggest string }{
		{" https://www.example.com/ ", "https://www.example.com/"},
		{" https://www.example.com/a b", "https://www.example.com/a%20b"},
		{"\thttps://bücher.example/\n", "https://xn--bcher-kva.example/"},
		{" www.example.com/", ""},
	} {
		_, pr := URL(tc.in)
		if pr.OK() || pr.Rule != "X-12" || pr.Suggest != tc.suggest {
			t.Errorf("URL(%q) = %+v, want X-12 suggesting %q", tc.in, pr, tc.suggest)
		}
	}
}

// TestSuggestEmptyHost: a host that IDNA maps to nothing (a soft hyphen)
// has no punycode form; Suggest offered "http://", and the fix said
// 'write the host in punycode: "http://"' (found by FuzzURLAccepted).
func TestSuggestEmptyHost(t *testing.T) {
	_, pr := URL("http://\u00ad/a")
	if pr.OK() || pr.Rule != "L-07" || pr.Suggest != "" || strings.Contains(pr.Fix, `"http://`) {
		t.Errorf("URL(soft hyphen host) = %+v; want L-07 without a suggestion", pr)
	}
}

// FuzzNormalForm: the normal form (urlnorm.Normalize) of a URL passes
// URL, and a URL that URL accepts has one: generate writes every loc it
// accepts in its normal form, and the encoder must accept what it wrote.
func FuzzNormalForm(f *testing.F) {
	for _, s := range []string{
		"https://www.example.com/a", "HTTPS://WWW.EXAMPLE.COM:443/a#top", "https://www.example.com/café",
		"https://Bücher.example/ä b", "https://[2001:DB8::1]:80/", "http://a.b:80", "https://a.b:/?q=<>",
		" https://www.example.com/100% ", "https://user@a.b/", "https://a.b/\xff", "https://a.b/\x01",
		"https://a.b:0443/", "https://www.example.com./x", "https://\u00ad/", "https://a.b?x#y#z",
		"https://a.b/x/../%2e%2E/%7e?%7e#%7e", "https://a.b/%c3%a9/./",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ch, err := urlnorm.Normalize(s)
		if err != nil {
			if _, upr := URL(s); upr.OK() {
				t.Fatalf("Normalize(%q) refuses what URL accepts: %v", s, err)
			}
			return
		}
		if _, upr := URL(n); !upr.OK() {
			t.Fatalf("Normalize(%q) = %q (%v), which URL refuses: %+v", s, n, ch, upr)
		}
	})
}
