package validate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

const page = "https://www.example.com/v"

func goodVideo() sitemap.Video {
	return sitemap.Video{
		ThumbnailLoc: "https://www.example.com/t.jpg",
		Title:        "T",
		Description:  "D",
		ContentLoc:   "https://cdn.example.com/v.mp4",
	}
}

func TestImageRules(t *testing.T) {
	many := make([]sitemap.Image, sitemap.MaxImagesPerURL+1)
	for i := range many {
		many[i].Loc = fmt.Sprintf("https://cdn.example.com/%d.jpg", i)
	}
	tests := []struct {
		name   string
		images []sitemap.Image
		want   []string
	}{
		{"ok", []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}}, nil},
		{"IM-02 too many", many, []string{"IM-02/error"}},
		{"IM-02 exactly 1000", many[:1000], nil},
		{"IM-01 relative", []sitemap.Image{{Loc: "/a.jpg"}}, []string{"IM-01/error"}},
		{"IM-01 missing", []sitemap.Image{{}}, []string{"IM-01/error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ruleList(run(t, Options{}, sitemap.URL{Loc: page, Images: tt.images}))
			if !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestVideoRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(v *sitemap.Video)
		want []string
	}{
		{"ok", func(v *sitemap.Video) {}, nil},
		{"V-01 no thumbnail", func(v *sitemap.Video) { v.ThumbnailLoc = "" }, []string{"V-01/error"}},
		{"V-01 no title", func(v *sitemap.Video) { v.Title = " " }, []string{"V-01/error"}},
		{"V-01 no description", func(v *sitemap.Video) { v.Description = "" }, []string{"V-01/error"}},
		{"V-01 no content or player (novideoloc.xml)", func(v *sitemap.Video) { v.ContentLoc = "" }, []string{"V-01/error"}},
		{"player only", func(v *sitemap.Video) { v.ContentLoc = ""; v.PlayerLoc = "https://www.example.com/p" }, nil},
		{"V-06 content_loc == loc", func(v *sitemap.Video) { v.ContentLoc = page }, []string{"V-06/error"}},
		{"V-06 player_loc == loc", func(v *sitemap.Video) { v.PlayerLoc = page }, []string{"V-06/error"}},
		{"V-01 duration 0", func(v *sitemap.Video) { v.Duration = sitemap.Int(0) }, []string{"V-01/error"}},
		{"duration 1", func(v *sitemap.Video) { v.Duration = sitemap.Int(1) }, nil},
		{"duration 28800", func(v *sitemap.Video) { v.Duration = sitemap.Int(28800) }, nil},
		{"V-01 duration 28801", func(v *sitemap.Video) { v.Duration = sitemap.Int(28801) }, []string{"V-01/error"}},
		{"V-01 rating 5.1", func(v *sitemap.Video) { v.Rating = sitemap.Float64(5.1) }, []string{"V-01/error"}},
		{"V-01 rating -1", func(v *sitemap.Video) { v.Rating = sitemap.Float64(-1) }, []string{"V-01/error"}},
		{"rating 5", func(v *sitemap.Video) { v.Rating = sitemap.Float64(5) }, nil},
		{"description 2048 runes", func(v *sitemap.Video) { v.Description = strings.Repeat("é", 2048) }, nil},
		{"V-01 description 2049 runes", func(v *sitemap.Video) { v.Description = strings.Repeat("é", 2049) }, []string{"V-01/error"}},
		{"32 tags", func(v *sitemap.Video) { v.Tags = make([]string, 32) }, nil},
		{"V-06 33 tags", func(v *sitemap.Video) { v.Tags = make([]string, 33) }, []string{"V-06/error"}},
		{"restriction ok", func(v *sitemap.Video) {
			v.Restriction = &sitemap.Restriction{Relationship: sitemap.Allow, Countries: "IE GB US"}
		}, nil},
		{"V-01 restriction codes", func(v *sitemap.Video) {
			v.Restriction = &sitemap.Restriction{Relationship: sitemap.Deny, Countries: "ie gb"}
		}, []string{"V-01/error"}},
		{"V-01 restriction relationship", func(v *sitemap.Video) { v.Restriction = &sitemap.Restriction{Relationship: "maybe", Countries: "IE"} }, []string{"V-01/error"}},
		{"platform ok", func(v *sitemap.Video) {
			v.Platform = &sitemap.Platform{Relationship: sitemap.Allow, Platforms: "web tv"}
		}, nil},
		{"V-01 platform value", func(v *sitemap.Video) {
			v.Platform = &sitemap.Platform{Relationship: sitemap.Allow, Platforms: "web desktop"}
		}, []string{"V-01/error"}},
		{"uploader same domain", func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "G", Info: "https://users.example.com/g"}
		}, nil},
		{"V-06 uploader other domain", func(v *sitemap.Video) {
			v.Uploader = &sitemap.Uploader{Name: "G", Info: "https://www.example.org/g"}
		}, []string{"V-06/error"}},
		{"V-01 uploader name too long", func(v *sitemap.Video) { v.Uploader = &sitemap.Uploader{Name: strings.Repeat("x", 256)} }, []string{"V-01/error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := goodVideo()
			tt.edit(&v)
			got := ruleList(run(t, Options{}, sitemap.URL{Loc: page, Videos: []sitemap.Video{v}}))
			if !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewsRules(t *testing.T) {
	fresh := func() *sitemap.News {
		return &sitemap.News{
			Publication:     sitemap.Publication{Name: "The Daily", Language: "en"},
			PublicationDate: sitemap.DateOf(testNow.Add(-3 * time.Hour)),
			Title:           "Headline",
		}
	}
	tests := []struct {
		name string
		edit func(n *sitemap.News)
		want []string
	}{
		{"ok", func(n *sitemap.News) {}, nil},
		{"zh-cn", func(n *sitemap.News) { n.Publication.Language = "zh-cn" }, nil},
		{"three letters", func(n *sitemap.News) { n.Publication.Language = "haw" }, nil},
		{"N-03 pt-br", func(n *sitemap.News) { n.Publication.Language = "pt-br" }, []string{"N-03/error"}},
		{"N-03 upper case", func(n *sitemap.News) { n.Publication.Language = "EN" }, []string{"N-03/error"}},
		{"N-01 no language", func(n *sitemap.News) { n.Publication.Language = "" }, []string{"N-01/error"}},
		{"N-01 no name", func(n *sitemap.News) { n.Publication.Name = "" }, []string{"N-01/error"}},
		{"N-01 no title", func(n *sitemap.News) { n.Title = "" }, []string{"N-01/error"}},
		{"N-01 no date", func(n *sitemap.News) { n.PublicationDate = sitemap.Date{} }, []string{"N-01/error"}},
		{"47 hours", func(n *sitemap.News) { n.PublicationDate = sitemap.DateOf(testNow.Add(-47 * time.Hour)) }, nil},
		{"N-06 49 hours", func(n *sitemap.News) { n.PublicationDate = sitemap.DateOf(testNow.Add(-49 * time.Hour)) }, []string{"N-06/warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := fresh()
			tt.edit(n)
			got := ruleList(run(t, Options{}, sitemap.URL{Loc: "https://www.example.com/n", News: n}))
			if !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewsCountN10(t *testing.T) {
	var us []sitemap.URL
	for i := 0; i <= sitemap.MaxNewsPerSitemap; i++ {
		us = append(us, sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/n%d", i), News: &sitemap.News{
			Publication: sitemap.Publication{Name: "D", Language: "en"}, PublicationDate: sitemap.DateOf(testNow), Title: "T"}})
	}
	if got := ruleList(run(t, Options{}, us...)); !same(got, []string{"N-10/warning"}) {
		t.Errorf("1001 news: %v", got)
	}
	if got := ruleList(run(t, Options{}, us[:1000]...)); got != nil {
		t.Errorf("1000 news: %v", got)
	}
}

func alt(code, href string) sitemap.Alternate { return sitemap.Alternate{Hreflang: code, Href: href} }

func TestHreflangRules(t *testing.T) {
	const en, de, fr = "https://www.example.com/en", "https://www.example.com/de", "https://www.example.com/fr"
	full := []sitemap.Alternate{alt("en", en), alt("de", de), alt("x-default", en)}
	tests := []struct {
		name string
		urls []sitemap.URL
		want []string
	}{
		{"complete reciprocal group", []sitemap.URL{
			{Loc: en, Alternates: full}, {Loc: de, Alternates: full}}, nil},
		{"alternate outside this file is not checked", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("fr", "https://www.example.fr/")}}}, nil},
		{"H-03 does not list itself", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("de", de)}}}, []string{"H-03/error"}},
		{"H-06 region alone", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("GB", "https://www.example.co.uk/")}}}, []string{"H-06/error"}},
		{"H-05 relative href", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("de", "/de")}}}, []string{"H-05/error"}},
		{"H-08 repeated code", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("EN", "https://www.example.com/en2")}}}, []string{"H-08/error"}},
		{"H-08 two x-default", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("x-default", en), alt("x-default", de)}}}, []string{"H-08/error"}},
		{"H-04 not reciprocal", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("de", de)}},
			{Loc: de, Alternates: []sitemap.Alternate{alt("de", de), alt("fr", fr)}},
			{Loc: fr, Alternates: []sitemap.Alternate{alt("fr", fr), alt("de", de)}},
		}, []string{"H-04/error"}},
		{"H-04 target without alternates", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("de", de)}},
			{Loc: de},
		}, []string{"H-04/error"}},
		{"H-08 incomplete group", []sitemap.URL{
			{Loc: en, Alternates: []sitemap.Alternate{alt("en", en), alt("de", de), alt("fr", fr)}},
			{Loc: de, Alternates: []sitemap.Alternate{alt("en", en), alt("de", de)}},
			{Loc: fr, Alternates: []sitemap.Alternate{alt("en", en), alt("de", de), alt("fr", fr)}},
		}, []string{"H-08/error", "H-08/error", "H-04/error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := run(t, Options{}, tt.urls...)
			if got := ruleList(ds); !same(got, tt.want) {
				for _, d := range ds {
					t.Log(d)
				}
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
