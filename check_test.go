package sitemap

import (
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// checkCase is one write-time check: mutate a valid entry, expect the
// error's rule and field (rule "" = accepted).
type checkCase struct {
	name   string
	o      EncoderOptions
	mutate func(u *URL)
	rule   rules.ID
	field  string
	// want, when set, must appear in the error text.
	want string
	// suggest, when set, must equal EntryError.Suggest.
	suggest string
}

func runCheckCases(t *testing.T, base func() URL, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := base()
			tc.mutate(&u)
			err := tc.o.Check(&u)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("Check refused a valid entry: %v", err)
				}
				// Accepted entries encode without error.
				if _, err := tc.o.AppendURL(nil, &u); err != nil {
					t.Fatalf("AppendURL: %v", err)
				}
				return
			}
			var ee *EntryError
			if !errors.As(err, &ee) {
				t.Fatalf("Check = %v, want an *EntryError %s on %s", err, tc.rule, tc.field)
			}
			if ee.Rule != tc.rule || ee.Field != tc.field {
				t.Errorf("Check = %v\n(rule %s, field %s), want rule %s on field %s", err, ee.Rule, ee.Field, tc.rule, tc.field)
			}
			if !strings.HasSuffix(err.Error(), "("+string(tc.rule)+")") {
				t.Errorf("error text does not end with the rule: %v", err)
			}
			// One rule group at the end, not "… (L-04) (L-06)".
			if twoRules.MatchString(err.Error()) {
				t.Errorf("error text ends with two rule groups: %v", err)
			}
			if tc.field != "" && !strings.HasPrefix(err.Error(), tc.field) {
				t.Errorf("error text does not start with the field: %v", err)
			}
			if tc.want != "" && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if tc.suggest != "" && ee.Suggest != tc.suggest {
				t.Errorf("Suggest = %q, want %q", ee.Suggest, tc.suggest)
			}
			if out, err2 := tc.o.AppendURL([]byte("x"), &u); err2 == nil || string(out) != "x" {
				t.Errorf("AppendURL wrote a refused entry: %q, %v", out, err2)
			}
		})
	}
}

// twoRules matches an error text that ends with two parenthesised rule
// IDs, the message's own and the one Error appends.
var twoRules = regexp.MustCompile(`\([A-Z]+-[0-9]+\) \([A-Z]+-[0-9]+\)$`)

func plainURL() URL { return URL{Loc: "https://www.example.com/page"} }

