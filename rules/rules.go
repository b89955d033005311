// Package rules is the project's rule book: every rule ID a diagnostic,
// an entry error or a report of this module can carry, with its default
// severity, a one-line statement, where it comes from, a link and how to
// fix a finding.
//
// Two kinds of IDs live here. The protocol rules (X-06, L-07, M-07, I-05,
// H-03, …) restate, in the project's own words, what the Sitemaps protocol
// (sitemaps.org), the sitemap XSDs, Google Search Central, Bing, IndexNow,
// RFC 9309 and W3C NOTE-datetime require, plus the decisions this project
// takes where those sources leave a choice. The project rules (XML-01,
// LIM-02, GZ-01, READ-01, VAL-01, FETCH-HTTP, DIFF-01, …) name problems the
// protocol has no number for: malformed XML, reader limits, transport
// errors.
//
// The book is data compiled into the program: [Lookup] is a map lookup
// that does not allocate (the index is built once, on the first call),
// [All] returns the rules in their natural order
// (family by family, in the order of [Families], each family by number).
// The command line shows the same book with `sitemap rules` and
// `sitemap explain ID`, and docs/RULES.md is generated from it.
package rules

//go:generate go run ./internal/genids

import (
	"slices"
	"strings"
	"sync"
)

// ID is a rule ID as diagnostics print it: a family prefix, '-', and a
// two-digit number ("X-06") or a word ("FETCH-HTTP"). Every rule of the
// book has a constant (ids.go, generated from the book by go generate):
// [L07] is "L-07", [FetchHTTP] is "FETCH-HTTP". Code reports a rule by its
// constant, so that go-to-definition leads to the rule's statement; an ID
// read from a person goes through [Normalize] and [Known].
type ID string

// Family returns the ID's prefix before the first '-': "L" for L-07,
// "FETCH" for FETCH-HTTP.
func (id ID) Family() string { return family(id) }

// Requirement levels, with their RFC 2119 meanings. A rule that only
// describes how things are (Google ignores <priority>) has no level ("").
const (
	Must      = "MUST"
	MustNot   = "MUST NOT"
	Should    = "SHOULD"
	ShouldNot = "SHOULD NOT"
	May       = "MAY"
)

// Rule is one entry of the rule book.
type Rule struct {
	// ID is what diagnostics print: a family prefix, '-', and a two-digit
	// number or a word (FETCH-HTTP).
	ID ID `json:"id"`
	// Severity is what the project reports by default for a finding under
	// the rule. Where the code reports one ID at several severities (a
	// parser's warning the validator turns into an error, say) it is the
	// usual one. For a rule no code checks, it is what a finding would be:
	// an error for what a document must do, a warning for what it should,
	// info for descriptions and for rules about the toolkit's own
	// behaviour.
	Severity Severity `json:"severity"`
	// Level is MUST, MUST NOT, SHOULD, SHOULD NOT, MAY, or "" for a rule
	// that describes rather than requires.
	Level string `json:"level,omitempty"`
	// Title states the rule in one line.
	Title string `json:"title"`
	// Source says who sets the rule: "sitemaps.org protocol", "sitemap
	// XSD", "Google Search Central", "Bing", "IndexNow", "RFC 9309", "W3C
	// NOTE-datetime", or "this project" with the reason.
	Source string `json:"source"`
	// URL is where to read the source; "" when there is no public page
	// (the project's own decisions).
	URL string `json:"url,omitempty"`
	// Fix says what to do about a finding, in a sentence or two.
	Fix string `json:"fix"`
}

// Family returns the ID's prefix before the first '-': "L" for L-07,
// "FETCH" for FETCH-HTTP.
func (r Rule) Family() string { return family(r.ID) }

func family(id ID) string {
	if i := strings.IndexByte(string(id), '-'); i >= 0 {
		return string(id[:i])
	}
	return string(id)
}

// Family is a group of rules sharing an ID prefix.
type Family struct {
	Prefix string `json:"prefix"` // "L", "FETCH"
	Name   string `json:"name"`   // what the family is about
	// Project is true for the project's own families (XML, LIM, GZ, READ,
	// VAL, FETCH, DIFF, SRC, AUD), false for the protocol's.
	Project bool `json:"project"`
	rules   []Rule
}

