package robots

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// verdict is one expected Allowed result.
type check struct {
	agent, path string
	allowed     bool
}

type delay struct {
	agent string
	d     time.Duration // 0 with ok false: no delay
	ok    bool
}

// corpusCase describes what each crawler-commons robots.txt file must give
// (testdata/crawler-commons, see PROVENANCE.md).
type corpusCase struct {
	base     string   // robots.txt URL used to resolve relative Sitemap values
	sitemaps []string // File.Sitemaps(base)
	checks   []check
	delays   []delay
	warnings []Warning // each must be among File.Warnings() or the Sitemaps warnings (Message ignored)
}

var newsweekSitemaps = []string{"http://www.newsweek.com/sitemap_index.xml"}

// newsweekChecks is shared by the three BOM variants of the same file.
var newsweekChecks = []check{
	{"anybot", "/login.aspx", false},         // * group, first line after the BOM (RB-10)
	{"anybot", "/a/b/output/print", false},   // "/*/output/print"
	{"anybot", "/news/story", true},          //
	{"Googlebot", "/profile/me", false},      // specific group
	{"googlebot", "/search.aspx?q=1", false}, // product token compared case-insensitively
	{"Googlebot", "/index.html", true},       //
	{"Googlebot", "/robots.txt", true},       // always allowed
	{"anybot", "http://www.newsweek.com/profile", false},
}

