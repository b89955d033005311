package robots

import (
	"strings"
	"time"
)

// Rule is one Allow or Disallow record. Pattern is the value as matched: raw
// non-ASCII bytes percent-encoded and %xx escapes in upper case (RFC 9309
// §2.2.2). '*' matches any run of bytes and a final '$' anchors the end.
type Rule struct {
	Allow   bool
	Pattern string
	Line    int

	lit      string // Pattern without a final '$'
	anchored bool   // Pattern ends in '$'
	wild     bool   // lit contains '*'
}

func compileRule(allow bool, pattern string, line int) Rule {
	r := Rule{Allow: allow, Pattern: pattern, Line: line, lit: pattern}
	if n := len(pattern); n > 0 && pattern[n-1] == '$' {
		r.anchored = true
		r.lit = pattern[:n-1]
	}
	r.wild = strings.IndexByte(r.lit, '*') >= 0
	return r
}

// Match reports whether the rule's pattern matches path (a URL path with
// query, starting with '/').
func (r *Rule) Match(path string) bool {
	if !r.wild {
		if r.anchored {
			return path == r.lit
		}
		return len(path) >= len(r.lit) && path[:len(r.lit)] == r.lit
	}
	return wildMatch(path, r.lit, r.anchored)
}

// Match reports whether a robots.txt path pattern matches path, with the
// RFC 9309 meaning of '*' and a final '$'. The pattern is percent-normalised
// first, as [Parse] does.
func Match(pattern, path string) bool {
	r := compileRule(false, escapePattern(pattern), 0)
	return r.Match(path)
}