func TestCheckLoc(t *testing.T) {
	loc := func(s string) func(*URL) { return func(u *URL) { u.Loc = s } }
	long := "https://www.example.com/" + strings.Repeat("a", MaxLocLength-len("https://www.example.com/"))
	runCheckCases(t, plainURL, []checkCase{
		{name: "ok", mutate: loc("https://www.example.com/a/b?c=d&e=f#frag")},
		{name: "ok http, port, IPv6", mutate: loc("http://[2001:db8::1]:8080/x")},
		{name: "ok percent-encoded, not encoded twice", mutate: loc("https://www.example.com/%C3%BCmlat.php?q=%25")},
		{name: "ok sub-delims and apostrophe", mutate: loc("https://www.example.com/a;b=c,d!e$f'g(h)*i+j@k:l~m")},
		{name: "ok uppercase scheme and host", mutate: loc("HTTPS://WWW.EXAMPLE.COM/")},
		{name: "X-04 empty", mutate: loc(""), rule: "X-04", field: "loc"},
		{name: "L-01 relative", mutate: loc("/relative/path"), rule: "L-01", field: "loc", want: `loc "/relative/path" is not an absolute URL; sitemaps need https://…`},
		{name: "L-01 no scheme", mutate: loc("www.example.com/page"), rule: "L-01", field: "loc"},
		{name: "L-01 host:port no scheme", mutate: loc("www.example.com:8080/page"), rule: "L-01", field: "loc"},
		{name: "L-01 scheme-relative", mutate: loc("//www.example.com/page"), rule: "L-01", field: "loc", want: "no scheme"},
		{name: "L-01 no authority", mutate: loc("https:www.example.com/page"), rule: "L-01", field: "loc"},
		{name: "L-01 empty host", mutate: loc("https:///page/is/here"), rule: "L-01", field: "loc"},
		{name: "L-16 mailto", mutate: loc("mailto:someone@example.com"), rule: "L-16", field: "loc"},
		{name: "L-16 ftp", mutate: loc("ftp://ftp.example.com/file"), rule: "L-16", field: "loc"},
		{name: "L-07 space", mutate: loc("https://www.example.com/a b"), rule: "L-07", field: "loc", want: "space", suggest: "https://www.example.com/a%20b"},
		{name: "L-07 raw non-ASCII (protocol example)", mutate: loc("http://www.example.com/ümlat.php&q=name"), rule: "L-07", field: "loc",
			suggest: "http://www.example.com/%C3%BCmlat.php&q=name", want: `percent-encoded: "http://www.example.com/%C3%BCmlat.php&q=name"`},
		{name: "L-07 IDN host", mutate: loc("https://bücher.example/katalog"), rule: "L-07", field: "loc", want: "punycode", suggest: "https://xn--bcher-kva.example/katalog"},
		{name: "L-07 bare percent", mutate: loc("https://www.example.com/100%sure"), rule: "L-07", field: "loc", want: "%25", suggest: "https://www.example.com/100%25sure"},
		{name: "L-07 percent at end", mutate: loc("https://www.example.com/a%2"), rule: "L-07", field: "loc", suggest: "https://www.example.com/a%252"},
		{name: "L-07 quote", mutate: loc(`https://www.example.com/"x"`), rule: "L-07", field: "loc", suggest: "https://www.example.com/%22x%22"},
		{name: "L-07 angle brackets", mutate: loc("https://www.example.com/<script>"), rule: "L-07", field: "loc"},
		{name: "L-07 braces pipe backslash", mutate: loc("https://www.example.com/{a}|b\\c"), rule: "L-07", field: "loc", suggest: "https://www.example.com/%7Ba%7D%7Cb%5Cc"},
		{name: "L-07 square bracket in path", mutate: loc("https://www.example.com/a[1]"), rule: "L-07", field: "loc"},
		{name: "L-07 second #", mutate: loc("https://www.example.com/a#b#c"), rule: "L-07", field: "loc", suggest: "https://www.example.com/a#b%23c"},
		{name: "L-07 newline", mutate: loc("https://www.example.com/a\nb"), rule: "L-07", field: "loc", want: "control character"},
		{name: "L-07 invalid UTF-8", mutate: loc("https://www.example.com/\xff"), rule: "L-07", field: "loc", suggest: "https://www.example.com/%FF"},
		{name: "X-12 surrounding space", mutate: loc(" https://www.example.com/page "), rule: "X-12", field: "loc", suggest: "https://www.example.com/page"},
		{name: "L-07 user info", mutate: loc("https://user:pw@www.example.com/"), rule: "L-07", field: "loc"},
		{name: "L-07 bad port", mutate: loc("https://www.example.com:99999/"), rule: "L-07", field: "loc"},
		{name: "L-07 empty port", mutate: loc("https://www.example.com:/"), rule: "L-07", field: "loc"},
		{name: "L-07 port letters", mutate: loc("https://www.example.com:80a/"), rule: "L-07", field: "loc"},
		{name: "L-07 bad IPv6", mutate: loc("https://[not:an:ip/x"), rule: "L-07", field: "loc"},
		{name: "L-07 IPv4 in brackets", mutate: loc("https://[127.0.0.1]/x"), rule: "L-07", field: "loc"},
		{name: "L-07 host with space", mutate: loc("https://www.exa mple.com/"), rule: "L-07", field: "loc"},
		{name: "L-06 too short (L-05)", mutate: loc("http://a.b/"), rule: "L-06", field: "loc", want: "at least 12"},
		{name: "L-05 12 chars ok", mutate: loc("http://a.co/")},
		{name: "L-06 2048 chars", mutate: loc(long), rule: "L-06", field: "loc", want: "2048 characters"},
		{name: "L-06 2047 chars ok", mutate: loc(long[:MaxLocLength-1])},
	})
}

