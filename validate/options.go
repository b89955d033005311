// Package validate checks sitemaps against the rules of the project's rule
// book (package rules, docs/RULES.md).
//
// The decoder (package sitemap) reports everything it sees in the bytes:
// well-formedness, namespaces, element order and repeats, value forms
// (what an XSD can check). This package adds the rules that need the
// entries or the whole document, which no XSD can express: absolute,
// percent-encoded and scoped locs, limits, lastmod heuristics, and Google's
// image, video, news and hreflang rules. Every finding is a [sitemap.Diagnostic] with a
// rule ID, a severity and a position.
//
// [Checker] runs the entry rules over entries from any source; [Document]
// runs the decoder and a Checker over one document.
package validate

import (
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Options configure a [Checker] and [Document].
type Options struct {
	// Name is where the document came from, used in diagnostics: a file
	// name (Diagnostic.File), or a URL (Diagnostic.URL) when it starts with
	// http:// or https://. Empty means URL.
	Name string
	// URL is where the document is (or will be) served: the base of the
	// scope rules L-09/L-15 (and I-05/I-06 for an index). Empty skips the
	// scope rules; L-08 (one host per sitemap) still runs.
	URL string
	// CrossSubmit declares cross-submission (O-03): scope errors become
	// warnings (L-15). One host per sitemap (L-08, O-04) still holds.
	CrossSubmit bool
	// TrustedHosts are extra hosts allowed in the sitemap, for instance
	// hosts verified in Search Console (O-05, O-06): a loc on one of them
	// outside the scope is a warning, not an error.
	TrustedHosts []string
	// AcrossIndex, when set, is shared by the child sitemaps of one index
	// so that a page loc listed by two of them is reported (L-17).
	AcrossIndex *IndexLocs
	// Now is the reference time of M-07 (future lastmod) and N-06/N-11
	// (news older than 48 hours). The zero Time means time.Now().
	Now time.Time
	// Decoder configures the decoder [Document] runs (its caps). Its Name
	// defaults to Name; OnDiagnostic is ignored (Document passes the
	// decoder's diagnostics to its report function).
	Decoder sitemap.DecoderOptions

	// childrenFollowed is set by Tree when it reads an index's children:
	// the walk then says I-05 of a child on another site, so the checker
	// does not infer the index's site from its first child.
	childrenFollowed bool
	// robots, set by Tree for the sitemaps of a site, says whether the
	// site's robots.txt disallows a listed URL (L-20), with the agent.
	robots func(loc string) (disallowed bool, agent string)
}

func (o Options) name() string {
	if o.Name != "" {
		return o.Name
	}
	if o.Decoder.Name != "" {
		return o.Decoder.Name
	}
	return o.URL
}
