// Package indexnow tells search engines that take part in IndexNow (IN-01,
// IN-02) which URLs of a host changed, each change once.
//
// A submission needs a key ([ValidKey], IN-03) published in a key file on
// the host ([WriteKeyFile], [KeyFileName], IN-04), by default at
// https://HOST/KEY.txt; a key file elsewhere ([Options.KeyLocation]) covers
// only the URLs below its directory (IN-05). [VerifyKey] fetches the live
// key file and says when it is missing or holds another key.
//
// [Submit] reads entries (a [sitemap.Entries]: a URL list, entry records,
// sitemaps through package input, or [Changes] of a `sitemap diff`),
// checks every URL before anything is sent (IN-11): each is sent in its
// normal form, the one a sitemap of package generate lists
// (percent-encoded as UTF-8, the host in lower case and punycode, no
// default port or fragment; a rewrite is reported at info level, L-18,
// and a URL with no normal form is not sent); a URL on another host
// than [Options.Host], or outside the key file's directory, is reported by
// name ([Options.OnDiagnostic], rules IN-08 and IN-05) and not sent; a URL
// listed again, in any spelling, is sent once. The rest go in batches of at most 10,000
// (IN-08), each a POST of JSON {host, key, keyLocation, urlList} with
// Content-Type application/json; charset=utf-8 (IN-07), through the one
// HTTP client of the module ([fetch.Client]). 200 and 202 are success;
// 400, 403 and 422 are reported with what they mean and not retried; 429
// and 5xx are retried by the client with backoff, honouring Retry-After up
// to its bound (IN-09, IN-10). A 403 or a 429 that outlasts the retries
// stops the run: every later batch would get the same answer. No
// redirect is followed: a 3xx answer fails the batch, says where it
// pointed, and stops the run (the key and the URLs go only to the
// endpoint the caller named).
//
// With a [Ledger] (package state's SQLite and PostgreSQL stores are
// ledgers), every URL is
// recorded with the version of its content ([Version]), the time and the
// outcome when its batch is answered, so a run submits only what the
// ledger has not seen sent: a re-run sends nothing new, a run killed
// mid-batch sends the URLs it had not recorded (a batch the endpoint
// received before the kill but whose answer was not recorded is sent
// again: at least once for that batch, exactly once for every other
// URL), and a page that changes
// again (a new lastmod or content hash) is sent again. [Options.MaxPerDay]
// keeps a daily quota, counted over the last 24 hours of the ledger.
//
// Submitters sharing a ledger (several runs at once, a server submitting
// the changes it sees, in one process or many) send each URL at its
// version once: each batch is checked against the ledger again and
// sent while the ledger's lock is held, and the lock is given back once
// the batch's outcome is recorded. They take turns a batch at a time,
// so none waits for another to end; [Options.LockWait] bounds a wait
// and [Options.OnWait] names the holder of a long one. The lock dies
// with its holder (kill -9 included), and nothing is recorded as sent
// that the endpoint did not answer with 200 or 202. [Submit] may be
// called again and again, and from several goroutines at once, with one
// ledger: each call is one submitter.
//
// Memory does not grow with the number of URLs: one batch is held at a
// time, and the URLs seen are kept as hashes in a bounded set that spills
// to disk.
//
// [Run] is `sitemap submit` as one call, from [Settings] as its flags give
// them; [PublishSettings] are the submission after a publication as
// `sitemap generate` and `sitemap crawl` take it (--indexnow-key-file).
package indexnow