// families is the book, family by family, in natural order.
var families = []Family{
	{Prefix: "F", Name: "Formats", rules: formatRules},
	{Prefix: "X", Name: "XML sitemap structure", rules: structureRules},
	{Prefix: "L", Name: "<loc>", rules: locRules},
	{Prefix: "M", Name: "<lastmod>", rules: lastmodRules},
	{Prefix: "C", Name: "<changefreq>", rules: changefreqRules},
	{Prefix: "P", Name: "<priority>", rules: priorityRules},
	{Prefix: "E", Name: "Escaping and characters", rules: escapeRules},
	{Prefix: "S", Name: "Size and count limits", rules: sizeRules},
	{Prefix: "I", Name: "Sitemap index", rules: indexRules},
	{Prefix: "O", Name: "Location, scope and cross-submission", rules: locationRules},
	{Prefix: "T", Name: "Text sitemaps", rules: textRules},
	{Prefix: "R", Name: "RSS and Atom feeds", rules: feedRules},
	{Prefix: "D", Name: "W3C Datetime", rules: dateRules},
	{Prefix: "EX", Name: "Extensions", rules: extensionRules},
	{Prefix: "IM", Name: "Image extension", rules: imageRules},
	{Prefix: "V", Name: "Video extension", rules: videoRules},
	{Prefix: "N", Name: "News extension", rules: newsRules},
	{Prefix: "H", Name: "hreflang alternates", rules: hreflangRules},
	{Prefix: "G", Name: "Google's behaviour", rules: googleRules},
	{Prefix: "RB", Name: "robots.txt Sitemap lines", rules: robotsRules},
	{Prefix: "SB", Name: "Submission by ping (retired)", rules: submitRules},
	{Prefix: "IN", Name: "IndexNow", rules: indexNowRules},
	{Prefix: "LG", Name: "Legacy namespaces", rules: legacyRules},
	{Prefix: "XML", Name: "XML well-formedness", Project: true, rules: xmlRules},
	{Prefix: "LIM", Name: "Reader limits", Project: true, rules: limitRules},
	{Prefix: "GZ", Name: "gzip", Project: true, rules: gzipRules},
	{Prefix: "READ", Name: "Reading input", Project: true, rules: readRules},
	{Prefix: "VAL", Name: "An index's children", Project: true, rules: valRules},
	{Prefix: "FETCH", Name: "Fetching a site's sitemaps", Project: true, rules: fetchRules},
	{Prefix: "DIFF", Name: "Comparing sitemaps", Project: true, rules: diffRules},
	{Prefix: "SRC", Name: "Entry records generate and serve read", Project: true, rules: sourceRules},
	{Prefix: "AUD", Name: "Auditing sitemaps against the live site", Project: true, rules: auditRules},
}

// byID indexes the book; built on the first Lookup, never changed after.
var byID = sync.OnceValue(func() map[ID]*Rule {
	m := make(map[ID]*Rule, 256)
	for fi := range families {
		rs := families[fi].rules
		for i := range rs {
			m[rs[i].ID] = &rs[i]
		}
	}
	return m
})

// Lookup returns the rule with the ID id, exactly as diagnostics print it
// ("L-07", not "l-7"; see [Suggest] for near misses). It does not allocate.
func Lookup(id ID) (Rule, bool) {
	r, ok := byID()[id]
	if !ok {
		return Rule{}, false
	}
	return *r, true
}

// Known reports whether id is in the book.
func Known(id ID) bool {
	_, ok := byID()[id]
	return ok
}

// All returns every rule in natural order: family by family in the order
// of [Families], each family by number (the word-named FETCH rules in the
// book's order). The slice is the caller's to keep or change.
func All() []Rule {
	n := 0
	for _, f := range families {
		n += len(f.rules)
	}
	out := make([]Rule, 0, n)
	for _, f := range families {
		out = append(out, f.rules...)
	}
	return out
}

// Families returns the families in natural order. Their rules are
// [Family.Rules].
func Families() []Family { return slices.Clone(families) }

// FamilyOf returns the family with the prefix p ("L", "FETCH"), false when
// there is none.
func FamilyOf(p string) (Family, bool) {
	for _, f := range families {
		if f.Prefix == p {
			return f, true
		}
	}
	return Family{}, false
}

// Rules returns the family's rules in natural order; the slice is the
// caller's.
func (f Family) Rules() []Rule { return slices.Clone(f.rules) }
