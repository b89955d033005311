package check

import (
	"net/url"
	"strings"
	"testing"
)

// ruleOf is p's rule, "" for no problem.
func ruleOf(p *Problem) string {
	if p == nil {
		return ""
	}
	return string(p.Rule)
}

// TestClass checks the byte classes against their definitions.
func TestClass(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		unreserved := isAlpha(b) || isDigit(b) || strings.IndexByte("-._~", b) >= 0
		uri := unreserved || strings.IndexByte("!$&'()*+,;=:@/?", b) >= 0
		if got := Class[c]&cURI != 0; got != uri {
			t.Errorf("byte %#x: cURI %v, want %v", c, got, uri)
		}
		if got := Class[c]&cHost != 0; got != unreserved {
			t.Errorf("byte %#x: cHost %v, want %v", c, got, unreserved)
		}
		plain := uri && strings.IndexByte("&'?", b) < 0
		if got := Class[c]&ClassPlain != 0; got != plain {
			t.Errorf("byte %#x: ClassPlain %v, want %v", c, got, plain)
		}
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct {
		in, rule, fix, suggest string
	}{
		{in: "https://www.example.com/a?b=c#d"},
		{in: "HTTP://www.example.com"},
		{in: "https://[2001:db8::1]:8443/x"},
		{in: "https://www.example.com./k"}, // a trailing dot is syntax; the scope decides
		{in: "/relative", rule: "L-01"},
		{in: "//www.example.com/", rule: "L-01", fix: "https://"},
		{in: "www.example.com:80/x", rule: "L-01"},
		{in: "ftp://www.example.com/", rule: "L-16"},
		{in: "https:/x", rule: "L-01"},
		{in: "https://user@host/", rule: "L-07", fix: "without it"},
		{in: "https://u:p@www.example.com/", rule: "L-07"},
		{in: "https://www.example.com:0/k", rule: "L-07", fix: "1–65535"},
		{in: "https://www.example.com:65536/", rule: "L-07"},
		{in: "https://www.example.com:/", rule: "L-07", fix: "remove the ':'"},
		{in: "https://bücher.example/", rule: "L-07", fix: "punycode", suggest: "https://xn--bcher-kva.example/"},
		{in: "https://www.example.com/u#a#b", rule: "L-07", fix: "%23", suggest: "https://www.example.com/u#a%23b"},
		{in: "https://www.example.com/a b", rule: "L-07", fix: "%20", suggest: "https://www.example.com/a%20b"},
		{in: "https://www.example.com/ü", rule: "L-07", fix: "%C3%BC", suggest: "https://www.example.com/%C3%BC"},
		{in: "https://www.example.com/<a>", rule: "L-07", fix: "%3C"},
		{in: "https://www.example.com/%zz", rule: "L-07", fix: "%25"},
		{in: " https://www.example.com/", rule: "X-12", suggest: "https://www.example.com/"},
		{in: "\u00a0https://www.example.com/", rule: "L-01"}, // not XML white space: no reader trims it
		{in: "https://[::1/", rule: "L-07"},
		{in: "https://[fe80::1%25eth0]/", rule: "L-07"},
	} {
		_, pr := URL(tc.in)
		if ruleOf(pr) != tc.rule {
			t.Errorf("URL(%q) = %+v, want rule %q", tc.in, pr, tc.rule)
			continue
		}
		if pr == nil {
			continue
		}
		if !strings.Contains(pr.Fix, tc.fix) || tc.suggest != "" && pr.Suggest != tc.suggest {
			t.Errorf("URL(%q) = %+v, want fix with %q, suggest %q", tc.in, pr, tc.fix, tc.suggest)
		}
		if tc.rule == "L-07" && strings.Contains(tc.in, "bücher") && strings.Contains(pr.Text(), "percent-encode") {
			t.Errorf("URL(%q): a host gets punycode advice, not %q", tc.in, pr.Text())
		}
	}
}