// L-09 / L-15: scheme case-insensitive, host case-insensitive, default
// ports, path under the scope URL's directory.
func TestCheckScope(t *testing.T) {
	scope := func(s string) EncoderOptions {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return EncoderOptions{Scope: u}
	}
	loc := func(s string) func(*URL) { return func(u *URL) { u.Loc = s } }
	cat := scope("http://example.com/catalog/sitemap.xml")
	runCheckCases(t, plainURL, []checkCase{
		{name: "in directory", o: cat, mutate: loc("http://example.com/catalog/show?item=23")},
		{name: "directory itself", o: cat, mutate: loc("http://example.com/catalog/")},
		{name: "case-insensitive scheme and host, default port", o: cat, mutate: loc("HTTP://EXAMPLE.COM:80/catalog/a")},
		{name: "outside directory", o: cat, mutate: loc("http://example.com/images/a.html"), rule: "L-09", field: "loc", want: "start with http://example.com/catalog/"},
		{name: "directory without slash", o: cat, mutate: loc("http://example.com/catalog"), rule: "L-09", field: "loc"},
		{name: "path case differs", o: cat, mutate: loc("http://example.com/Catalog/a"), rule: "L-09", field: "loc"},
		{name: "other scheme", o: cat, mutate: loc("https://example.com/catalog/a"), rule: "L-09", field: "loc", want: "scheme"},
		{name: "www is another host", o: cat, mutate: loc("http://www.example.com/catalog/a"), rule: "L-09", field: "loc", want: "host"},
		{name: "other port", o: cat, mutate: loc("http://example.com:8080/catalog/a"), rule: "L-09", field: "loc", want: "port"},
		{name: "port must match (L-09 example)", o: scope("http://www.example.com:100/sitemap.xml"), mutate: loc("http://www.example.com:100/a")},
		{name: "port missing", o: scope("http://www.example.com:100/sitemap.xml"), mutate: loc("http://www.example.com/a"), rule: "L-09", field: "loc"},
		{name: "explicit default port in scope", o: scope("https://www.example.com:443/sitemap.xml"), mutate: loc("https://www.example.com/a")},
		{name: "root scope, no path", o: scope("https://www.example.com"), mutate: loc("https://www.example.com/deep/page")},
		{name: "IDN scope host", o: scope("https://bücher.example/sitemap.xml"), mutate: loc("https://xn--bcher-kva.example/a")},
		{name: "IPv6 host", o: scope("http://[2001:db8::1]:8080/"), mutate: loc("http://[2001:DB8::1]:8080/x")},
	})
	rel, _ := url.Parse("/sitemap.xml")
	u := plainURL()
	err := EncoderOptions{Scope: rel}.Check(&u)
	if err == nil || errors.As(err, new(*EntryError)) {
		t.Errorf("relative Scope: Check = %v, want a plain error", err)
	}
	// I-05/I-06: index entries are scope-checked as well.
	o := scope("https://www.example.com/public/sitemap_index.xml")
	o.Index = true
	if err := o.CheckIndexEntry(&IndexEntry{Loc: "https://www.example.com/public/s-1.xml"}); err != nil {
		t.Error(err)
	}
	var ee *EntryError
	if err := o.CheckIndexEntry(&IndexEntry{Loc: "https://www.example.com/s-1.xml"}); !errors.As(err, &ee) || ee.Rule != "I-06" {
		t.Errorf("index entry outside scope: %v", err)
	}
}

func TestCheckCore(t *testing.T) {
	date := func(d Date) func(*URL) { return func(u *URL) { u.LastMod = d } }
	prio := func(p float64) func(*URL) { return func(u *URL) { u.Priority = &p } }
	freq := func(c ChangeFreq) func(*URL) { return func(u *URL) { u.ChangeFreq = c } }
	at := time.Date(2026, 11, 2, 10, 30, 0, 0, time.UTC)
	runCheckCases(t, plainURL, []checkCase{
		{name: "M-08 day", mutate: date(Date{Time: at, Precision: PrecisionDay})},
		{name: "M-08 minute", mutate: date(Date{Time: at, Precision: PrecisionMinute})},
		{name: "M-08 second", mutate: date(DateOf(at))},
		{name: "M-08 year", mutate: date(Date{Time: at, Precision: PrecisionYear}), rule: "M-04", field: "lastmod", want: "a year only"},
		{name: "M-08 month", mutate: date(Date{Time: at, Precision: PrecisionMonth}), rule: "M-04", field: "lastmod", want: "a year and month only"},
		{name: "M-08 unknown precision", mutate: date(Date{Time: at, Precision: 42}), rule: "M-08", field: "lastmod"},
		{name: "M-01 year 10000", mutate: date(Date{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Precision: PrecisionDay}), rule: "M-01", field: "lastmod"},
		{name: "M-01 year 0", mutate: date(Date{Time: time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), Precision: PrecisionSecond}), rule: "M-01", field: "lastmod"},
		{name: "C-01 ok", mutate: freq(Daily)},
		{name: "C-04 capitalised", mutate: freq("Daily"), rule: "C-04", field: "changefreq", want: `write "daily"`, suggest: "daily"},
		{name: "C-01 unknown", mutate: freq("fortnightly"), rule: "C-01", field: "changefreq"},
		{name: "P-01 0", mutate: prio(0)},
		{name: "P-01 1", mutate: prio(1)},
		{name: "P-01 above 1", mutate: prio(1.5), rule: "P-01", field: "priority"},
		{name: "P-01 negative", mutate: prio(-0.1), rule: "P-01", field: "priority"},
		{name: "P-01 NaN", mutate: prio(nan()), rule: "P-01", field: "priority"},
	})
}

func nan() float64 { z := 0.0; return z / z }

