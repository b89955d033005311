package generate

import (
	"slices"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// What Run repairs so that a page is kept: URLs written in their normal
// form (L-18), a lastmod in the future dropped (M-07), a field or
// extension block the encoder refuses dropped (V-01, N-01, H-06, P-01, …),
// deprecated tags the encoder leaves out without Legacy (IM-04, V-04, N-09),
// and what the source repaired while reading (a number written as a
// string, a field of the wrong type). Each repair is reported, and counted
// in Summary.Repairs; under Options.Strict the first one ends the run
// instead.

// LastModSkew is how far in the future a lastmod may be before Run drops
// it (M-07): one day, the clock skew package validate allows too, so a
// date written in a time zone ahead of the run's is kept.
const LastModSkew = 24 * time.Hour

// Repair counts one kind of repair made to entries that were published.
type Repair struct {
	// Rule is the rule the value broke ("V-01"), or L-18 for a URL
	// written in its normal form.
	Rule rules.ID `json:"rule"`
	// Action is "dropped" (the field or block was left out),
	// "normalized" (the URL was rewritten) or "fixed" (the value was read
	// in a corrected form, such as a number written as a string).
	Action string `json:"action"`
	// Field is the entry record's field: "lastmod", "priority", "videos",
	// "news", "alternates", "loc", "images.loc"…
	Field string `json:"field"`
	// Count is the number of such repairs.
	Count int `json:"count"`
}

type repairKey struct {
	rule          rules.ID
	action, field string
}

// repaired counts one repair.
func (r *run) repaired(rule rules.ID, action, field string) {
	if r.repairs == nil {
		r.repairs = make(map[repairKey]int)
	}
	r.repairs[repairKey{rule, action, fieldKind(field)}]++
}

// repairList is r.repairs in order: by action, then rule, then field.
func (r *run) repairList() []Repair {
	if len(r.repairs) == 0 {
		return nil
	}
	out := make([]Repair, 0, len(r.repairs))
	for k, n := range r.repairs {
		out = append(out, Repair{Rule: k.rule, Action: k.action, Field: k.field, Count: n})
	}
	slices.SortFunc(out, func(a, b Repair) int {
		if c := strings.Compare(a.Action, b.Action); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.Rule), string(b.Rule)); c != 0 {
			return c
		}
		return strings.Compare(a.Field, b.Field)
	})
	return out
}

// fieldKind is a field path without its indexes: "videos[1]" is
// "videos", "images[0].loc" "images.loc".
func fieldKind(f string) string {
	var b strings.Builder
	skip := false
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c == '[':
			skip = true
		case c == ']':
			skip = false
		case !skip:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// normalized is one URL of an entry that Run rewrote in its normal form.
type normalized struct {
	field, from, to string
	changes         urlnorm.Changes
}

// normalize writes the URLs of u in their normal form (urlnorm.Normalize):
// the loc, the image locs, the video thumbnail, content and player locs,
// and the alternates' hrefs. A URL that cannot be normalised is left as
// it is, for the encoder to refuse with its reason. Slices of u are
// copied before they are changed. It returns what it changed; nothing
// (and no allocation) when every URL is already normal.
func normalize(u *sitemap.URL, out []normalized) []normalized {
	one := func(field string, s *string) {
		if *s == "" {
			return
		}
		n, ch, err := urlnorm.Normalize(*s)
		if err != nil || ch == 0 {
			return
		}
		out = append(out, normalized{field: field, from: *s, to: n, changes: ch})
		*s = n
	}
	one("loc", &u.Loc)
	copied := false
	for i := range u.Images {
		if n, ch, err := urlnorm.Normalize(u.Images[i].Loc); err == nil && ch != 0 {
			if !copied {
				u.Images, copied = slices.Clone(u.Images), true
			}
			out = append(out, normalized{field: "images[" + strconv.Itoa(i) + "].loc", from: u.Images[i].Loc, to: n, changes: ch})
			u.Images[i].Loc = n
		}
	}
	copied = false
	for i := range u.Videos {
		v := u.Videos[i]
		var changed []normalized
		for _, f := range [...]struct {
			name string
			s    *string
		}{{"thumbnail_loc", &v.ThumbnailLoc}, {"content_loc", &v.ContentLoc}, {"player_loc", &v.PlayerLoc}} {
			if *f.s == "" {
				continue
			}
			if n, ch, err := urlnorm.Normalize(*f.s); err == nil && ch != 0 {
				changed = append(changed, normalized{field: "videos[" + strconv.Itoa(i) + "]." + f.name, from: *f.s, to: n, changes: ch})
				*f.s = n
			}
		}
		if len(changed) > 0 {
			if !copied {
				u.Videos, copied = slices.Clone(u.Videos), true
			}
			u.Videos[i] = v
			out = append(out, changed...)
		}
	}
	copied = false
	for i := range u.Alternates {
		if n, ch, err := urlnorm.Normalize(u.Alternates[i].Href); err == nil && ch != 0 && u.Alternates[i].Href != "" {
			if !copied {
				u.Alternates, copied = slices.Clone(u.Alternates), true
			}
			out = append(out, normalized{field: "alternates[" + strconv.Itoa(i) + "].href", from: u.Alternates[i].Href, to: n, changes: ch})
			u.Alternates[i].Href = n
		}
	}
	return out
}

// futureLastMod reports whether d is later than now plus LastModSkew.
func futureLastMod(d sitemap.Date, now time.Time) bool {
	return !d.IsZero() && d.Time.After(now.Add(LastModSkew))
}

// reportNormalized reports, at info level, each URL of it the reader
// wrote in its normal form, and counts it.
func (r *run) reportNormalized(it *Item, norm []normalized) {
	for _, n := range norm {
		r.repaired(rules.L18, "normalized", n.field)
		r.report(at(Problem{Severity: sitemap.SeverityInfo, Rule: rules.L18,
			Message: n.field + " " + strconv.Quote(n.from) + " written as " + strconv.Quote(n.to) + " (" + n.changes.String() + "; L-18)"}, it, it.URL.Loc))
	}
}

// fixedField is the field a source's "fixed" warning is about: the first
// word of its message ("priority is the JSON string …").
func fixedField(msg string) string {
	f, _, _ := strings.Cut(msg, " ")
	return f
}
