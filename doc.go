// Package sitemap holds the Sitemaps protocol model and its streaming codec.
//
// The model ([URL], [Image], [Video], [News], [Alternate], [IndexEntry],
// [ChangeFreq], [Date]) is the one currency of the toolkit: sources yield
// entries, the builder, validator, fetcher and crawler consume them.
//
// An [Encoder] writes one document (a urlset or a sitemapindex) to an
// io.Writer; a [Decoder] reads any format (XML urlset or index, text, RSS,
// Atom, gzip sniffed by its magic bytes) from an io.Reader. Neither does any
// I/O of its own beyond the reader or writer it is given.
//
// Rule IDs in comments and diagnostics (X-06, L-09, ...) are the rules of
// the project's rule book: package rules, `sitemap explain ID`, and
// docs/RULES.md.
package sitemap