var corpus = map[string]corpusCase{
	"astore.amazon.com-robots.txt": {
		checks: []check{{"anybot", "/anything", true}},
		delays: []delay{{"anybot", 5 * time.Second, true}},
	},
	"crawl-delay-group-merging.txt": {
		// RFC 9309 §2.2.1 merging; Crawl-delay does not end a group (RB-01).
		checks: []check{
			// The file's comment says /login/ applies to mybot too; by RFC 9309
			// merging it does not: the second yourbot group does not name mybot.
			{"mybot", "/private/x", false}, {"mybot", "/login/", true},
			{"yourbot", "/private/", false}, {"yourbot", "/login/x", false},
			{"mybot", "/public", true}, {"otherbot", "/private/", true},
		},
		delays: []delay{
			{"mybot", 10 * time.Second, true}, {"yourbot", 10 * time.Second, true},
			{"otherbot", 30 * time.Second, true},
		},
	},
	"directive-typos-robots.txt": {
		// RFC 9309 product tokens are letters, '-' and '_' only, so Google
		// reads "bot1" … "bot4" as the token "bot": the three groups merge and
		// a crawler calling itself "bot1" is named by none of them.
		checks: []check{
			{"bot", "/desallow/", true},  // "Desallow" is not a typo Google accepts
			{"bot", "/dissalow/", false}, // "dissalow" is
			{"bot", "/useragent/", false},
			// "useg-agent: bot3" is unknown, so the Disallow after it stays in bot2's group.
			{"bot", "/useg-agent/", false},
			{"bot", "/useragent-no-colon/", false}, // "useragent bot4": typo and no colon
			{"bot1", "/dissalow/", true},
		},
		warnings: []Warning{{Line: 3, Rule: "RB-01"}, {Line: 5, Rule: "RB-01"}, {Line: 11, Rule: "RB-10"}},
	},
	"dos-line-endings.txt": {
		checks: []check{{"anybot", "/x", true}},
		delays: []delay{{"anybot", time.Second, true}},
	},
	"extended-standard-robots.txt": {
		checks: []check{{"bot1", "/x", true}, {"bot2", "/", true}, {"bot3", "/a", true}, {"bot4", "/b", true}},
		delays: []delay{{"bot1", 0, false}},
	},
	"extension-robots.txt": {
		base:     "https://www.example.com/robots.txt",
		sitemaps: []string{"https://www.example.com/sitemap.xml"},
		checks: []check{
			{"mybot", "/private/a", false}, {"mybot", "/secret/", true},
			{"otherbot", "/admin/", false}, {"otherbot", "/private/", true},
			{"anybot", "/admin/", true},
		},
		warnings: []Warning{{Line: 4, Rule: "RB-12"}},
	},
	"extensions-group-merging.txt": {
		checks: []check{
			{"mybot", "/private/", false}, {"mybot", "/login/", false},
			{"yourbot", "/private/", false}, {"mybot", "/page", true},
			{"otherbot", "/llms.txt", true}, {"otherbot", "/page", false},
		},
	},
	"format-errors-robots.txt": {
		base:     "http://example.com/robots.txt",
		sitemaps: []string{"http://example.com/sitemap.xml"},
		checks: []check{
			// bot1, bot2 and bot3 are all the product token "bot" (see above).
			{"bot", "/whitespace-before-colon/", false}, // "disallow : …" still a Disallow
			{"bot", "/no-colon/", false},                // "disallow /no-colon/": two tokens, no colon
			{"bot", "/no-colon-useragent/", false},      // "user-agent bot2"
			{"bot", "/whitespace-before-colon", true},   // "allow : …" longer than "disallow: /"
			{"bot", "/other", false},
			{"bot2", "/other", true},
		},
		warnings: []Warning{{Line: 3, Rule: "RB-10"}, {Line: 5, Rule: "RB-10"}, {Line: 11, Rule: "RB-12"}},
	},
	"malformed-path.txt": {
		checks: []check{
			{"anybot", "/wiki/Wikipedia_talk:Mediation_Committee/x", false},
			{"anybot", "/wiki/Wikipedia_talk%3Mediation_Committee/", false}, // invalid escape kept verbatim
			{"anybot", "/wiki/Main_Page", true},
		},
	},
	"many-user-agents.txt": {
		checks: []check{
			{"wget", "/", false}, {"Foobot", "/anything", false}, {"OutfoxBot", "/x", false},
			{"moget", "/", false},
			{"goodbot", "/forum/", false}, {"goodbot", "/bot-trap/", false}, {"goodbot", "/about", true},
		},
	},
	"merge-rules.txt": {
		checks: []check{
			{"testy", "/x", false}, {"curl", "/", false},
			{"wget", "/foo/bar", true},  // Allow and Disallow of equal length: Allow wins
			{"wget", "/tmp/bar", false}, // from the group shared with "*"
			{"otherbot", "/foo/bar", false}, {"otherbot", "/ckh/bar", true}, {"otherbot", "/x", true},
		},
	},
	"precedence-of-rules.txt": {
		checks: []check{
			{"testy", "/foo/bar", true}, // Allow /foo/bar (8) beats Disallow /foo/b* (7)
			{"testy", "/foo/baz", false}, {"testy", "/foo", false}, {"testy", "/x", true},
			{"wget", "/x", false}, // Disallow /* (2) beats Allow / (1)
			{"wget", "/foo", true}, {"wget", "/index.html", true},
			{"wget", "/", true}, // Google: allowing /index.html allows "/$" too
		},
	},
	"relative-sitemap-robots.txt": {
		base:     "https://shop.example.org/robots.txt",
		sitemaps: []string{"https://shop.example.org/sitemap.xml"},
		checks:   []check{{"anybot", "/cache/x", false}, {"anybot", "/files/a", false}, {"anybot", "/file", true}},
		warnings: []Warning{{Line: 1, Rule: "RB-12"}},
	},
	"rfc9309-example-longest-match-robots.txt": {
		checks: []check{
			{"foobot", "/example/page/disallowed.gif", false},
			{"foobot", "/example/page/", true}, {"foobot", "/example/page/other.gif", true},
		},
	},
	"rfc9309-example-rule-group-merging.txt": {
		checks: []check{
			{"ExampleBot", "/foo", false}, {"ExampleBot", "/bar", false}, {"ExampleBot", "/baz", false},
			{"BazBot", "/baz", false}, {"BazBot", "/foo", true},
			{"otherbot", "/foo", false}, {"otherbot", "/baz", true},
		},
	},
	"rfc9309-example-simple-robots.txt": {
		checks: []check{
			{"anybot", "/example/x", false}, {"anybot", "/publications/a", true},
			{"anybot", "/a.gif", false}, // "*.gif$"
			{"anybot", "/a.gif?x", true},
			{"foobot", "/x", false}, {"foobot", "/example/page.html", true}, {"foobot", "/example/allowed.gif", true},
			{"barbot", "/example/page.html", false}, {"bazbot", "/example/page.html", false},
			{"bazbot", "/example/other", true},
			{"quxbot", "/example/x", true}, // empty group: the "*" group does not apply
		},
	},
	"robots-with-utf16be-bom.txt": {sitemaps: newsweekSitemaps, checks: newsweekChecks, warnings: []Warning{{Line: 0, Rule: "RB-02"}}},
	"robots-with-utf16le-bom.txt": {sitemaps: newsweekSitemaps, checks: newsweekChecks, warnings: []Warning{{Line: 0, Rule: "RB-02"}}},
	"robots-with-utf8-bom.txt":    {sitemaps: newsweekSitemaps, checks: newsweekChecks},
	"sitemap-robots-dedup.txt": {
		sitemaps: []string{"http://example.org/sitemap.xml"}, // key case differs, URL equal: one entry (RB-12)
		checks:   []check{{"anybot", "/x", true}},
		warnings: []Warning{{Line: 5, Rule: "RB-12"}},
	},
	"sitemap-robots.txt": {
		// The bare URL on line 8 is not a Sitemap line (RB-05), only warned about.
		sitemaps: []string{"http://domain.com/sitemap.xml", "http://domain.com/dir/MixedCased-sitemap.xml"},
		checks:   []check{{"anybot", "/x", true}},
		warnings: []Warning{{Line: 8, Rule: "RB-05"}},
	},
	"twitter.com-robots.txt": {
		checks: []check{
			{"Googlebot", "/search?q=x", false}, {"Googlebot", "/jack/with_friends", false},
			{"Googlebot", "/jack", true}, {"Slurp", "/a?b", false}, {"anybot", "/x/with_friends", false},
		},
		delays: []delay{
			{"Googlebot", 0, false}, // its Crawl-delay is commented out
			{"Slurp", time.Second, true}, {"msnbot", 10 * time.Second, true}, {"anybot", 0, false},
		},
	},
	"wildcards.txt": {
		sitemaps: []string{
			"http://www.amazon.com/sitemap-manual-index.xml",
			"http://www.amazon.com/sitemap_vendor_videos_us.xml",
			"http://www.amazon.com/sitemap_vod_index.xml",
			"http://www.amazon.com/sitemaps.f3053414d236e84.SitemapIndex_0.xml.gz",
			"http://www.amazon.com/sitemaps.1946f6b8171de60.SitemapIndex_0.xml.gz",
			"http://www.amazon.com/sitemaps.bbb7d657c7e29fa.SitemapIndex_0.xml.gz",
			"http://www.amazon.com/sitemaps.11aafed315ee654.SitemapIndex_0.xml.gz",
			"http://www.amazon.com/sitemaps.c21f969b5f03d33.SitemapIndex_0.xml.gz",
		},
		checks: []check{
			{"anybot", "/wishlist/123", false}, {"anybot", "/wishlist/universal/x", true},
			{"Googlebot", "/rss/people/bob/reviews", false}, {"Googlebot", "/rss/people/bob", true},
			{"Googlebot", "/x/sim/B001132UEE", false}, {"anybot", "/x/sim/B001132UEE", true},
			{"anybot", "/a/b/gcrnsts", false}, // "*/gcrnsts": '*' first
			{"EtaoSpider", "/", false}, {"EtaoSpider", "/robots.txt", true},
		},
	},
	"www.flot.com-robots.txt": {
		sitemaps: []string{"http://flot.com/sitemap_index.xml"},
		checks:   []check{{"anybot", "/bitrix/x", false}, {"anybot", "/catalog/", true}},
	},
}

func TestCrawlerCommonsCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/crawler-commons/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(corpus) {
		t.Errorf("%d corpus files, %d cases", len(files), len(corpus))
	}
	for _, name := range files {
		base := filepath.Base(name)
		tc, ok := corpus[base]
		if !ok {
			t.Errorf("%s: no case", base)
			continue
		}
		t.Run(base, func(t *testing.T) {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			var baseURL *url.URL
			if tc.base != "" {
				baseURL, _ = url.Parse(tc.base)
			}
			got, sw := f.Sitemaps(baseURL)
			if !reflect.DeepEqual(got, tc.sitemaps) && !(len(got) == 0 && len(tc.sitemaps) == 0) {
				t.Errorf("Sitemaps = %q, want %q", got, tc.sitemaps)
			}
			for _, c := range tc.checks {
				if a := f.Allowed(c.agent, c.path); a != c.allowed {
					t.Errorf("Allowed(%q, %q) = %v, want %v", c.agent, c.path, a, c.allowed)
				}
				g := f.Group(c.agent)
				if a := g.Allowed(c.path); a != c.allowed {
					t.Errorf("Group(%q).Allowed(%q) = %v, want %v", c.agent, c.path, a, c.allowed)
				}
			}
			for _, d := range tc.delays {
				gd, ok := f.CrawlDelay(d.agent)
				if gd != d.d || ok != d.ok {
					t.Errorf("CrawlDelay(%q) = %v, %v; want %v, %v", d.agent, gd, ok, d.d, d.ok)
				}
				if g := f.Group(d.agent); g.CrawlDelay != d.d || g.HasCrawlDelay != d.ok {
					t.Errorf("Group(%q) delay = %v, %v; want %v, %v", d.agent, g.CrawlDelay, g.HasCrawlDelay, d.d, d.ok)
				}
			}
			all := append(slices.Clone(f.Warnings()), sw...)
			for _, w := range tc.warnings {
				if !slices.ContainsFunc(all, func(x Warning) bool { return x.Line == w.Line && x.Rule == w.Rule }) {
					t.Errorf("missing warning line %d %s; have %v", w.Line, w.Rule, all)
				}
			}
			// Whatever the file, the scanner never fails it and editing round-trips.
			if !isUTF16(raw) {
				const u = "https://example.net/added-sitemap.xml"
				out, changed, err := AddSitemap(raw, u)
				if err != nil || !changed {
					t.Fatalf("AddSitemap: %v, %v", changed, err)
				}
				f2 := ParseBytes(out)
				if s := f2.SitemapLines(); len(s) == 0 || s[len(s)-1].Value != u {
					t.Errorf("added sitemap not last: %v", s)
				}
				// Removing takes out only that line; the blank separator line
				// AddSitemap wrote before it (RB-13) stays.
				back, changed, err := RemoveSitemap(out, u)
				if err != nil || !changed || !bytes.HasPrefix(back, raw) || len(trimSpace(back[len(raw):])) != 0 {
					t.Errorf("RemoveSitemap did not restore the file: changed=%v err=%v\n%q", changed, err, back)
				}
			}
		})
	}
}