func TestScope(t *testing.T) {
	u, _ := url.Parse("https://www.example.com/dir/sitemap.xml")
	sc, err := NewScope(u)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		k    Kind
		rule string
	}{
		{"https://www.example.com/dir/a", Page, ""},
		{"HTTPS://WWW.EXAMPLE.COM:443/dir/", Page, ""},
		{"https://www.example.com./dir/a", Page, "L-09"},
		{"https://example.com/dir/a", Page, "L-09"},
		{"https://www.example.com/other/a", Page, "L-09"},
		{"http://www.example.com/dir/a", Page, "L-09"},
		{"https://www.example.com:8443/dir/a", Page, "L-09"},
		{"https://www.example.com/other/s.xml", Child, "I-06"},
		{"https://cdn.example.com/dir/s.xml", Child, "I-05"},
	} {
		p, pr := URL(tc.in)
		if !pr.OK() {
			t.Fatalf("URL(%q): %+v", tc.in, pr)
		}
		if got := sc.Check(p, tc.k); ruleOf(got) != tc.rule {
			t.Errorf("Check(%q) = %+v, want %q", tc.in, got, tc.rule)
		}
	}
	idn, _ := url.Parse("https://bücher.example/")
	sc, _ = NewScope(idn)
	if p, _ := URL("https://XN--BCHER-KVA.example/a"); !sc.Check(p, Page).OK() {
		t.Error("punycode loc outside its IDN scope")
	}
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		pr   *Problem
		rule string
	}{
		{"daily", ChangeFreq("daily"), ""},
		{"Daily", ChangeFreq("Daily"), "C-04"},
		{"often", ChangeFreq("often"), "C-01"},
		{"priority 1", Priority(1), ""},
		{"priority 1.5", Priority(1.5), "P-01"},
		{"en-GB", Hreflang("en-GB"), ""},
		{"zh-Hant-TW", Hreflang("zh-Hant-TW"), ""},
		{"es-419", Hreflang("es-419"), ""},
		{"X-Default", Hreflang("X-Default"), ""},
		{"GB", Hreflang("GB"), "H-06"},
		{"en_GB", Hreflang("en_GB"), "H-06"},
		{"en-", Hreflang("en-"), "H-06"},
		{"empty hreflang", Hreflang(""), "H-06"},
		{"news en", NewsLanguage("en"), ""},
		{"news zh-tw", NewsLanguage("zh-tw"), ""},
		{"news pt-br", NewsLanguage("pt-br"), "N-03"},
		{"news empty", NewsLanguage(""), "N-01"},
		{"countries", Countries("IE  GB"), ""},
		{"countries lower", Countries("ie"), "V-01"},
		{"countries trailing", Countries("IE "), "V-01"},
		{"platforms", Platforms("web tv"), ""},
		{"platforms double space", Platforms("web  tv"), "V-01"},
		{"same domain", SameDomain("users.example.com", "www.example.com"), ""},
		{"other domain", SameDomain("example.net", "www.example.com"), "V-06"},
		{"year", DateYear(10000), "M-01"},
		{"short", Length("http://a.b/"), "L-06"},
		{"long", Length("https://www.example.com/" + strings.Repeat("a", 2048)), "L-06"},
	} {
		if ruleOf(tc.pr) != tc.rule {
			t.Errorf("%s: %+v, want rule %q", tc.name, tc.pr, tc.rule)
		}
	}
	if pr := NewsLanguage("pt-br"); pr.Suggest != "pt" {
		t.Errorf("NewsLanguage(pt-br).Suggest = %q", pr.Suggest)
	}
}