func TestCheckImages(t *testing.T) {
	base := func() URL {
		return URL{Loc: "https://www.example.com/page", Images: []Image{{Loc: "https://cdn.example.net/a.jpg"}}}
	}
	ext := EncoderOptions{Extensions: ExtImage}
	legacy := EncoderOptions{Extensions: ExtImage, Legacy: true}
	runCheckCases(t, base, []checkCase{
		{name: "IM-05 other host ok", o: ext, mutate: func(u *URL) {}},
		{name: "EX-05 undeclared", mutate: func(u *URL) {}, rule: "EX-05", field: "images", want: "ExtImage"},
		{name: "IM-02 1000 ok", o: ext, mutate: func(u *URL) { u.Images = make([]Image, 1000); fillImages(u.Images) }},
		{name: "IM-02 1001", o: ext, mutate: func(u *URL) { u.Images = make([]Image, 1001); fillImages(u.Images) }, rule: "IM-02", field: "images"},
		{name: "IM-01 empty loc", o: ext, mutate: func(u *URL) { u.Images[0].Loc = "" }, rule: "IM-01", field: "images[0].loc"},
		{name: "IM-01 relative image", o: ext, mutate: func(u *URL) { u.Images = append(u.Images, Image{Loc: "/img/a.jpg"}) }, rule: "IM-01", field: "images[1].loc"},
		{name: "L-07 image with space", o: ext, mutate: func(u *URL) { u.Images[0].Loc = "https://cdn.example.net/a b.jpg" }, rule: "L-07", field: "images[0].loc"},
		{name: "IM-04 deprecated not checked without Legacy", o: ext, mutate: func(u *URL) { u.Images[0].Caption = "bad\x01" }},
		{name: "E-03 caption with Legacy", o: legacy, mutate: func(u *URL) { u.Images[0].Caption = "bad\x01" }, rule: "E-03", field: "images[0].caption", want: "U+0001"},
		{name: "license URL with Legacy", o: legacy, mutate: func(u *URL) { u.Images[0].License = "not a url" }, rule: "IM-01", field: "images[0].license"},
	})
}

func fillImages(ims []Image) {
	for i := range ims {
		ims[i].Loc = "https://cdn.example.net/" + itoa(i) + ".jpg"
	}
}

