// Package check holds the value checks of the sitemap rules that both the
// encoder (package sitemap's EncoderOptions.Check) and the validator
// (package validate) apply: URL syntax (L-01, L-07, L-16), length (L-06),
// white space, scope (L-09, I-05, I-06), dates (M-01, M-04),
// changefreq, priority, hreflang codes, news languages, video country and
// platform lists and the other extension fields. Each check returns nil
// for a good value, else a [Problem] with the rule ID, what is wrong and
// what to do, so that every command says the same thing about the same
// value; the callers decide the severity (the encoder refuses, the
// validator reports) and name the value (a JSON field or an XML tag).
//
// The package works on strings and numbers only and imports nothing of
// this module but the rule book and urlnorm, so package sitemap can import
// it.
package check

import "github.com/sitemapkit/sitemap/rules"

// Problem is what a check found wrong with a value: a [rules.Problem]
// with Rule, Message (written to follow the value: `"https://bücher.example/"
// has a host with non-ASCII characters`), Fix (what to do, empty when the
// message says it all) and Suggest (a corrected value when one can be
// told) set. A check returns nil when the value passed (one pointer to
// return: the checks sit on the encoder's hot path); the caller fills in
// Field, Value and the severity it reports it with.
type Problem = rules.Problem

func problem(rule rules.ID, msg, fix string) *Problem {
	return &Problem{Rule: rule, Message: msg, Fix: fix}
}
