package validate

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestSameVerdictAsEncoder feeds tricky values to the encoder's checks
// (sitemap.EncoderOptions.Check) and to a Checker: where the encoder
// refuses an entry, the Checker reports the same rule with the encoder's
// message and advice, as an error (or, for the values the XSD accepts and
// the protocol does not, a warning). cmd/sitemap's TestVerdictTable runs a
// larger table through every command.
func TestSameVerdictAsEncoder(t *testing.T) {
	const page = "https://www.example.com/page"
	newsNow := sitemap.DateOf(testNow.Add(-time.Hour))
	loc := func(s string) func(*sitemap.URL) { return func(u *sitemap.URL) { u.Loc = s } }
	E, W := sitemap.SeverityError, sitemap.SeverityWarning
	for _, tc := range []struct {
		name string
		edit func(*sitemap.URL)
		rule string
		sev  sitemap.Severity
	}{
		{"clean", func(*sitemap.URL) {}, "", 0},
		{"user info", loc("https://user@host/"), "L-07", E},
		{"two fragments", loc("https://www.example.com/u#a#b"), "L-07", E},
		{"trailing dot", loc("https://www.example.com./k"), "L-09", E},
		{"port 0", loc("https://www.example.com:0/k"), "L-07", E},
		{"IDNA host", loc("https://bücher.example/"), "L-07", E},
		{"space", loc("https://www.example.com/a b"), "L-07", E},
		{"white space around", loc(" https://www.example.com/x"), "X-12", W},
		{"less-than", loc("https://www.example.com/a<b"), "L-07", E},
		{"non-ASCII path", loc("https://www.example.com/ümlat"), "L-07", E},
		{"over-long", loc(page + "/" + strings.Repeat("x", 2100)), "L-06", E},
		{"exactly 2,048", loc(page + "/" + strings.Repeat("x", 2048-len(page)-1)), "L-06", W},
		{"ftp", loc("ftp://www.example.com/a"), "L-16", E},
		{"changefreq case", func(u *sitemap.URL) { u.ChangeFreq = "Daily" }, "C-04", E},
		{"changefreq unknown", func(u *sitemap.URL) { u.ChangeFreq = "often" }, "C-01", E},
		{"priority", func(u *sitemap.URL) { u.Priority = sitemap.Float64(1.5) }, "P-01", E},
		{"hreflang region", func(u *sitemap.URL) { u.Alternates = []sitemap.Alternate{{Hreflang: "GB", Href: page}} }, "H-06", E},
		{"hreflang href", func(u *sitemap.URL) {
			u.Alternates = []sitemap.Alternate{{Hreflang: "en", Href: page}, {Hreflang: "de", Href: "/de"}}
		}, "H-05", E},
		{"news language", func(u *sitemap.URL) {
			u.News = &sitemap.News{Publication: sitemap.Publication{Name: "D", Language: "pt-br"}, PublicationDate: newsNow, Title: "T"}
		}, "N-03", E},
		{"image relative", func(u *sitemap.URL) { u.Images = []sitemap.Image{{Loc: "/a.jpg"}} }, "IM-01", E},
		{"image licence", func(u *sitemap.URL) { u.Images = []sitemap.Image{{Loc: page + ".jpg", License: "CC BY"}} }, "IM-01", E},
		{"video countries", func(u *sitemap.URL) {
			v := goodVideo()
			v.Restriction = &sitemap.Restriction{Relationship: sitemap.Allow, Countries: "ie"}
			u.Videos = []sitemap.Video{v}
		}, "V-01", E},
		{"video platforms", func(u *sitemap.URL) {
			v := goodVideo()
			v.Platform = &sitemap.Platform{Relationship: sitemap.Deny, Platforms: "web  tv"}
			u.Videos = []sitemap.Video{v}
		}, "V-01", E},
		{"video uploader", func(u *sitemap.URL) {
			v := goodVideo()
			v.Uploader = &sitemap.Uploader{Name: "Me", Info: "https://example.net/me"}
			u.Videos = []sitemap.Video{v}
		}, "V-06", E},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := sitemap.URL{Loc: page}
			tc.edit(&u)
			scope, _ := url.Parse("https://www.example.com/")
			err := sitemap.EncoderOptions{Extensions: sitemap.ExtAll, Legacy: true, Scope: scope}.Check(&u)
			var ds []sitemap.Diagnostic
			c, _ := NewChecker(Options{Name: "s.xml", URL: "https://www.example.com/sitemap.xml", Now: testNow}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
			c.URL(&u, 2, 1)
			c.Finish()
			if tc.rule == "" {
				if err != nil || len(ds) != 0 {
					t.Fatalf("Check = %v, Checker = %v; want nothing", err, ds)
				}
				return
			}
			var ee *sitemap.EntryError
			if !errors.As(err, &ee) || string(ee.Rule) != tc.rule {
				t.Fatalf("Check = %v, want %s", err, tc.rule)
			}
			if len(ds) == 0 || string(ds[0].Rule) != tc.rule || ds[0].Severity != tc.sev || !strings.Contains(ds[0].Message, ee.Message) {
				t.Fatalf("Checker = %v\nwant first %v %s with %q", ds, tc.sev, tc.rule, ee.Message)
			}
		})
	}
}