// wildMatch matches pat (no final '$') against path. When anchored is false
// the pattern needs to match only a prefix of path. It is the classic
// backtracking glob matcher: one remembered star, no allocation, O(len(path)
// × len(pat)) in the worst case.
func wildMatch(path, pat string, anchored bool) bool {
	p, s := 0, 0
	starP, starS := -1, 0
	for {
		if !anchored && p == len(pat) {
			return true
		}
		if s == len(path) {
			break
		}
		if p < len(pat) {
			if c := pat[p]; c == '*' {
				starP, starS = p, s
				p++
				continue
			} else if c == path[s] {
				p++
				s++
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		s, p = starS, starP+1
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func upperHex(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - ('a' - 'A')
	}
	return c
}

const hexDigits = "0123456789ABCDEF"

// escapePattern percent-encodes bytes outside US-ASCII and upper-cases the
// hex digits of existing %xx escapes, as Google's MaybeEscapePattern. It
// returns v itself when nothing changes.
func escapePattern(v string) string { return normalise(v, true) }

// normalise is escapePattern; with escapeNonASCII false it only upper-cases
// %xx escapes (what is done to the URL being checked).
func normalise(v string, escapeNonASCII bool) string {
	need := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) {
			if upperHex(v[i+1]) != v[i+1] || upperHex(v[i+2]) != v[i+2] {
				need = true
				break
			}
			i += 2
		} else if c >= 0x80 && escapeNonASCII {
			need = true
			break
		}
	}
	if !need {
		return v
	}
	var b strings.Builder
	b.Grow(len(v) + 8)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			b.WriteByte('%')
			b.WriteByte(upperHex(v[i+1]))
			b.WriteByte(upperHex(v[i+2]))
			i += 2
		case c >= 0x80 && escapeNonASCII:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// PathOf returns the part of a URL that robots.txt rules match: path,
// parameters and query, without the fragment, starting with '/' (Google's
// GetPathParamsQuery). A bare path is returned as it is; "" gives "/".
// Lower-case %xx escapes are upper-cased. Raw non-ASCII bytes are left alone:
// pass URLs percent-encoded, as they are requested (for example
// url.URL.RequestURI).
func PathOf(rawURL string) string {
	u := rawURL
	searchStart := 0
	if len(u) >= 2 && u[0] == '/' && u[1] == '/' {
		searchStart = 2
	}
	earlyPath := indexAnyFrom(u, "/?;", searchStart)
	protoEnd := strings.Index(u[searchStart:], "://")
	if protoEnd >= 0 {
		protoEnd += searchStart
	}
	if earlyPath >= 0 && (protoEnd < 0 || earlyPath < protoEnd) {
		protoEnd = -1
	}
	if protoEnd < 0 {
		protoEnd = searchStart
	} else {
		protoEnd += 3
	}
	pathStart := indexAnyFrom(u, "/?;", protoEnd)
	if pathStart < 0 {
		return "/"
	}
	hash := strings.IndexByte(u[searchStart:], '#')
	if hash >= 0 {
		hash += searchStart
		if hash < pathStart {
			return "/"
		}
	}
	end := len(u)
	if hash >= 0 {
		end = hash
	}
	p := u[pathStart:end]
	if p[0] != '/' {
		p = "/" + p
	}
	return normalise(p, false)
}

func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return i + from
}

// agentMatch reports whether the group names the crawler userAgent. The
// crawler's name is compared as given, case-insensitively, with the product
// token of each user-agent line (Google: "Foo Bar" does not match a
// "User-agent: Foo" line; pass the product token, see [ProductToken]).
func (g *group) agentMatch(userAgent string) bool {
	if userAgent == "" {
		return false
	}
	for _, a := range g.agents {
		if strings.EqualFold(a, userAgent) {
			return true
		}
	}
	return false
}

// ProductToken returns the product token of a User-Agent header value, the
// name to pass to [File.Allowed]: "Googlebot/2.1 (+http://…)" → "Googlebot".
func ProductToken(userAgent string) string {
	return productToken([]byte(strings.TrimSpace(userAgent)))
}

// hasSpecific reports whether any group names userAgent.
func (f *File) hasSpecific(userAgent string) bool {
	for i := range f.groups {
		if f.groups[i].agentMatch(userAgent) {
			return true
		}
	}
	return false
}

// applies reports whether group g is one of the groups for the crawler:
// groups that name it when specific is true, else the "*" groups. All such
// groups are merged (RFC 9309 §2.2.1).
func (g *group) applies(userAgent string, specific bool) bool {
	if specific {
		return g.agentMatch(userAgent)
	}
	return g.global
}

// Allowed reports whether the crawler named userAgent (a product token such
// as "Googlebot", compared case-insensitively) may fetch urlOrPath, an
// absolute URL or a path. It follows RFC 9309 with Google's choices: the
// groups naming the crawler are merged and used alone, else the "*" groups;
// the longest matching pattern wins and Allow wins a tie; an empty Disallow
// allows everything; /robots.txt is always allowed. It does not allocate
// unless the URL needs normalising.
func (f *File) Allowed(userAgent, urlOrPath string) bool {
	path := PathOf(urlOrPath)
	if path == "/robots.txt" {
		return true
	}
	specific := f.hasSpecific(userAgent)
	allow, disallow := -1, -1
	for i := range f.groups {
		g := &f.groups[i]
		if !g.applies(userAgent, specific) {
			continue
		}
		scoreRules(g.rules, path, &allow, &disallow)
	}
	return verdict(allow, disallow)
}

func scoreRules(rules []Rule, path string, allow, disallow *int) {
	for j := range rules {
		r := &rules[j]
		n := len(r.Pattern)
		if r.Allow {
			if n > *allow && r.Match(path) {
				*allow = n
			}
		} else if n > *disallow && r.Match(path) {
			*disallow = n
		}
	}
}

// verdict turns the longest allow and disallow match lengths (-1: none) into
// a decision. Zero-length matches (empty values) decide nothing.
func verdict(allow, disallow int) bool {
	if allow <= 0 && disallow <= 0 {
		return true
	}
	return disallow <= allow
}

// Group is the merged set of records that applies to one crawler.
type Group struct {
	// Agent is the crawler name the group was selected for, or "*" when the
	// crawler is not named and the global groups apply.
	Agent string
	// Lines are the line numbers of the user-agent lines that opened the
	// merged groups, in file order.
	Lines []int
	// Rules are the Allow and Disallow records of the merged groups in file
	// order (Google's extra ".../$" rule for an allowed index.html included).
	Rules []Rule
	// CrawlDelay is the largest Crawl-delay of the merged groups. Google
	// ignores Crawl-delay; the crawler honours it.
	CrawlDelay    time.Duration
	HasCrawlDelay bool
}

// Allowed reports whether the group allows urlOrPath; see [File.Allowed].
func (g *Group) Allowed(urlOrPath string) bool {
	path := PathOf(urlOrPath)
	if path == "/robots.txt" {
		return true
	}
	allow, disallow := -1, -1
	scoreRules(g.Rules, path, &allow, &disallow)
	return verdict(allow, disallow)
}

// Group returns the merged records that apply to the crawler userAgent. Use
// it to check many URLs for one crawler. A crawler with no group gets an
// empty Group that allows everything.
func (f *File) Group(userAgent string) Group {
	specific := f.hasSpecific(userAgent)
	out := Group{Agent: "*"}
	if specific {
		out.Agent = userAgent
	}
	for i := range f.groups {
		g := &f.groups[i]
		if !g.applies(userAgent, specific) {
			continue
		}
		out.Lines = append(out.Lines, g.line)
		out.Rules = append(out.Rules, g.rules...)
		if g.hasDelay && (!out.HasCrawlDelay || g.crawlDelay > out.CrawlDelay) {
			out.CrawlDelay, out.HasCrawlDelay = g.crawlDelay, true
		}
	}
	return out
}

// CrawlDelay returns the Crawl-delay for the crawler: the largest value in
// the groups that apply to it, and whether there is one.
func (f *File) CrawlDelay(userAgent string) (time.Duration, bool) {
	specific := f.hasSpecific(userAgent)
	var d time.Duration
	ok := false
	for i := range f.groups {
		g := &f.groups[i]
		if g.applies(userAgent, specific) && g.hasDelay && (!ok || g.crawlDelay > d) {
			d, ok = g.crawlDelay, true
		}
	}
	return d, ok
}
