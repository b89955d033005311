// Package audit checks a site's sitemaps against the live site: every
// listed URL is requested and classified, each class with its rule ID in
// the rule book (family AUD, `sitemap explain AUD-02`):
//
//	AUD-01  ok: 200, indexable HTML, canonical to itself or none, allowed by robots.txt
//	AUD-02  redirect: with its final target, and whether that target is listed
//	AUD-03  404 Not Found
//	AUD-04  410 Gone
//	AUD-05  another 4xx (401, 403, …)
//	AUD-06  5xx
//	AUD-07  noindex, from a <meta> or an X-Robots-Tag header
//	AUD-08  canonical elsewhere, and whether that URL is listed
//	AUD-09  disallowed by robots.txt (not requested)
//	AUD-10  not HTML where a page was expected (a PDF, an image)
//	AUD-11  lastmod older than the server's Last-Modified
//	AUD-12  lastmod in the future
//	AUD-13  hreflang alternates not reciprocal on the live pages
//	AUD-14  listed more than once across the sitemaps
//	AUD-15  outside the scope of the sitemap that lists it (not requested)
//	AUD-16  could not be requested (network, timeout, scope, redirect loop)
//	AUD-17  found by the crawl (Options.Crawl): linked, indexable, not listed
//	AUD-18  orphan: listed, answers 200, but the crawl reached it through no link
//
// With Options.Render, AUD-19 to AUD-26 say what rendering revealed; with
// Options.History, AUD-27 to AUD-31 whether lastmod is honest.
//
// # How
//
// [New] and [Auditor.Run] read the sitemaps the way package fetch
// discovers them (a homepage, a robots.txt or a sitemap URL, indexes
// followed) or, for local files, through package input (Options.Site says
// where they are served); every entry, repeats included, goes into a
// [state.AuditLog]. Then every listed URL (or a uniform sample of
// Options.Sample per sitemap: the Sample entries of each sitemap with the
// smallest random key, drawn as they are listed) is requested through the
// one [fetch.Client]: robots.txt first (a disallowed URL is not
// requested), then at most Options.Concurrency requests at a time and
// Options.Rate a second, 429 and 503 retried after Retry-After. A URL whose
// path names a file type that is not a page (.pdf, .jpg, .zip, …) is asked
// for with HEAD (GET when the server refuses HEAD); every other with GET,
// and only an HTML body is read: with package crawl's parser, so noindex,
// canonical and hreflang mean what they mean to a crawl. Redirects are
// followed one hop at a time with HEAD, up to 10, to name the final target.
//
// Then the hreflang alternates the live pages name and that were not
// audited are read too (once, not their own alternates), so that every
// page's alternates can be checked for a link back (AUD-13). With
// Options.Crawl the site is crawled from its homepage (package crawl,
// without the sitemaps as seeds) and [Auditor.Records] compares: listed
// pages the crawl never reached are orphans (AUD-18), indexable pages it
// found that no sitemap lists are missing (AUD-17), and every audited URL
// the crawl reached carries its click depth.
//
// # History
//
// With Options.History every run records, per audited URL that answers
// 200, the lastmod claimed, the ETag and Last-Modified sent and the main
// content's fingerprint ([crawl.Page].Fingerprint), in a
// [state.AuditHistory] row the log keeps across runs. From the second run
// each URL is compared with the previous run that saw it: a change of the
// content happened between the last run that saw the old content and the
// first that saw the new, and a lastmod is honest when it dates the
// content in that span. Otherwise it churns (AUD-27: moved, the content
// did not), is stale (AUD-28: older than a seen change), went backwards or
// came late (AUD-29), or is later than a Last-Modified that did not move
// (AUD-31). [Record].History carries the verdict, [Tally].History the
// site's ([SiteHistory]: the score and AUD-30, one lastmod on nearly
// every URL), and the report a chart of them by section. A sample is
// then drawn by a hash of the URL: the same URLs at every run.
//
// # Resuming and memory
//
// The log holds everything per URL (for a state file, tables audit_*
// beside the crawl's), so a killed audit continues where it stopped with
// the same log and start; the listing is read again when it had not ended.
// The process holds the URLs in flight and batches of at most a few
// hundred rows: memory does not grow with the number of URLs. The lookups
// "is this target listed" are queries of the log, on disk.
package audit