func TestCheckVideo(t *testing.T) {
	base := func() URL {
		return URL{Loc: "https://www.example.com/page", Videos: []Video{fullVideo()}}
	}
	o := EncoderOptions{Extensions: ExtVideo}
	legacy := EncoderOptions{Extensions: ExtVideo, Legacy: true}
	v := func(f func(v *Video)) func(*URL) { return func(u *URL) { f(&u.Videos[0]) } }
	runCheckCases(t, base, []checkCase{
		{name: "full ok", o: o, mutate: v(func(v *Video) {})},
		{name: "V-01 thumbnail missing", o: o, mutate: v(func(v *Video) { v.ThumbnailLoc = "" }), rule: "V-01", field: "videos[0].thumbnail_loc"},
		{name: "V-01 title missing", o: o, mutate: v(func(v *Video) { v.Title = "" }), rule: "V-01", field: "videos[0].title"},
		{name: "V-01 title 100 ok", o: o, mutate: v(func(v *Video) { v.Title = strings.Repeat("ü", 100) })},
		{name: "V-01 title 101", o: o, mutate: v(func(v *Video) { v.Title = strings.Repeat("ü", 101) }), rule: "V-01", field: "videos[0].title", want: "101 characters"},
		{name: "V-01 description missing", o: o, mutate: v(func(v *Video) { v.Description = "" }), rule: "V-01", field: "videos[0].description"},
		{name: "V-01 description 2048 runes ok", o: o, mutate: v(func(v *Video) { v.Description = strings.Repeat("é", 2048) })},
		{name: "V-01 description 2049 runes", o: o, mutate: v(func(v *Video) { v.Description = strings.Repeat("é", 2049) }), rule: "V-01", field: "videos[0].description"},
		{name: "V-01 no content or player", o: o, mutate: v(func(v *Video) { v.ContentLoc, v.PlayerLoc = "", "" }), rule: "V-01", field: "videos[0].content_loc"},
		{name: "V-01 player only ok", o: o, mutate: v(func(v *Video) { v.ContentLoc = "" })},
		{name: "V-06 content_loc == loc", o: o, mutate: v(func(v *Video) { v.ContentLoc = "https://www.example.com/page" }), rule: "V-06", field: "videos[0].content_loc"},
		{name: "V-06 player_loc == loc", o: o, mutate: v(func(v *Video) { v.PlayerLoc = "https://www.example.com/page" }), rule: "V-06", field: "videos[0].player_loc"},
		{name: "L-07 content_loc", o: o, mutate: v(func(v *Video) { v.ContentLoc = "https://x.example/a b.mp4" }), rule: "L-07", field: "videos[0].content_loc"},
		{name: "V-01 duration 0", o: o, mutate: v(func(v *Video) { v.Duration = Int(0) }), rule: "V-01", field: "videos[0].duration"},
		{name: "V-01 duration 28800 ok", o: o, mutate: v(func(v *Video) { v.Duration = Int(28800) })},
		{name: "V-01 duration 28801", o: o, mutate: v(func(v *Video) { v.Duration = Int(28801) }), rule: "V-01", field: "videos[0].duration"},
		{name: "V-01 rating 5 ok", o: o, mutate: v(func(v *Video) { v.Rating = Float64(5) })},
		{name: "V-01 rating 5.1", o: o, mutate: v(func(v *Video) { v.Rating = Float64(5.1) }), rule: "V-01", field: "videos[0].rating"},
		{name: "V-01 rating NaN", o: o, mutate: v(func(v *Video) { v.Rating = Float64(nan()) }), rule: "V-01", field: "videos[0].rating"},
		{name: "V-01 view count negative", o: o, mutate: v(func(v *Video) { v.ViewCount = Int64(-1) }), rule: "V-01", field: "videos[0].view_count"},
		{name: "M-08 expiration month", o: o, mutate: v(func(v *Video) { v.ExpirationDate.Precision = PrecisionMonth }), rule: "M-04", field: "videos[0].expiration_date"},
		{name: "S-08 32 tags ok", o: o, mutate: v(func(v *Video) { v.Tags = make([]string, 32); fillTags(v.Tags) })},
		{name: "V-06 33 tags", o: o, mutate: v(func(v *Video) { v.Tags = make([]string, 33); fillTags(v.Tags) }), rule: "V-06", field: "videos[0].tags"},
		{name: "V-01 empty tag", o: o, mutate: v(func(v *Video) { v.Tags[1] = "" }), rule: "V-01", field: "videos[0].tags[1]"},
		{name: "E-03 tag control char", o: o, mutate: v(func(v *Video) { v.Tags[2] = "a\x0bb" }), rule: "E-03", field: "videos[0].tags[2]"},
		{name: "V-01 relationship", o: o, mutate: v(func(v *Video) { v.Restriction.Relationship = "Allow" }), rule: "V-01", field: "videos[0].restriction.relationship"},
		{name: "V-01 countries lowercase", o: o, mutate: v(func(v *Video) { v.Restriction.Countries = "ie gb" }), rule: "V-01", field: "videos[0].restriction.countries"},
		{name: "V-01 countries double space ok", o: o, mutate: v(func(v *Video) { v.Restriction.Countries = "IE  GB" })},
		{name: "V-01 countries empty ok", o: o, mutate: v(func(v *Video) { v.Restriction.Countries = "" })},
		{name: "V-01 countries trailing space", o: o, mutate: v(func(v *Video) { v.Restriction.Countries = "IE " }), rule: "V-01", field: "videos[0].restriction.countries"},
		{name: "V-01 countries three letters", o: o, mutate: v(func(v *Video) { v.Restriction.Countries = "IRL" }), rule: "V-01", field: "videos[0].restriction.countries"},
		{name: "V-01 platforms", o: o, mutate: v(func(v *Video) { v.Platform.Platforms = "web desktop" }), rule: "V-01", field: "videos[0].platform.platforms"},
		{name: "V-01 platforms double space", o: o, mutate: v(func(v *Video) { v.Platform.Platforms = "web  tv" }), rule: "V-01", field: "videos[0].platform.platforms"},
		{name: "V-01 platform relationship", o: o, mutate: v(func(v *Video) { v.Platform.Relationship = "" }), rule: "V-01", field: "videos[0].platform.relationship"},
		{name: "V-01 uploader name missing", o: o, mutate: v(func(v *Video) { v.Uploader.Name = "" }), rule: "V-01", field: "videos[0].uploader.name"},
		{name: "V-01 uploader name 256", o: o, mutate: v(func(v *Video) { v.Uploader.Name = strings.Repeat("x", 256) }), rule: "V-01", field: "videos[0].uploader.name"},
		{name: "V-06 uploader info on another domain", o: o, mutate: v(func(v *Video) { v.Uploader.Info = "https://users.example.net/x" }), rule: "V-06", field: "videos[0].uploader.info"},
		{name: "V-06 uploader info on a sibling host ok", o: o, mutate: v(func(v *Video) { v.Uploader.Info = "https://users.example.com/x" })},
		{name: "V-01 relative uploader info", o: o, mutate: v(func(v *Video) { v.Uploader.Info = "/users/x" }), rule: "V-01", field: "videos[0].uploader.info"},
		{name: "X-01 invalid UTF-8 title", o: o, mutate: v(func(v *Video) { v.Title = "caf\xe9" }), rule: "X-01", field: "videos[0].title", want: "not valid UTF-8"},
		{name: "E-03 U+FFFE", o: o, mutate: v(func(v *Video) { v.Description = "a\uFFFEb" }), rule: "E-03", field: "videos[0].description"},
		{name: "second video checked", o: o, mutate: func(u *URL) { u.Videos = append(u.Videos, Video{}) }, rule: "V-01", field: "videos[1].thumbnail_loc"},
		{name: "V-04 deprecated ignored without Legacy", o: o, mutate: v(func(v *Video) { v.Prices = []VideoPrice{{Currency: "euro"}}; v.Category = "\x00" })},
		{name: "V-02 price currency", o: legacy, mutate: v(func(v *Video) { v.Prices = []VideoPrice{{Value: "1", Currency: "euro"}} }), rule: "V-02", field: "videos[0].prices[0].currency"},
		{name: "V-02 price type", o: legacy, mutate: v(func(v *Video) { v.Prices = []VideoPrice{{Value: "1", Type: "buy"}} }), rule: "V-02", field: "videos[0].prices[0].type"},
		{name: "V-02 price resolution", o: legacy, mutate: v(func(v *Video) { v.Prices = []VideoPrice{{Value: "1", Resolution: "4k"}} }), rule: "V-02", field: "videos[0].prices[0].resolution"},
		{name: "V-02 category 257", o: legacy, mutate: v(func(v *Video) { v.Category = strings.Repeat("c", 257) }), rule: "V-02", field: "videos[0].category"},
		{name: "V-02 allow_embed", o: legacy, mutate: v(func(v *Video) { v.PlayerAllowEmbed = "true" }), rule: "V-02", field: "videos[0].player_allow_embed"},
		{name: "V-02 allow_embed without player", o: legacy, mutate: v(func(v *Video) { v.PlayerLoc = ""; v.PlayerAllowEmbed = "yes" }), rule: "V-02", field: "videos[0].player_allow_embed"},
		{name: "V-02 gallery_loc", o: legacy, mutate: v(func(v *Video) { v.GalleryLoc = "gallery" }), rule: "V-02", field: "videos[0].gallery_loc"},
	})
}

