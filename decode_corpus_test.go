package sitemap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
)

// TestDecodeCorpus reads every file of the crawler-commons sitemap corpus
// (testdata/corpus/crawler-commons, see PROVENANCE.md) and checks counts,
// formats, specific values and the diagnostics that matter.
func TestDecodeCorpus(t *testing.T) {
	const dir = "testdata/corpus/crawler-commons/"
	type tc struct {
		format Format
		items  int
		want   []string // rules that must be reported
		check  func(t *testing.T, r decodeResult)
	}
	cases := map[string]tc{
		"atom.xml": {FormatAtom, 1, nil, func(t *testing.T, r decodeResult) {
			// The first link without rel (Atom's default alternate) wins.
			if u := r.items[0].URL; u.Loc != "http://example.org/2003/12/13/atom03" || u.LastMod.String() != "2003-12-13T18:30:02Z" {
				t.Errorf("%+v", u)
			}
		}},
		"do-not-visit.txt": {FormatText, 1, nil, func(t *testing.T, r decodeResult) {
			if r.items[0].URL.Loc != "http://www.example.com/do-not-visit-here" {
				t.Errorf("%+v", r.items[0])
			}
		}},
		"sitemap-with-bom.txt": {FormatText, 2, nil, func(t *testing.T, r decodeResult) {
			if r.items[0].URL.Loc != "http://www.domain.com/page1.html" || r.items[1].URL.Loc != "http://www.domain.com/page2.html" {
				t.Errorf("BOM not stripped: %q", r.items[0].URL.Loc)
			}
		}},
		"sitemap.txt": {FormatText, 2, nil, nil},
		"sitemap.txt.gz": {FormatText, 5, nil, func(t *testing.T, r decodeResult) {
			// Text: no XML unescaping, & stays &.
			if r.items[1].URL.Loc != "http://www.example.com/catalog?item=12&desc=vacation_hawaii" {
				t.Errorf("%q", r.items[1].URL.Loc)
			}
		}},
		"xmlSitemap.gz": {FormatURLSet, 5, nil, func(t *testing.T, r decodeResult) {
			u := r.items[3].URL
			if u.Loc != "http://www.example.com/catalog?item=74&desc=vacation_newfoundland" || u.LastMod.String() != "2004-12-23T18:00:15+00:00" || u.Priority == nil || *u.Priority != 0.3 {
				t.Errorf("%+v", u)
			}
			if r.items[0].URL.ChangeFreq != Monthly || r.items[1].URL.ChangeFreq != Weekly {
				t.Error("changefreq")
			}
		}},
		"sitemap.badns.xml": {FormatURLSet, 2, []string{"LG-03", "X-12"}, func(t *testing.T, r decodeResult) {
			if u := r.items[1].URL; u.Loc != "http://www.example.com/2" || u.ChangeFreq != Daily {
				t.Errorf("untrimmed values: %+v", u)
			}
		}},
		"sitemap.ns.xml": {FormatURLSet, 2, nil, func(t *testing.T, r decodeResult) {
			if r.items[1].URL.Loc != "http://www.example.com/2" || r.items[1].URL.ChangeFreq != Daily {
				t.Errorf("%+v", r.items[1].URL)
			}
		}},
		"sitemap.index.xml": {FormatIndex, 15, []string{"X-04"}, func(t *testing.T, r decodeResult) {
			// <sitemap> holds bare text without <loc>: read, with X-04 each.
			if r.count("X-04") != 15 {
				t.Errorf("X-04 count %d", r.count("X-04"))
			}
			if e := r.items[1].Index; e.Loc != "https://example.com/sitemap.jss?portalCode=2&lang=en" {
				t.Errorf("%q", e.Loc)
			}
		}},
		"extension/hebdenbridgetimes-articles-sitemap.xml": {FormatURLSet, 74, []string{"LG-04", "X-06", "IM-03", "V-02", "V-03"}, func(t *testing.T, r decodeResult) {
			u := r.items[0].URL
			if u.Loc != "http://www.hebdenbridgetimes.co.uk/news/local/video-tour-de-yorkshire-in-calderdale-1-7242580" ||
				u.ChangeFreq != Daily || u.LastMod.String() != "2015-05-03T18:51:50+01:00" || len(u.Images) != 1 || len(u.Videos) != 1 {
				t.Fatalf("%+v", u)
			}
			v := u.Videos[0]
			if v.Title != "VIDEO - Tour de Yorkshire in Calderdale" || !strings.HasPrefix(v.Description, "<!--PSTYLE=WINT Web Intro--><p>Thousands") ||
				!strings.Contains(v.PlayerLoc, "&playerKey=AQ~~,") || v.Category != "Carousels" || len(v.Tags) != 2 {
				t.Errorf("%+v", v)
			}
			if u.Images[0].Caption != "Tour De Yorkshire passes through Nutclough, Hebden Bridge" {
				t.Errorf("%+v", u.Images[0])
			}
		}},
		"extension/pagemaps-sitemap.xml": {FormatURLSet, 2, nil, func(t *testing.T, r decodeResult) {
			if r.items[1].URL.Loc != "http://www.example.com/bar" || len(r.diags) != 0 {
				t.Errorf("%+v\n%s", r.items[1], r.dump())
			}
		}},
		"extension/shinpaideshou-news-sitemap.xml": {FormatURLSet, 3, nil, func(t *testing.T, r decodeResult) {
			n := r.items[0].URL.News
			if n == nil || n.Publication.Name != "What can I do with a B.A. in Japanese Studies?" || n.Publication.Language != "en" ||
				n.PublicationDate.String() != "2017-04-25T10:00:36+00:00" || n.Keywords != "political science, policy, research fellow, Johns Hopkins" {
				t.Errorf("%+v", n)
			}
		}},
		"extension/sitemap-images.xml": {FormatURLSet, 1, []string{"IM-03"}, func(t *testing.T, r decodeResult) {
			im := r.items[0].URL.Images
			if len(im) != 2 || im[1].Loc != "http://example.com/photo.jpg" || im[1].Caption != "This is the caption." ||
				im[1].GeoLocation != "Limerick, Ireland" || im[1].Title != "Example photo shot in Limerick, Ireland" ||
				im[1].License != "https://creativecommons.org/licenses/by/4.0/legalcode" {
				t.Errorf("%+v", im)
			}
		}},
		"extension/sitemap-links.xml": {FormatURLSet, 3, nil, func(t *testing.T, r decodeResult) {
			a := r.items[2].URL.Alternates
			if len(a) != 3 || a[1] != (Alternate{Hreflang: "de-ch", Href: "http://www.example.com/schweiz-deutsch/"}) {
				t.Errorf("%+v", a)
			}
		}},
		"extension/sitemap-mobile.xml": {FormatURLSet, 3, []string{"LG-04"}, nil},
		"extension/sitemap-news.xml": {FormatURLSet, 2, []string{"N-08"}, func(t *testing.T, r decodeResult) {
			n := r.items[0].URL.News
			if n.Genres != "PressRelease, Blog" || n.StockTickers != "NASDAQ:A, NASDAQ:B" || n.Access != "Subscription" || n.Title != "Companies A, B in Merger Talks" {
				t.Errorf("%+v", n)
			}
			if n2 := r.items[1].URL.News; n2.Publication.Name != "" || n2.Publication.Language != "en" {
				t.Errorf("%+v", n2)
			}
		}},
		"extension/sitemap-videos-tvshow.xml": {FormatURLSet, 1, []string{"X-06", "V-02", "V-03"}, func(t *testing.T, r decodeResult) {
			u := r.items[0].URL
			if u.Loc != "https://example.org/my-tv-show/23/13/" || len(u.Videos) != 1 || u.Videos[0].ThumbnailLoc != "https://example.org/my-tv-show.jpg" ||
				*u.Videos[0].Duration != 2459 || len(u.Videos[0].Tags) != 3 {
				t.Errorf("%+v", u)
			}
		}},
		"extension/sitemap-videos.xml": {FormatURLSet, 3, []string{"V-02"}, func(t *testing.T, r decodeResult) {
			v := r.items[0].URL.Videos[0]
			if v.PlayerLoc != "http://www.example.com/videoplayer.swf?video=123" || v.PlayerAllowEmbed != "yes" || v.PlayerAutoplay != "ap=1" ||
				v.GalleryLoc != "http://cooking.example.com" || len(v.Prices) != 1 || v.Prices[0] != (VideoPrice{Value: "1.99", Currency: "EUR"}) ||
				v.Uploader.Name != "GrillyMcGrillerson" || *v.Rating != 4.2 || v.Description != "Alkis shows you how to get perfectly done steaks every\n        time" {
				t.Errorf("%+v", v)
			}
			if p := r.items[1].URL.Videos[0].Prices; len(p) != 1 || p[0].Value != "1,99" {
				t.Errorf("%+v", p)
			}
			if p := r.items[2].URL.Videos[0].Prices; len(p) != 1 || p[0].Type != "rent" || p[0].Value != "" {
				t.Errorf("%+v", p)
			}
		}},
	}
	seen := 0
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || fi.Name() == "LICENSE" || fi.Name() == "PROVENANCE.md" {
			return err
		}
		rel := strings.TrimPrefix(path, dir)
		c, ok := cases[rel]
		if !ok {
			t.Errorf("corpus file %s has no expectation", rel)
			return nil
		}
		seen++
		t.Run(rel, func(t *testing.T) {
			r := decodeFile(t, path)
			if r.err != nil || r.format != c.format || len(r.items) != c.items {
				t.Fatalf("err %v format %v items %d, want %v %d\n%s", r.err, r.format, len(r.items), c.format, c.items, r.dump())
			}
			for _, w := range c.want {
				if !r.has(rules.ID(w)) {
					t.Errorf("missing %s:\n%s", w, r.dump())
				}
			}
			for _, it := range r.items {
				if it.Line <= 0 || it.Col <= 0 {
					t.Errorf("entry without position: %+v", it)
				}
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(cases) {
		t.Errorf("saw %d corpus files, expected %d", seen, len(cases))
	}
}