func TestRegistrableDomain(t *testing.T) {
	for _, tt := range []struct{ host, want string }{
		{"www.example.com", "example.com"},
		{"a.b.example.co.uk", "example.co.uk"},
		{"127.0.0.1", "127.0.0.1"},
		{"WWW.Example.COM", "example.com"},
	} {
		if got := registrableDomain(tt.host); got != tt.want {
			t.Errorf("registrableDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestHreflangCodes(t *testing.T) {
	for code, want := range map[string]bool{
		"en": true, "en-GB": true, "de-ch": true, "zh-Hant": true, "zh-Hant-TW": true, "es-419": true,
		"x-default": true, "X-Default": true, "haw": true,
		"GB": false, "xx": false, "uk": true, "e": false, "english": false, "en_GB": false, "en-GBR": false, "": false, "en-": false, "x-other": false,
	} {
		if got := Hreflang(code).OK(); got != want {
			t.Errorf("Hreflang(%q).OK() = %v, want %v", code, got, want)
		}
	}
}

// FuzzURL checks URL on any input: it never panics; what it accepts,
// net/url parses to the same scheme, host, port and path; and a suggested
// form (the punycode or percent-encoded URL) is itself accepted, so the
// advice never leads to another L-07.
func FuzzURL(f *testing.F) {
	for _, s := range []string{
		"https://www.example.com/a?b=c#d", "https://bücher.example/ä b", "https://www.example.com/u#a#b",
		"https://user@host/", "https://[2001:db8::1]:8080/x", "https://www.example.com:0/", "https://www.example.com/%zz",
		"http://a.b/<>\"{}|\\^`", " https://www.example.com/", "HTTPS://WWW.EXAMPLE.COM./",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, pr := URL(s)
		if pr.OK() {
			u, err := url.Parse(s)
			if err != nil {
				t.Fatalf("URL accepts %q, url.Parse fails: %v", s, err)
			}
			path := u.EscapedPath()
			if u.RawPath == "" && strings.Contains(p.Path, "%") {
				path = p.Path // url.Parse drops RawPath when it equals the default encoding
			}
			if !strings.EqualFold(u.Scheme, p.Scheme) || u.Hostname() != p.Host || u.Port() != p.Port || path != p.Path {
				t.Fatalf("%q: URL %+v, url.Parse %q %q %q %q", s, p, u.Scheme, u.Hostname(), u.Port(), path)
			}
			return
		}
		if pr.Rule == "" || pr.Message == "" {
			t.Fatalf("URL(%q): incomplete problem %+v", s, pr)
		}
		if pr.Suggest != "" && pr.Suggest != strings.TrimSpace(s) {
			if _, again := URL(pr.Suggest); ruleOf(again) == "L-07" {
				t.Fatalf("URL(%q) suggests %q, which breaks L-07 again: %+v", s, pr.Suggest, again)
			}
		}
	})
}

// TestHostOf checks hostOf against URL's parts on accepted URLs.
func TestHostOf(t *testing.T) {
	for _, s := range []string{
		"https://www.example.com/a", "https://www.example.com:8080?x", "http://[2001:db8::1]:80/#f",
		"HTTPS://Example.COM", "https://a.b#x", "https://xn--bcher-kva.example./p",
	} {
		p, pr := URL(s)
		if !pr.OK() {
			t.Fatalf("URL(%q): %+v", s, pr)
		}
		if got := hostOf(s); got != p.Host {
			t.Errorf("hostOf(%q) = %q, want %q", s, got, p.Host)
		}
	}
}

// TestURLReplacementCharacter: U+FFFD in a URL (what a reader leaves of
// a byte that is not UTF-8, X-01) is named as such, with no percent-
// encoded suggestion: %EF%BF%BD would publish the replacement character,
// not the lost one. It was reported as "a byte that is not UTF-8" with
// that suggestion. A raw byte that is not UTF-8 keeps its %XX suggestion.
func TestURLReplacementCharacter(t *testing.T) {
	_, pr := URL("https://www.example.com/ok\ufffd")
	if ruleOf(pr) != "L-07" || !strings.Contains(pr.Message, "U+FFFD") || strings.Contains(pr.Message, "not UTF-8 at") ||
		pr.Suggest != "" || strings.Contains(pr.Fix, "%EF%BF%BD") {
		t.Errorf("U+FFFD: %+v", pr)
	}
	_, pr = URL("https://www.example.com/ok\xff")
	if ruleOf(pr) != "L-07" || !strings.Contains(pr.Message, "not UTF-8") || pr.Suggest != "https://www.example.com/ok%FF" {
		t.Errorf("byte 0xFF: %+v", pr)
	}
}

// TestScopeSaysEveryDifference: a URL on another scheme and host than the
// scope is told both, the host first: naming only the scheme ("its scheme
// is https, not http") sent the user to fix the one that mattered least. A
// port implied by the scheme is not named again.
func TestScopeSaysEveryDifference(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:8080/")
	sc, err := NewScope(u)
	if err != nil {
		t.Fatal(err)
	}
	u2, _ := url.Parse("https://www.example.com/")
	sc2, _ := NewScope(u2)
	for _, tc := range []struct {
		sc   Scope
		in   string
		want string
	}{
		{sc, "https://cdn.example.net/b", "is outside http://127.0.0.1:8080/: its host is cdn.example.net, not 127.0.0.1; its scheme is https, not http; its port is 443, not 8080"},
		{sc2, "http://www.example.com/a", "is outside https://www.example.com/: its scheme is http, not https"},
		{sc2, "https://cdn.example.net/a", "is outside https://www.example.com/: its host is cdn.example.net, not www.example.com"},
		{sc2, "https://www.example.com:8443/a", "is outside https://www.example.com/: its port is 8443, not 443"},
	} {
		p, _ := URL(tc.in)
		if got := tc.sc.Check(p, Page); got == nil || got.Message != tc.want {
			t.Errorf("Check(%q) = %+v\nwant message %q", tc.in, got, tc.want)
		}
	}
}

// A tab in the path of a URL on a non-ASCII host is said as the tab, not
// as the host to write in punycode, which would not fix it.
func TestURLControlCharacterBeforeHostSpelling(t *testing.T) {
	_, pr := URL("https://bücher.example/a\tb")
	if pr.OK() || pr.Rule != "L-07" || !strings.Contains(pr.Text(), "U+0009") || strings.Contains(pr.Text(), "punycode") {
		t.Errorf("%v", pr.Text())
	}
	if _, pr := URL("https://bücher.example/a"); pr.OK() || !strings.Contains(pr.Text(), "punycode") {
		t.Errorf("%v", pr.Text())
	}
}
