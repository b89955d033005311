// Package crawl walks a live site the way a well-behaved search engine
// does and turns it into sitemap entries: exactly the pages that belong in
// a sitemap, with a truthful lastmod, hreflang alternates and images, and
// a reason for every other URL it saw.
//
// # What is listed
//
// A URL is listed when its final answer is a 200 HTML page (text/html or
// application/xhtml+xml) that is not noindex (meta robots, a <meta> naming
// the crawler's product token, X-Robots-Tag), whose rel=canonical (or Link header) names
// itself or nothing, that robots.txt allows, and that the list patterns
// allow. Every other URL seen gets one reason: "redirect" (the target is
// crawled instead), "noindex", "canonical" (the canonical target is crawled
// instead), "robots" (never fetched), "not-html", "status:N", "error",
// "scope", "exclude", "list-exclude", "nofollow" (reached only through
// nofollow links), the traps "trap:long-url", "trap:repeating-segments"
// and "trap:query-variants", and the limits "limit:max-depth",
// "limit:max-pages" and "limit:max-time". The robots, noindex, canonical
// and nofollow rules can each be switched off (Options.Ignore*).
//
// Entries carry lastmod from the Last-Modified header when the server
// sends one (M-05) that is neither in the future nor the response's own
// time (equal to its Date header, as dynamic pages send); otherwise package state decides it from the page's
// content fingerprint ([state.Decide]): absent on a first sighting, the
// recorded value while the content is unchanged, the run's time when a
// change was observed since the last crawl. It is never simply the crawl
// time (M-02).
//
// The fingerprint follows M-05: a lastmod reflects the last significant
// change, "main content, structured data or links, not a sidebar or
// footer tweak", so a site-wide navigation or footer change moves no
// lastmod. It hashes:
//
//   - the metadata: the first <title>, the first <meta name="description">,
//     the canonical, the set of hreflang alternates (in any order) and the
//     JSON-LD structured data (<script type="application/ld+json">);
//   - when the page has <main>, <article> or an element with role="main":
//     the text of those elements and the targets of the links and images
//     in them, without the <nav> and <aside> (roles navigation,
//     complementary) inside them;
//   - otherwise: the text, link targets and images of the page outside
//     <nav>, <header>, <footer>, <aside> and the elements with role
//     navigation, banner, contentinfo or complementary.
//
// <script>, <style>, <noscript> and <template> never count; text is
// whitespace-collapsed, and markup, other attributes and comments do not
// count.
//
// Alternates come from <link rel="alternate" hreflang> (x-default
// included; the site's own ones are crawled like links) and are kept only
// when reciprocal (H-04); ones on another host or port, which the crawl
// does not request, are kept unchecked when every page of the group names
// them (H-08). Every entry with alternates lists itself (H-03), under the
// codes its group gives it, its own self link or its <html lang>, so the
// output passes package validate; images from <img
// src> on the site's host and allowed by its robots.txt, or on
// Options.ImageHosts (IM-05), at most 1,000 (IM-02).
//
// # Politeness
//
// robots.txt is read first and obeyed for the product token of the
// User-Agent (RFC 9309; a 5xx or unreachable robots.txt disallows
// everything, a 4xx allows everything). Crawl-delay lowers the rate.
// Requests go through a token bucket (Options.Rate) and at most
// Options.Concurrency at a time; a 429 or 503 pauses the whole host for
// Retry-After (or an exponential backoff) before the request is tried
// again. Every request has a timeout; a page is read up to
// Options.MaxBodyBytes.
//
// # Order, determinism and resuming
//
// The crawl is breadth first, one depth level at a time, each level in
// URL order; links found at one level are the next level. Depths are the
// shortest link distance from a seed, the referrer reported for a URL is
// the smallest of its referrers at that depth, and the caps decided when a
// URL is handed out (max-pages, query variants) see URLs in the same order
// whatever the timing, so two crawls of the same site give the same
// sitemap and report (max-time excepted).
//
// The frontier, every outcome and the entries of listed pages live in a
// [state.CrawlLog] (for a state file, tables crawl_* beside package
// state's tables), written by one coordinator goroutine in transactions.
// A crawl killed part-way is continued by the next [New] and [Crawler.Run]
// with the same state file and start URL, and produces the same sitemap as
// an uninterrupted crawl; a finished crawl is started afresh, keeping the
// [state.Store]'s per-URL history so that only the lastmods of changed
// pages move.
//
// # Many processes
//
// [NewWorker] makes a Crawler that is one of any number of workers, in
// any processes on any machines, crawling one site through a shared
// crawl log ([state.SharedCrawlLog]: a [state.Postgres]'s). Workers
// lease the URLs of the shallowest pending depth (a lease lasts
// WorkerOptions.Lease and is renewed while the worker lives), write
// what they found as one process does, and reserve every request's
// slot in the host's row of the log, so that together they keep the
// site's rate, Crawl-delay and 429 pauses. The URLs crawled, their
// depths and referrers are those of a crawl by one process. A worker
// that dies loses nothing: its leases run out and others take its URLs.
// When the frontier is empty, exactly one worker's Run reports
// Summary.Finished: it publishes.
//
// # Memory
//
// No per-URL data is kept in memory: the frontier and the seen set are
// rows of the crawl log (URL, depth, referrer, outcome and, for listed
// pages, the entry's JSON; roughly 100–300 bytes on disk per URL). The
// process holds the state file's page cache (16 MiB, shared by the store
// and the crawl log) and the pages in flight (at most Concurrency bodies
// of at most MaxBodyBytes, streamed through the tokenizer, and their link
// lists). Output is read back sorted by the crawl log, a page of rows at
// a time.
package crawl
