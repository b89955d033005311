package sitemap

import "github.com/sitemapkit/sitemap/rules"

// Severity ranks a [Diagnostic]: the rule book's severity, [rules.Severity].
type Severity = rules.Severity

// The three severities (docs/CONVENTIONS.md, "Diagnostics"). Each rule of
// the rule book (package rules, docs/RULES.md) names the one it is
// reported with by default ([rules.ID.Severity]).
const (
	SeverityError   = rules.Error
	SeverityWarning = rules.Warning
	SeverityInfo    = rules.Info
)

// Diagnostic is one problem found in a document by the reader, the
// validator, the fetcher or the crawler (docs/CONVENTIONS.md,
// "Diagnostics"): the rule book's one problem type, [rules.Problem].
// Rule is a rule ID of the book: a protocol rule (rules.X06, rules.L07)
// or a project rule where the protocol has no number (rules.XML01,
// rules.FetchHTTP); `sitemap explain ID` prints it, docs/RULES.md lists
// them all. File or URL says where; Line and Col (1-based, 0 when
// unknown) say where inside text input. Its String is the compiler-style
// line, its JSON the fields rule, severity, message, file, url, line and
// col.
type Diagnostic = rules.Problem
