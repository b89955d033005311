// Package source reads the entries `sitemap generate` turns into sitemaps:
// plain text (one URL per line), CSV with a header row, and JSONL entry
// records (docs/CONVENTIONS.md), each optionally gzip-compressed; and
// writes the JSONL entry records ([JSONLWriter]) that `sitemap parse` and
// `sitemap fetch` print and the JSONL reader reads back.
//
// A [Reader] yields one [Record] per entry with the line it came from. It
// streams: memory stays bounded by the longest line (at most
// [Options.MaxLineBytes]), never by the number of entries.
//
// Errors come in two kinds. An [*Error] describes one bad entry (a line too
// long, bad JSON, a date that is not W3C Datetime, a priority that is not a
// number) with its position; the reader has already moved past it, so the
// caller reports it and calls Next again. Any other error (an I/O error, a
// CSV file without a loc column) ends the stream. io.EOF marks the clean end.
//
// The readers check the syntax of what they parse; whether an entry may be
// written to a sitemap (absolute URL, scope, lengths, ranges) is the
// encoder's decision ([sitemap.EncoderOptions.Check]).
package source
