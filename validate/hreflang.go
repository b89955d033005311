package validate

import (
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// alternates runs the per-<url> hreflang rules: H-05 (absolute href), H-06
// (well-formed code), H-08 (no repeated code, at most one x-default), H-03
// (the url lists itself), and remembers the group for H-04/H-08 at Finish.
func (c *Checker) alternates(u *sitemap.URL, line, col int) {
	alts := u.Alternates
	codes := make([]string, len(alts))
	self, xdefault := false, 0
	var set uint64
	refs := make([]altRef, 0, len(alts))
	for i := range alts {
		a := &alts[i]
		code := strings.ToLower(a.Hreflang)
		codes[i] = code
		c.value(line, col, "hreflang", a.Hreflang, check.Hreflang(a.Hreflang))
		if a.Href == "" {
			c.emit(line, col, rules.H05, sitemap.SeverityError, "<xhtml:link hreflang=%q> has no href", a.Hreflang)
		} else {
			c.extURL(rules.H05, "<xhtml:link href>", a.Href, true, line, col)
		}
		if code == "x-default" {
			xdefault++
			if xdefault == 2 {
				c.value(line, col, "hreflang", a.Hreflang, check.RepeatedHreflang(a.Hreflang))
			}
		} else {
			for _, prev := range codes[:i] {
				if prev == code {
					c.value(line, col, "hreflang", a.Hreflang, check.RepeatedHreflang(a.Hreflang))
					break
				}
			}
		}
		if a.Href == u.Loc {
			self = true
		}
		h := c.hash(a.Href)
		set += mix(c.hash(code) ^ h*0x9e3779b97f4a7c15)
		if a.Href != u.Loc {
			refs = append(refs, altRef{href: h, code: strings.Clone(a.Hreflang)})
		}
	}
	if !self {
		c.emit(line, col, rules.H03, sitemap.SeverityError,
			"<url> %q has hreflang alternates but does not list itself among them; each version lists every version, itself included", short(u.Loc))
	}
	if len(c.hl) >= maxTracked || u.Loc == "" {
		return
	}
	e := hrefEntry{loc: strings.Clone(u.Loc), line: line, col: col, self: c.hash(u.Loc), set: set, alts: refs}
	if _, dup := c.hlByLoc[e.self]; !dup {
		c.hlByLoc[e.self] = int32(len(c.hl))
	}
	c.hl = append(c.hl, e)
}

// mix is a 64-bit finaliser (splitmix64), so that summing per-pair hashes
// gives an order-independent set hash without xor's cancellation.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// reciprocity is H-04 (if A lists B, B lists A) and H-08 (every member of
// a group lists the same set), within this document. An alternate whose
// page is not listed in this document cannot be checked here (it may be in
// another sitemap of the index) and is left alone.
func (c *Checker) reciprocity() {
	for i := range c.hl {
		e := &c.hl[i]
		groupReported := false
		for _, a := range e.alts {
			j, ok := c.hlByLoc[a.href]
			if !ok {
				if c.seen.has(a.href) {
					c.emit(e.line, e.col, rules.H04, sitemap.SeverityError,
						"<url> %q names a hreflang %q alternate that this sitemap lists without any alternates, so it does not link back; Google ignores one-way annotations", short(e.loc), a.code)
				}
				continue
			}
			t := &c.hl[j]
			back := false
			for _, b := range t.alts {
				if b.href == e.self {
					back = true
					break
				}
			}
			if !back {
				c.emit(e.line, e.col, rules.H04, sitemap.SeverityError,
					"<url> %q names %q as its hreflang %q alternate, but that page's <url> (line %d) does not link back; Google ignores one-way annotations", short(e.loc), short(t.loc), a.code, t.line)
				continue
			}
			if t.set != e.set && !groupReported {
				groupReported = true
				c.emit(e.line, e.col, rules.H08, sitemap.SeverityError,
					"the hreflang alternates of %q differ from those of %q (line %d); every page of a group lists the same complete set", short(e.loc), short(t.loc), t.line)
			}
		}
	}
}
