// Package state is what the toolkit remembers between runs: for every URL
// its content fingerprint, when it was first and last seen, when a change
// was last observed, its crawl status and whether it went into the
// sitemap ([Store]); and, for the crawler, the URLs of the current crawl
// run with its frontier, so that a killed crawl resumes where it stopped
// ([CrawlLog]).
//
// Its one job for sitemaps is a truthful lastmod (M-02, M-05, M-06): a
// generator that remembers each entry's fingerprint can tell which pages
// changed between two runs and move only their lastmod, instead of stamping
// every URL with the build time. See [Decide] for the exact rules.
//
// [Store] and [CrawlLog] are the interfaces; [DB] is their one
// implementation in SQL, over database/sql, on two engines: an SQLite
// file ([OpenSQLite]: embedded, one process, WAL mode) or a PostgreSQL
// database that several processes share ([OpenPostgres]: a pool,
// writes batched into one upsert, [DB.StampMany] for a batch of entries
// in two statements, the crawl log a [SharedCrawlLog]). The SQL is
// written once; a small dialect holds what the engines spell or do
// differently. [DB.Crawl] is the crawl log, [DB.Audit] the audit log,
// [DB.RecordSubmissions] the IndexNow ledger. [Open] picks the engine by
// the name: a postgres:// URL or a file.
package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Record is what the store remembers about one URL.
type Record struct {
	// Loc is the URL, as written in the sitemap (the key).
	Loc string
	// ContentHash is the entry's fingerprint at LastSeen: the caller's
	// content hash (sitemap.URL.ContentHash) when it supplied one, else
	// [Fingerprint] of the entry's fields.
	ContentHash string
	// LastMod is the lastmod the store vouches for: the one the input gave,
	// or the run time at which a change was observed (see [Decide]); zero
	// when unknown.
	LastMod sitemap.Date
	// FirstSeen and LastSeen are the run times at which the URL was first
	// and last seen (UTC).
	FirstSeen, LastSeen time.Time
	// LastChanged is the run time at which a change of ContentHash was last
	// observed; zero when none has been observed (the first sighting is not
	// a change: we do not know when the page changed before it).
	LastChanged time.Time
	// Status is the last HTTP status seen by a crawler; 0 when unknown.
	Status int
	// Included reports whether the URL went into the sitemap the last time
	// it was seen.
	Included bool
	// Reason says why the URL was left out ("noindex", "canonical
	// elsewhere", "status 404" …); empty when included.
	Reason string
}

// Store remembers URLs between runs.
//
// Every method is safe for concurrent use by several goroutines (the
// crawler calls from its workers). Writes may be buffered: they are
// visible to later calls on the same Store at once, and durable after
// [Store.Flush] or [Store.Close] (an implementation may also make them
// durable earlier, as [OpenSQLite] does every SQLiteOptions.BatchSize
// operations).
type Store interface {
	// Lookup returns the record of loc, and false when there is none.
	Lookup(ctx context.Context, loc string) (Record, bool, error)
	// Put inserts or replaces the record of r.Loc.
	Put(ctx context.Context, r Record) error
	// Stamp applies [Decide] to u against the record of u.Loc, atomically:
	// it sets u.LastMod to the truthful lastmod and records the result.
	// now is the run's time (the same value for every entry of one run).
	Stamp(ctx context.Context, u *sitemap.URL, now time.Time) error
	// Unseen calls fn, in order of Loc, with every record whose LastSeen
	// is before since: the URLs this run did not see ("sweep", for
	// reports). fn may call other methods of the Store. An error from fn
	// stops the walk and is returned.
	Unseen(ctx context.Context, since time.Time, fn func(Record) error) error

	// Flush makes every write so far durable.
	Flush(ctx context.Context) error
	// Close flushes and releases the store.
	Close() error
}

// Prefetcher is implemented by stores whose Lookup costs a round trip to
// a server ([DB] on PostgreSQL): Prefetch reads the records of locs at once, so
// that the Lookups and Stamps of those locs that follow are answered from
// memory. It holds the records of its last call only (memory stays
// bounded by the caller's batch); a record written since is read from
// the write buffer, never from the prefetched copy.
type Prefetcher interface {
	Prefetch(ctx context.Context, locs []string) error
}

// ErrClosed is returned by every method of a closed Store.
var ErrClosed = errors.New("state: store is closed")

// Fingerprint returns the fingerprint of an entry that carries no content
// hash: a SHA-256 of its canonical JSON form without LastMod, ContentHash,
// Source, ChangeFreq and Priority, prefixed with "content:" so that it
// never equals a caller-supplied hash. Two entries with the same loc,
// images, videos, news and alternates have the same fingerprint: a page
// whose changefreq or priority alone changed has not changed, so its
// lastmod stays (M-02 dates the page's content, not the sitemap's hints).
func Fingerprint(u *sitemap.URL) string {
	c := *u
	c.ChangeFreq = ""
	c.Priority = nil
	return fieldsHash(fingerprintPrefix, &c)
}

