package sitemap

import (
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
)

// TestDecodeOrderMessagesNameTheOrder: an out-of-order extension child
// (V-03, N-08, IM-01, N-01) says what it came after and the order the
// schema wants, as X-06 does.
func TestDecodeOrderMessagesNameTheOrder(t *testing.T) {
	const (
		videoOrder = "thumbnail_loc, title, description, content_loc, player_loc, duration, expiration_date, rating, content_segment_loc, view_count, publication_date, tag, category, family_friendly, restriction, gallery_loc, price, requires_subscription, uploader, tvshow, platform, live, id"
		newsOrder  = "publication, access, genres, publication_date, title, keywords, stock_tickers"
		imageOrder = "loc, caption, geo_location, title, license"
	)
	const ns = ` xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"`
	set := func(body string) string {
		return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + ns + `><url><loc>https://e.com/</loc>` + body + `</url></urlset>`
	}
	tests := []struct {
		name, in, rule, want string
	}{
		{"V-03 tag after live",
			set(`<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc>https://e.com/p</video:player_loc><video:live>no</video:live><video:tag>x</video:tag></video:video>`),
			"V-03", "<video:tag> after <video:live>; children of <video:video> go " + videoOrder},
		{"V-03 unkept child (id before tag is fine, content_segment_loc after tag is not)",
			set(`<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc>https://e.com/p</video:player_loc><video:tag>x</video:tag><video:content_segment_loc>https://e.com/s</video:content_segment_loc></video:video>`),
			"V-03", "<video:content_segment_loc> after <video:tag>; children of <video:video> go " + videoOrder},
		{"N-08 access last",
			set(`<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2008-12-23</news:publication_date><news:title>T</news:title><news:access>Subscription</news:access></news:news>`),
			"N-08", "<news:access> after <news:title>; children of <news:news> go " + newsOrder},
		{"N-08 publication after title",
			set(`<news:news><news:title>T</news:title><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2008-12-23</news:publication_date></news:news>`),
			"N-08", "<news:publication> after <news:title>; children of <news:news> go " + newsOrder},
		{"IM-01 loc after title",
			set(`<image:image><image:title>T</image:title><image:loc>https://e.com/i.jpg</image:loc></image:image>`),
			"IM-01", "<image:loc> after <image:title>; children of <image:image> go " + imageOrder},
		{"N-01 language before name",
			set(`<news:news><news:publication><news:language>en</news:language><news:name>N</news:name></news:publication><news:publication_date>2008-12-23</news:publication_date><news:title>T</news:title></news:news>`),
			"N-01", "<news:name> after <news:language>; children of <news:publication> go name, language"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := decodeAll(t, []byte(tt.in), DecoderOptions{})
			found := false
			for _, d := range r.diags {
				if string(d.Rule) == tt.rule && d.Message == tt.want {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s %q\n%s", tt.rule, tt.want, r.dump())
			}
			if r.count(rules.ID(tt.rule)) != 1 {
				t.Errorf("%d %s diagnostics, want 1\n%s", r.count(rules.ID(tt.rule)), tt.rule, r.dump())
			}
		})
	}
	// The files the reviewer named.
	for _, f := range []struct{ path, rule, prefix string }{
		{"testdata/samples/vorder.xml", "V-03", "<video:tag> after <video:live>; children of <video:video> go thumbnail_loc, title, "},
		{"testdata/corpus/crawler-commons/extension/sitemap-news.xml", "N-08", "<news:access> after <news:stock_tickers>; children of <news:news> go publication, access, "},
	} {
		r := decodeFile(t, f.path)
		ok := false
		for _, d := range r.diags {
			if string(d.Rule) == f.rule && strings.HasPrefix(d.Message, f.prefix) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: no %s starting %q\n%s", f.path, f.rule, f.prefix, r.dump())
		}
	}
}
