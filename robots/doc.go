// Package robots reads, matches and edits robots.txt files.
//
// It has three parts:
//
//   - a lenient line scanner ([Parse], [ParseBytes]) that never fails a whole
//     file: it strips a UTF-8 byte order mark, converts UTF-16 (with a BOM) to
//     UTF-8, accepts LF, CR and CRLF line ends, drops '#' comments, splits key
//     and value at the first ':' (or at whitespace when the colon is missing and
//     the line has exactly two tokens), matches keys case-insensitively and
//     accepts the misspellings Google's parser accepts (RB-09, RB-10, RB-12).
//     It reads at most [DefaultMaxBytes] bytes unless told to read more, never
//     less (RB-03, RB-04);
//   - [File.Sitemaps], the `Sitemap:` extraction of RB-12, and an RFC 9309
//     matcher with Google's semantics ([File.Allowed], [File.Group]);
//   - [AddSitemap] and [RemoveSitemap], which change one `Sitemap:` line of a
//     file and leave every other byte as it was (RB-13).
//
// Problems found while reading are reported as [Warning] values with the
// line number and the spec rule ID; they never stop the reading.
package robots