const (
	// fingerprintPrefix marks a Fingerprint.
	fingerprintPrefix = "content:"
	// legacyPrefix marks the fingerprint of earlier releases, which also
	// covered changefreq and priority; state files still hold them.
	legacyPrefix = "fields:"
)

// legacyFingerprint is the fingerprint earlier releases recorded: as
// Fingerprint, with changefreq and priority, prefixed "fields:".
func legacyFingerprint(u *sitemap.URL) string { return fieldsHash(legacyPrefix, u) }

// fieldsHash is prefix and the hex of the first 16 bytes of the SHA-256
// of u's JSON form without LastMod, ContentHash and Source.
func fieldsHash(prefix string, u *sitemap.URL) string {
	c := *u
	c.LastMod = sitemap.Date{}
	c.ContentHash = ""
	c.Title = "" // never published: a new title is no change of the entry
	c.Source = ""
	b, err := json.Marshal(&c)
	if err != nil {
		// sitemap.URL always marshals (no channels, funcs or NaN-only
		// fields can fail here except a NaN priority); fall back to the
		// loc so that the fingerprint stays defined.
		b = []byte(u.Loc)
	}
	sum := sha256.Sum256(b)
	return prefix + hex.EncodeToString(sum[:16])
}

// hashOf is the fingerprint Stamp records for u.
func hashOf(u *sitemap.URL) string {
	if u.ContentHash != "" {
		return u.ContentHash
	}
	return Fingerprint(u)
}

// sameContent reports whether the recorded fingerprint prev is that of
// u, whose fingerprint is hash. A fingerprint of an earlier release
// (legacyPrefix) is compared with u's fingerprint of that form, so a
// state file written before changefreq and priority left the fingerprint
// moves no lastmod on its first run with this one; when that differs,
// the change cannot be told from one of changefreq or priority and
// counts as a change, as it did then.
func sameContent(prev, hash string, u *sitemap.URL) bool {
	if prev == hash {
		return true
	}
	if u.ContentHash == "" && strings.HasPrefix(prev, legacyPrefix) {
		return prev == legacyFingerprint(u)
	}
	return false
}

// RunDate is the lastmod a change observed at now gets: now in UTC,
// truncated to the second (PrecisionSecond, the default) or to the day
// (PrecisionDay). Both forms are the ones M-08 allows.
func RunDate(now time.Time, prec sitemap.Precision) sitemap.Date {
	now = now.UTC()
	if prec == sitemap.PrecisionDay {
		return sitemap.DayOf(now)
	}
	return sitemap.DateOf(now.Truncate(time.Second))
}

// Decide is the lastmod rule of [Store.Stamp], as a pure function: given
// the previous record of u.Loc (found false when there is none), the
// entry u and the run's time now, it returns the new record and the
// lastmod u should carry.
//
// The rule never invents a date (M-02, M-05, M-06):
//
//   - The fingerprint of u is u.ContentHash when set, else [Fingerprint]
//     of its content (everything but lastmod, source, changefreq and
//     priority: a new changefreq or priority alone is no change).
//   - A lastmod given on input always wins: it is kept on u and recorded.
//   - First sighting without a lastmod: u keeps no lastmod. We have not
//     seen the page change, so its date is unknown; the run's time would
//     be the generation time that M-02 forbids.
//   - Seen before, fingerprint unchanged, no lastmod given: u gets the
//     recorded lastmod (possibly none).
//   - Seen before, fingerprint changed, no lastmod given: u gets the run's
//     time (RunDate of now at prec). The change happened between the
//     previous run and this one, so this is truthful to within the run
//     interval.
//
// A changed fingerprint also sets LastChanged to now, whether or not a
// lastmod was given. FirstSeen is kept (now on a first sighting), LastSeen
// becomes now, Included becomes true and Reason empty (Stamp is for
// entries that go into a sitemap); Status is kept.
func Decide(prev Record, found bool, u *sitemap.URL, now time.Time, prec sitemap.Precision) (Record, sitemap.Date) {
	now = now.UTC()
	hash := hashOf(u)
	r := Record{
		Loc:         u.Loc,
		ContentHash: hash,
		FirstSeen:   now,
		LastSeen:    now,
		Included:    true,
	}
	if found {
		r.FirstSeen = prev.FirstSeen
		r.LastChanged = prev.LastChanged
		r.Status = prev.Status
	}
	changed := found && !sameContent(prev.ContentHash, hash, u)
	if changed {
		r.LastChanged = now
	}
	switch {
	case !u.LastMod.IsZero():
		r.LastMod = u.LastMod
	case !found:
		// Unknown: leave it absent.
	case changed:
		r.LastMod = RunDate(now, prec)
	default:
		r.LastMod = prev.LastMod
	}
	return r, r.LastMod
}