func fillTags(tags []string) {
	for i := range tags {
		tags[i] = "tag" + itoa(i)
	}
}

func TestCheckNews(t *testing.T) {
	base := func() URL {
		return URL{Loc: "https://www.example.com/article", News: &News{
			Publication:     Publication{Name: "The Example Times", Language: "en"},
			PublicationDate: DateOf(time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)),
			Title:           "Companies A, B in Merger Talks",
		}}
	}
	o := EncoderOptions{Extensions: ExtNews}
	legacy := EncoderOptions{Extensions: ExtNews, Legacy: true}
	n := func(f func(n *News)) func(*URL) { return func(u *URL) { f(u.News) } }
	runCheckCases(t, base, []checkCase{
		{name: "ok", o: o, mutate: n(func(n *News) {})},
		{name: "EX-05", mutate: n(func(n *News) {}), rule: "EX-05", field: "news"},
		{name: "N-01 name", o: o, mutate: n(func(n *News) { n.Publication.Name = "" }), rule: "N-01", field: "news.publication.name"},
		{name: "N-01 language missing", o: o, mutate: n(func(n *News) { n.Publication.Language = "" }), rule: "N-01", field: "news.publication.language"},
		{name: "N-03 zh-tw ok", o: o, mutate: n(func(n *News) { n.Publication.Language = "zh-tw" })},
		{name: "N-03 three letters ok", o: o, mutate: n(func(n *News) { n.Publication.Language = "fil" })},
		{name: "N-03 pt-br", o: o, mutate: n(func(n *News) { n.Publication.Language = "pt-br" }), rule: "N-03", field: "news.publication.language", suggest: "pt"},
		{name: "N-03 EN", o: o, mutate: n(func(n *News) { n.Publication.Language = "EN" }), rule: "N-03", field: "news.publication.language", suggest: "en"},
		{name: "N-03 zh-CN", o: o, mutate: n(func(n *News) { n.Publication.Language = "zh-CN" }), rule: "N-03", field: "news.publication.language"},
		{name: "N-01 publication_date", o: o, mutate: n(func(n *News) { n.PublicationDate = Date{} }), rule: "N-01", field: "news.publication_date"},
		{name: "M-08 publication_date year", o: o, mutate: n(func(n *News) { n.PublicationDate.Precision = PrecisionYear }), rule: "M-04", field: "news.publication_date"},
		{name: "N-01 title", o: o, mutate: n(func(n *News) { n.Title = "" }), rule: "N-01", field: "news.title"},
		{name: "N-01 blank title", o: o, mutate: n(func(n *News) { n.Title = " \t\r\n" }), rule: "N-01", field: "news.title", want: "white space"},
		{name: "N-01 padded title ok", o: o, mutate: n(func(n *News) { n.Title = " padded " })},
		{name: "E-03 title", o: o, mutate: n(func(n *News) { n.Title = "a\x1fb" }), rule: "E-03", field: "news.title"},
		{name: "N-09 legacy fields ignored", o: o, mutate: n(func(n *News) { n.Access = "Free" })},
		{name: "N-08 access", o: legacy, mutate: n(func(n *News) { n.Access = "Free" }), rule: "N-08", field: "news.access"},
		{name: "N-08 genres ok", o: legacy, mutate: n(func(n *News) { n.Genres = "PressRelease,Blog,  OpEd" })},
		{name: "N-08 genres", o: legacy, mutate: n(func(n *News) { n.Genres = "Blog, News" }), rule: "N-08", field: "news.genres"},
		{name: "N-08 genres trailing comma", o: legacy, mutate: n(func(n *News) { n.Genres = "Blog," }), rule: "N-08", field: "news.genres"},
		{name: "N-08 tickers ok", o: legacy, mutate: n(func(n *News) { n.StockTickers = "NASDAQ:A, NASDAQ:B,NYSE:C, X:Y, Z:W" })},
		{name: "N-08 six tickers", o: legacy, mutate: n(func(n *News) { n.StockTickers = "A:A, B:B, C:C, D:D, E:E, F:F" }), rule: "N-08", field: "news.stock_tickers"},
		{name: "N-08 ticker without exchange", o: legacy, mutate: n(func(n *News) { n.StockTickers = "AAPL" }), rule: "N-08", field: "news.stock_tickers"},
	})
}

