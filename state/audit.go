package state

import (
	"context"
	"time"
)

// AuditLog is what one audit run (package audit) remembers, so that a
// killed audit resumes where it stopped: every URL the site's sitemaps
// list, with the sitemap that listed it, its lastmod and how many times
// it was listed; which of them are in the sample; the result of every
// URL checked; and the hreflang alternates the live pages name, for the
// reciprocity check.
//
// [AuditLog.Begin] must be called before any other method; it resumes
// the unfinished run of the same start or starts a new one, forgetting
// the previous run. Like the [CrawlLog], every read that can return many
// rows is paged by the caller (after, n): memory does not grow with the
// number of URLs.
type AuditLog interface {
	// Begin resumes the run of start when the log holds one that is not
	// finished, else starts a new run at now, forgetting the previous
	// run's rows. A run resumed before its listing ended (AuditRun.Listed
	// false) has forgotten its listed rows: the sitemaps are read again.
	Begin(ctx context.Context, start string, now time.Time) (AuditRun, error)
	// AddListed records entries as the sitemaps list them, in one
	// transaction: a loc listed before counts one more copy (the first
	// copy's source and lastmod are kept, the second copy's source is
	// remembered).
	AddListed(ctx context.Context, entries []AuditListed) error
	// EndListing ends the listing: the sample is drawn (the sample
	// listed URLs of each source whose Rand is smallest, a uniform
	// sample; every URL when sample is 0) and the run remembers that its
	// listing is complete.
	EndListing(ctx context.Context, sample int) error
	// IsListed reports whether loc is listed (in the sample or not); key
	// is its normal form, compared when loc itself is not listed.
	IsListed(ctx context.Context, loc, key string) (bool, error)
	// Todo returns up to n URLs still to check whose Loc sorts after
	// after, sorted by Loc: the sampled listed URLs and the extra URLs
	// added by [AuditLog.AddExtra], that have no result yet.
	Todo(ctx context.Context, after string, n int) ([]AuditListed, error)
	// AddExtra adds URLs that are not listed but must be read (the
	// hreflang alternates of audited pages); a URL already in the log is
	// left as it is.
	AddExtra(ctx context.Context, locs []AuditListed) error
	// Record stores the results of checked URLs and the hreflang
	// alternates their live pages name, in one transaction.
	Record(ctx context.Context, results []AuditResult) error
	// AltTargets returns up to n hreflang targets named by checked pages
	// that are not in the log, sorted, after after.
	AltTargets(ctx context.Context, after string, n int) ([]string, error)
	// NotReciprocal returns the alternates the live page whose Key is from names
	// whose own page was read (Result.HTML) and does not name from back,
	// and those whose page was read but is no HTML page (a redirect, an
	// error).
	NotReciprocal(ctx context.Context, from string) ([]AuditAlternate, error)
	// Results returns up to n checked listed rows that sort after
	// (afterKey, afterLoc), sorted by Key then Loc (the normal form first:
	// the order a crawl log's rows are in).
	Results(ctx context.Context, afterKey, afterLoc string, n int) ([]AuditRow, error)
	// Count returns how many listed URLs there are and how many of them
	// are in the sample.
	Count(ctx context.Context) (listed, sampled int, err error)
	// Finish marks the run finished, so that the next Begin starts anew.
	Finish(ctx context.Context) error

	// History returns the history rows of the keys it has (sorted by
	// Key): what earlier runs saw of those URLs. Begin keeps the history;
	// Record writes it ([AuditResult].History).
	History(ctx context.Context, keys []string) ([]AuditHistory, error)
	// SharedLastMod returns the lastmod more than half of the listed URLs
	// with a lastmod share ("" when none does) and how many share it, and
	// how many listed URLs have a lastmod; memory does not grow with the
	// number of URLs.
	SharedLastMod(ctx context.Context) (lastmod string, n, withLastMod int, err error)
}

// AuditRun is what [AuditLog.Begin] returns about the run.
type AuditRun struct {
	Start string
	// Time is the run's time (UTC); a resumed run keeps its own.
	Time time.Time
	// Resumed is set when the run continues an unfinished one; Listed
	// when its listing had ended (the sitemaps need not be read again).
	Resumed, Listed bool
}

// AuditListed is one URL as a sitemap lists it.
type AuditListed struct {
	Loc string
	// Key is the URL's normal form (a crawler's spelling of it).
	Key string
	// Source is the sitemap that listed it.
	Source string
	// LastMod is the lastmod as written ("" when none).
	LastMod string
	// Rand draws the sample: a uniform random number per entry.
	Rand int64
	// Copies is how many times the URL is listed (from the log);
	// DupSource the second sitemap that listed it.
	Copies    int
	DupSource string
	// Scope says why the URL is outside its sitemap's scope ("" when it
	// is in scope or the sitemap's URL is unknown).
	Scope string
	// Extra marks a URL that is not listed, read for its alternates.
	Extra bool
}

// AuditResult is a checked URL's outcome, given to [AuditLog.Record].
type AuditResult struct {
	Loc string
	// Key is the URL's normal form (for extra URLs not yet in the log).
	Key    string
	Status int
	// HTML is set when the page was read as HTML: its Alternates are what
	// it names (none is an answer too).
	HTML bool
	// Data is the caller's record of the result (package audit: JSON).
	Data []byte
	// Alternates are the hreflang alternates the live page names; they
	// are recorded from Key, and their Href are compared with the Key of
	// other rows.
	Alternates []AuditAlternate
	// History, when set, replaces the URL's history row (by its Key), in
	// the transaction of the result.
	History *AuditHistory
}

// AuditAlternate is one hreflang alternate a live page names.
type AuditAlternate struct {
	Hreflang, Href string
	// Status is the status of the target's page, for NotReciprocal
	// results (0 when not read).
	Status int
}

// AuditRow is a checked URL, from [AuditLog.Results].
type AuditRow struct {
	AuditListed
	Status int
	Data   []byte
}
