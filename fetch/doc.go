// Package fetch reads the sitemaps a website publishes over HTTP.
//
// [Walk] starts from a homepage, a robots.txt URL or a sitemap URL. From a
// homepage (or robots.txt) it reads robots.txt for Sitemap: lines (RB-12),
// then probes well-known paths such as /sitemap.xml when robots.txt names
// none ([KnownPaths]). It follows sitemap indexes (nested ones too, with an
// I-07 warning), reads every sitemap with the streaming decoder of the root
// package, and hands each entry to a callback as soon as it is read, so
// memory depends on the concurrency, not on the size of the site.
//
// [Walk] is the one traversal of sitemap trees in the module: with a
// [Getter] ([Options.Getter]; package input's reads files, directories,
// standard input and S3 objects) it reads a local tree the same way,
// and [WalkNames] reads several starts as one tree. The caps (depth,
// children of one index, sitemaps, URLs, bytes, time), read-once, loops,
// deduplication and the I-05 rule for an index's children (an off-site
// child is reported and not read; a local index whose URL is unknown
// takes the site of its first child) are applied in one place, whatever
// reads the bytes; the commands fetch, parse --follow, diff, audit, graph
// and generate (a sitemap as input) read trees through it, and validate
// too, as a [Reader] ([Options.Reader]): it decodes and checks each
// document as the walk reads it, and says the walk's findings its way.
//
// Every problem becomes a [sitemap.Diagnostic] with the URL it concerns: the
// decoder's findings with their spec rule IDs, and fetch's own with project
// IDs where the spec has none:
//
//	FETCH-HTTP     the request failed (status, network, timeout)
//	FETCH-BLOCKED  401 or 403: the server refuses this client
//	FETCH-LOOP     a sitemap lists (or redirects to) one of its ancestors
//	FETCH-DUP      a sitemap is listed again elsewhere; read once
//	FETCH-CAP      a cap (depth, sitemaps, URLs, bytes, time) was reached
//	FETCH-READ     the body could not be read to its end (truncated, not a sitemap)
//	FETCH-TYPE     the Content-Type does not match what the body is
//	FETCH-NONE     no sitemap was found at all
//	FETCH-ROBOTS   robots.txt could not be read (5xx, network)
//	FETCH-SCOPE    the Client's Scope refused a URL, a redirect or an address
//
// Every HTTP request of the project goes through a [Client] ([NewClient]):
// one User-Agent, connect/header/idle/per-document timeouts, a body size
// cap, retries of 429, 5xx and network errors with exponential backoff and
// jitter honouring Retry-After ([RetryPolicy] chooses; a probe retries only
// 429), conditional requests from a cache, a redirect policy per request
// (follow up to N, do not follow, or a check per redirect), no transparent
// decompression, and robots.txt fetched once per site ([Client.Robots]).
// Only http and https URLs are requested, and a redirect elsewhere (file:,
// gopher:) fails at once. A [Scope] restricts what a program that fetches
// URLs it did not choose may reach: the start's site only, an allow-list
// of hosts, and no loopback, private or link-local address, checked on the
// address each connection is made to after DNS resolution (so DNS
// rebinding does not get round it) and on every redirect.
// Failures are [*Error]s whose [ErrorKind] tells 404/410 (not found) from
// 401/403 (blocked), other statuses, the network, redirects, a body too
// large, timeouts and scope refusals. Walk builds one from its [Options] or uses
// [Options.HTTP]; package crawl, the CLI's inputs and its robots command
// use the same.
//
// HTTP: gzip is asked for and the body is sniffed whatever the headers say
// (Content-Encoding: gzip, .xml.gz files served as plain XML, and both at
// once); timeouts bound the connect, the response headers, every read
// (a server that dribbles bytes) and each sitemap as a whole; 429 and 5xx
// are retried with exponential backoff and jitter, honouring Retry-After.
// With a cache directory, requests are conditional (ETag, Last-Modified)
// and a 304 reuses the stored body.
//
// URL deduplication keeps a 128-bit hash of each URL handed out so far,
// in its normal form (package urlnorm: the spellings of one URL count as
// one), checked by the workers a batch at a time (the up to 512 URLs a
// worker sends on at once, in the order read) in one set split over four
// locked shards: a table in memory, past the budget [Options.DedupMemory]
// (64 MiB by default: about 3 million URLs in memory) sorted runs in
// temporary files in [Options.TempDir] behind filters in memory, unlinked
// as soon as they are made (nothing is left behind, even when the process
// is killed). Memory does not grow with the number of URLs, and each hash
// is written to disk a few times at most (about 1 + log₈ of the URLs over
// the memory table's 0.8 million: 2.5 times at 10⁸, 36 bytes an entry
// with a tenth of repeats, BenchmarkDedupScale); a new URL usually
// costs no read of the files, a repeated one whose hash went to disk a
// read of 1 KiB. Two different URLs are taken
// for one with probability about n²/2¹²⁹ (3·10⁻²⁵ for 10 million). The
// layout is in the documentation of package internal/seen. With several
// workers, which sitemap's copy of a repeated URL is kept depends on
// timing; with one (Concurrency 1), the first copy read is kept. An I/O
// error of a spill file stops the walk with that error.
// [Options.NoDedup] turns deduplication off, and then memory does not
// grow with the number of URLs at all.
package fetch
