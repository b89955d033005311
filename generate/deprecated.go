package generate

import (
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// deprecatedDrop is one kind of deprecated tag an entry holds that the
// encoder leaves out without Legacy: the rule, the entry record's field
// path and how many times the entry has it.
type deprecatedDrop struct {
	rule  rules.ID
	field string
	n     int
}

// deprecatedFields lists the deprecated tags u holds that are not written
// without Options.Build.Legacy: image caption, geo_location, title and
// license (IM-03, left out by IM-04), video category, gallery_loc, price
// and the player_loc attributes (V-02, V-04), news access, genres,
// keywords and stock_tickers (N-09). nil for an entry with none (the
// usual case, checked without allocating).
func deprecatedFields(u *sitemap.URL) []deprecatedDrop {
	if len(u.Images) == 0 && len(u.Videos) == 0 && u.News == nil {
		return nil
	}
	var out []deprecatedDrop
	add := func(rule rules.ID, field string, has bool) {
		if !has {
			return
		}
		for i := range out {
			if out[i].field == field {
				out[i].n++
				return
			}
		}
		out = append(out, deprecatedDrop{rule, field, 1})
	}
	for i := range u.Images {
		im := &u.Images[i]
		add(rules.IM04, "images.caption", im.Caption != "")
		add(rules.IM04, "images.geo_location", im.GeoLocation != "")
		add(rules.IM04, "images.title", im.Title != "")
		add(rules.IM04, "images.license", im.License != "")
	}
	for i := range u.Videos {
		v := &u.Videos[i]
		add(rules.V04, "videos.category", v.Category != "")
		add(rules.V04, "videos.gallery_loc", v.GalleryLoc != "")
		add(rules.V04, "videos.prices", len(v.Prices) > 0)
		add(rules.V04, "videos.player_allow_embed", v.PlayerAllowEmbed != "")
		add(rules.V04, "videos.player_autoplay", v.PlayerAutoplay != "")
	}
	if n := u.News; n != nil {
		add(rules.N09, "news.access", n.Access != "")
		add(rules.N09, "news.genres", n.Genres != "")
		add(rules.N09, "news.keywords", n.Keywords != "")
		add(rules.N09, "news.stock_tickers", n.StockTickers != "")
	}
	return out
}

// deprecatedWhy is what each rule's drop says: why the tag is left out.
var deprecatedWhy = map[rules.ID]string{
	rules.IM04: "deprecated image tags, no effect since August 2022 (IM-03)",
	rules.V04:  "deprecated video tags (V-02)",
	rules.N09:  "news tags Google no longer documents (N-08)",
}

// reportDeprecated reports and counts, per rule, the deprecated tags of
// a published entry that were left out (a warning each, as other drops).
func (r *run) reportDeprecated(it *Item, loc string, drops []deprecatedDrop) {
	for _, rule := range [...]rules.ID{rules.IM04, rules.V04, rules.N09} {
		var fields []string
		for _, d := range drops {
			if d.rule != rule {
				continue
			}
			fields = append(fields, d.field)
			for range d.n {
				r.repaired(d.rule, "dropped", d.field)
			}
		}
		if len(fields) == 0 {
			continue
		}
		r.report(at(Problem{Severity: sitemap.SeverityWarning, Rule: rule,
			Message: strings.Join(fields, ", ") + ": " + deprecatedWhy[rule] + "; dropped, the page kept; --legacy writes them (" + string(rule) + ")"}, it, loc))
	}
}
