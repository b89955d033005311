package generate

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// Relative URLs (L-19): an entry list names a site's pages as its links
// do, "/contact" or "../a", and such a URL is resolved against the site
// URL (Build.SiteURL, else Build.BaseURL) before anything else looks at
// it, as a browser resolves a link. Each is reported at info level and
// counted in Summary.Repairs ("resolved"); under Options.Strict the
// entry is refused instead. Without a base, or for a reference whose
// first segment has a dot ("www.example.com/a", which is a host written
// without its scheme far more often than a path), the URL is left for the
// encoder to refuse (L-01).

// relativeBase is the URL relative references resolve against: SiteURL,
// else BaseURL; nil when neither is an absolute http(s) URL.
func relativeBase(b string, site string) *url.URL {
	for _, s := range []string{site, b} {
		if s == "" {
			continue
		}
		u, err := url.Parse(s)
		if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return u
		}
	}
	return nil
}

// isRelative reports whether s is a relative reference generate resolves:
// one without a scheme that starts with '/', '.' or '?', or whose first
// path segment has no dot, colon or space ("contact", "blog/post").
func isRelative(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '/', '.', '?':
		return true
	}
	seg := s
	if i := strings.IndexAny(seg, "/?#"); i >= 0 {
		seg = seg[:i]
	}
	// A scheme ("https:", "mailto:") or a port ("host:80") is not a path;
	// nor a segment with a dot, a host without its scheme more often than
	// not; nor words with spaces ("not a url").
	return !strings.ContainsAny(seg, ":. \t")
}

// resolve resolves s against base when it is relative (isRelative); ok
// is false when it is left as it is.
func resolve(base *url.URL, s string) (string, bool) {
	if base == nil || !isRelative(s) {
		return s, false
	}
	ref, err := url.Parse(s)
	if err != nil || ref.Scheme != "" {
		return s, false
	}
	return base.ResolveReference(ref).String(), true
}

// resolveRelative resolves the relative URLs of u against base (see
// resolve): the loc, the image locs, the video thumbnail, content and
// player locs, and the alternates' hrefs. Slices of u are copied before
// they change. It returns what it resolved, nil (without allocating)
// when nothing was relative.
func resolveRelative(u *sitemap.URL, base *url.URL) []normalized {
	if base == nil {
		return nil
	}
	var out []normalized
	one := func(field string, s *string) bool {
		to, ok := resolve(base, *s)
		if ok {
			out = append(out, normalized{field: field, from: *s, to: to})
			*s = to
		}
		return ok
	}
	one("loc", &u.Loc)
	copied := false
	for i := range u.Images {
		if to, ok := resolve(base, u.Images[i].Loc); ok {
			if !copied {
				u.Images, copied = slices.Clone(u.Images), true
			}
			out = append(out, normalized{field: "images[" + strconv.Itoa(i) + "].loc", from: u.Images[i].Loc, to: to})
			u.Images[i].Loc = to
		}
	}
	copied = false
	for i := range u.Videos {
		v := u.Videos[i]
		n := len(out)
		one("videos["+strconv.Itoa(i)+"].thumbnail_loc", &v.ThumbnailLoc)
		one("videos["+strconv.Itoa(i)+"].content_loc", &v.ContentLoc)
		one("videos["+strconv.Itoa(i)+"].player_loc", &v.PlayerLoc)
		if len(out) > n {
			if !copied {
				u.Videos, copied = slices.Clone(u.Videos), true
			}
			u.Videos[i] = v
		}
	}
	copied = false
	for i := range u.Alternates {
		if to, ok := resolve(base, u.Alternates[i].Href); ok {
			if !copied {
				u.Alternates, copied = slices.Clone(u.Alternates), true
			}
			out = append(out, normalized{field: "alternates[" + strconv.Itoa(i) + "].href", from: u.Alternates[i].Href, to: to})
			u.Alternates[i].Href = to
		}
	}
	return out
}

// reportResolved reports, at info level, each relative URL of it the
// reader resolved (L-19), and counts it; under Strict the entry is
// refused at the first one.
func (r *run) reportResolved(it *Item, rel []normalized) error {
	for _, n := range rel {
		if r.o.Strict {
			return r.invalidEntry(at(Problem{Severity: sitemap.SeverityError, Rule: rules.L19,
				Message: n.field + " " + strconv.Quote(n.from) + " is a relative URL (strict refuses resolving it against the site URL); write " + strconv.Quote(n.to) + " (L-19)"}, it, n.to))
		}
		r.repaired(rules.L19, "resolved", n.field)
		r.report(at(Problem{Severity: sitemap.SeverityInfo, Rule: rules.L19,
			Message: n.field + " " + strconv.Quote(n.from) + " is relative; resolved against the site URL as " + strconv.Quote(n.to) + " (L-19)"}, it, it.URL.Loc))
	}
	return nil
}