func TestCheckAlternates(t *testing.T) {
	base := func() URL {
		return URL{Loc: "https://www.example.com/en/page", Alternates: []Alternate{
			{Hreflang: "en", Href: "https://www.example.com/en/page"},
			{Hreflang: "de-CH", Href: "https://www.example.ch/de/page"},
			{Hreflang: "x-default", Href: "https://www.example.com/page"},
		}}
	}
	o := EncoderOptions{Extensions: ExtXHTML}
	alt := func(i int, lang, href string) func(*URL) {
		return func(u *URL) {
			for len(u.Alternates) <= i {
				u.Alternates = append(u.Alternates, Alternate{})
			}
			u.Alternates[i] = Alternate{Hreflang: lang, Href: href}
		}
	}
	runCheckCases(t, base, []checkCase{
		{name: "ok", o: o, mutate: func(*URL) {}},
		{name: "EX-05", mutate: func(*URL) {}, rule: "EX-05", field: "alternates", want: "ExtXHTML"},
		{name: "H-06 script ok", o: o, mutate: alt(3, "zh-Hant", "https://www.example.com/zh/page")},
		{name: "H-06 script region ok", o: o, mutate: alt(3, "zh-Hant-TW", "https://www.example.com/tw/page")},
		{name: "H-06 numeric region ok", o: o, mutate: alt(3, "es-419", "https://www.example.com/es/page")},
		{name: "H-06 region alone", o: o, mutate: alt(3, "GB", "https://www.example.com/gb/page"), rule: "H-06", field: "alternates[3].hreflang"},
		{name: "H-06 unknown region", o: o, mutate: alt(3, "en-EN", "https://www.example.com/gb/page"), rule: "H-06", field: "alternates[3].hreflang"},
		{name: "H-06 unknown script", o: o, mutate: alt(3, "zh-Abcd", "https://www.example.com/gb/page"), rule: "H-06", field: "alternates[3].hreflang"},
		{name: "H-06 lowercase region ok", o: o, mutate: alt(3, "en-gb", "https://www.example.com/gb/page")},
		{name: "H-06 underscore", o: o, mutate: alt(3, "en_GB", "https://www.example.com/gb/page"), rule: "H-06", field: "alternates[3].hreflang"},
		{name: "H-06 too many parts", o: o, mutate: alt(3, "en-Latn-GB-x", "https://www.example.com/gb/page"), rule: "H-06", field: "alternates[3].hreflang"},
		{name: "H-06 empty", o: o, mutate: alt(1, "", "https://www.example.com/x"), rule: "H-06", field: "alternates[1].hreflang"},
		{name: "H-08 second x-default", o: o, mutate: alt(3, "X-Default", "https://www.example.com/other"), rule: "H-08", field: "alternates[3].hreflang", want: "at most one x-default"},
		{name: "H-08 repeated hreflang", o: o, mutate: alt(3, "EN", "https://www.example.com/en2/page"), rule: "H-08", field: "alternates[3].hreflang", want: "more than once"},
		{name: "H-05 relative href", o: o, mutate: alt(1, "de", "/de/page"), rule: "H-05", field: "alternates[1].href"},
		{name: "H-05 missing href", o: o, mutate: alt(1, "de", ""), rule: "H-05", field: "alternates[1].href"},
		{name: "H-05 other host ok even with Scope", o: EncoderOptions{Extensions: ExtXHTML, Scope: mustURL(t, "https://www.example.com/")}, mutate: func(*URL) {}},
		{name: "L-06 long href", o: o, mutate: alt(1, "de", "https://www.example.com/"+strings.Repeat("a", 2048)), rule: "L-06", field: "alternates[1].href"},
	})
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestCheckIndexEntry(t *testing.T) {
	o := EncoderOptions{Index: true}
	tests := []struct {
		x    IndexEntry
		rule rules.ID
	}{
		{IndexEntry{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: DayOf(time.Now())}, ""},
		{IndexEntry{Loc: ""}, "X-04"},
		{IndexEntry{Loc: "sitemap-1.xml"}, "L-01"},
		{IndexEntry{Loc: "https://www.example.com/sitemap-1.xml", LastMod: Date{Time: time.Now(), Precision: PrecisionYear}}, "M-04"},
	}
	for _, tt := range tests {
		err := o.CheckIndexEntry(&tt.x)
		var ee *EntryError
		switch {
		case tt.rule == "" && err != nil:
			t.Errorf("%+v: %v", tt.x, err)
		case tt.rule != "" && (!errors.As(err, &ee) || ee.Rule != tt.rule):
			t.Errorf("%+v: %v, want rule %s", tt.x, err, tt.rule)
		}
	}
	if _, err := o.AppendIndexEntry(nil, &IndexEntry{Loc: "x"}); err == nil {
		t.Error("AppendIndexEntry accepted a relative loc")
	}
	if err := o.CheckIndexEntry(nil); err == nil {
		t.Error("CheckIndexEntry(nil) succeeded")
	}
}

func TestEntryError(t *testing.T) {
	e := &EntryError{Field: "loc", Rule: "L-01", Value: "/x", Message: "is not an absolute URL; sitemaps need https://…"}
	if got, want := e.Error(), `loc "/x" is not an absolute URL; sitemaps need https://… (L-01)`; got != want {
		t.Errorf("Error() = %s, want %s", got, want)
	}
	// As a diagnostic it prints the same text, without the rule at the
	// end, in its String and its JSON.
	if got, want := e.String(), `error L-01: loc "/x" is not an absolute URL; sitemaps need https://…`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	if b, err := json.Marshal(e); err != nil || string(b) != `{"rule":"L-01","severity":"error","message":"loc \"/x\" is not an absolute URL; sitemaps need https://…"}` {
		t.Errorf("JSON = %s, %v", b, err)
	}
	long := &EntryError{Field: "loc", Rule: "L-06", Value: strings.Repeat("ü", 200), Message: "is long"}
	if s := long.Error(); len(s) > 160 || !strings.Contains(s, "…") {
		t.Errorf("long value not shortened: %d bytes", len(s))
	}
	whole := &EntryError{Rule: "S-02", Message: "does not fit"}
	if s := whole.Error(); s != "does not fit (S-02)" {
		t.Errorf("Error() = %q", s)
	}
}

// Whatever checkURL accepts, net/url parses to the same scheme, host and
// path (the encoder's URL syntax is a subset of what net/url accepts).
func TestCheckURLAgreesWithNetURL(t *testing.T) {
	for _, s := range []string{
		"https://www.example.com/", "http://example.com:8080/a/b?c=d#e", "https://[2001:db8::1]/x",
		"https://www.example.com/%C3%BC?q=a%20b", "HTTPS://EXAMPLE.COM", "https://a.b/c;d=e,f",
	} {
		p, err := checkURL(top("loc"), s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		assertNetURL(t, s, p)
	}
}

func assertNetURL(t testing.TB, s string, p check.Parts) {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Errorf("checkURL accepts %q, url.Parse fails: %v", s, err)
		return
	}
	path := u.EscapedPath()
	if u.RawPath == "" && strings.Contains(p.Path, "%") {
		path = p.Path // url.Parse drops RawPath when it equals the default encoding
	}
	if !strings.EqualFold(u.Scheme, p.Scheme) || u.Hostname() != p.Host || u.Port() != p.Port || path != p.Path {
		t.Errorf("%q: checkURL %+v, url.Parse scheme %q host %q port %q path %q", s, p, u.Scheme, u.Hostname(), u.Port(), path)
	}
}
