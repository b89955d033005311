package state

import (
	"context"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// CrawlLog is what one crawl run remembers so that a killed crawl resumes
// where it stopped: every URL the run has seen, with its depth and the
// page that linked to it; the frontier (the URLs still pending); the
// outcome of every URL decided (HTTP status, listed or not and why); and
// the sitemap entry of every listed page, read back sorted by loc.
//
// A log holds one run at a time. [CrawlLog.Begin] must be called before
// [CrawlLog.Update]; the read methods (Listed, Outcomes, Links, …) may be
// called without it, and then read the last run the file holds, finished
// or not (what `sitemap graph --state` and `sitemap serve --state` show).
// Begin resumes the unfinished run of the same start URL
// or starts a new one, forgetting the previous run's URLs (the per-URL
// history of the [Store] it shares a file with is kept).
//
// Each URL is in one of four states:
//
//   - pending: in the frontier, to be fetched;
//   - nofollow: seen only through nofollow links (not fetched; a followed
//     link makes it pending);
//   - decided: fetched ([CrawlTx.Record]) or left out without a fetch
//     (an Enqueue with a Reason, [CrawlTx.Skip], [CrawlTx.Finish]);
//   - counted is a mark on a pending URL, not a state: it takes part in
//     [CrawlTx.Variants] (query-variant trap detection).
//
// Writes happen only inside [CrawlLog.Update], one transaction each. A
// log is used by one goroutine at a time (the crawl's coordinator); an
// implementation may make it safe for more, as [DB.Crawl] does.
//
// An implementation ([DB], on SQLite and PostgreSQL) must keep every
// ordering and atomicity guarantee written on the methods below: the
// crawl's resume is only as exact as they are. Memory must not grow with
// the number of URLs: every read that can return many rows is paged by
// the caller (after, n).
type CrawlLog interface {
	// Begin resumes the run of start when the log holds one that is not
	// finished, else starts a new run at now: it then forgets every URL
	// of the previous run. The returned CrawlRun tells which; a resumed
	// run keeps its original Time. A log shared by workers
	// ([SharedCrawlLog]) refuses, with an error wrapping [ErrCrawlBusy],
	// while a worker is alive; a log in a state file ([SQLite]) refuses
	// while another process has begun a run in it and has not closed it
	// (an flock on the file, where the system has one). Resuming clears
	// the counted mark of every pending URL (claims of the killed run are
	// counted again when claimed again). Begin is atomic: a crash during
	// it leaves the log as it was.
	Begin(ctx context.Context, start string, now time.Time) (CrawlRun, error)

	// Update runs fn in one transaction: either every write of fn is
	// durable when Update returns nil, or none is (fn's error, or a
	// failed commit, is returned and the writes are rolled back). Reads
	// through the CrawlTx see fn's earlier writes.
	//
	// Before its transaction commits, Update makes every earlier write of
	// the Store that shares its file or database durable ([DB]
	// writes its buffer first), so a URL is never marked decided
	// while its Store record could still be lost. fn must use only the
	// CrawlTx, not other methods of the log or of that Store.
	Update(ctx context.Context, fn func(CrawlTx) error) error

	// NextDepth returns the smallest depth of a pending URL, and false
	// when nothing is pending (the frontier is empty).
	NextDepth(ctx context.Context) (int, bool, error)
	// Pending returns up to n pending URLs of exactly depth whose Loc
	// sorts after after (byte order), sorted by Loc. It changes nothing:
	// a URL stays pending until an Update decides it.
	Pending(ctx context.Context, depth int, after string, n int) ([]CrawlURL, error)
	// Fetched counts the URLs of the run recorded with [CrawlTx.Record]
	// (fetched in this run or in the killed runs it resumes).
	Fetched(ctx context.Context) (int, error)

	// Outcomes returns up to n decided or nofollow URLs whose Loc sorts
	// after after, sorted by Loc: the report, a page at a time.
	Outcomes(ctx context.Context, after string, n int) ([]CrawlOutcome, error)
	// Listed returns up to n listed pages (recorded with an Entry) whose
	// Loc sorts after after, sorted by Loc, with their entries.
	Listed(ctx context.Context, after string, n int) ([]CrawlEntry, error)
	// Entry returns the entry of loc when loc is a listed page.
	Entry(ctx context.Context, loc string) (*sitemap.URL, bool, error)
	// Seen reports whether the run has seen loc at all (in any state).
	Seen(ctx context.Context, loc string) (bool, error)
	// Reasons counts the decided and nofollow URLs by Reason; "" counts
	// the listed pages.
	Reasons(ctx context.Context) (map[string]int, error)

	// Links returns up to n links of the run recorded with [CrawlTx.Link]
	// that sort after after, sorted by From, then To, then Kind: the
	// site's link graph, a page at a time (pass the last link returned,
	// or the zero CrawlEdge to start).
	Links(ctx context.Context, after CrawlEdge, n int) ([]CrawlEdge, error)
}

// CrawlTx is the write side of a [CrawlLog], valid only inside the
// function given to [CrawlLog.Update].
type CrawlTx interface {
	// Enqueue records a link to l.Loc. A URL not seen before is added:
	// decided with l.Reason when l.Reason is set and l.Nofollow is not,
	// nofollow (keeping l.Reason) when l.Nofollow is set, else pending.
	// A URL already seen keeps its state, except that:
	//
	//   - a nofollow URL given a followed link (pending) becomes pending,
	//     with that link's depth and referrer and no reason;
	//   - a URL not yet fetched, given a link of the same depth from a
	//     referrer that sorts before its own, takes that referrer (so the
	//     report does not depend on the order links are found).
	Enqueue(ctx context.Context, l CrawlLink) error
	// Variants counts the counted URLs whose PathKey is key and that come
	// before (depth, loc): a smaller depth, or the same depth and a Loc
	// that sorts before loc. It sees the writes of this transaction.
	Variants(ctx context.Context, key string, depth int, loc string) (int, error)
	// Count sets the counted mark of loc (see Variants).
	Count(ctx context.Context, loc string) error
	// Skip decides loc without a fetch, with reason.
	Skip(ctx context.Context, loc, reason string) error
	// Record decides a fetched URL: its status, and its entry when the
	// page is listed (r.Entry non-nil; the entry is stored as it is now)
	// or the reason it is not.
	Record(ctx context.Context, r CrawlResult) error
	// Seeded remembers that the run's seeds are enqueued (CrawlRun.Seeded
	// on resume).
	Seeded(ctx context.Context) error
	// Link records that the fetched page e.From points at e.To in the way
	// e.Kind says. Each (From, To, Kind) is kept once; a link from a page
	// to itself is not kept. Links count toward the Inlinks of
	// [CrawlOutcome] and [CrawlEntry] as those say.
	Link(ctx context.Context, e CrawlEdge) error
	// Finish marks the run finished, so that the next Begin starts a new
	// one, and computes every URL's click depth (CrawlOutcome.Clicks). A non-empty reason first decides every pending URL with it
	// (what a limit left in the frontier).
	Finish(ctx context.Context, reason string) error
}

// CrawlRun is what [CrawlLog.Begin] returns about the run.
type CrawlRun struct {
	// Start is the run's start URL.
	Start string
	// Time is the run's time (UTC): now for a new run, the original
	// run's time when resumed.
	Time time.Time
	// Resumed is set when the run continues an unfinished one.
	Resumed bool
	// Seeded is set when the resumed run's seeds were already enqueued.
	Seeded bool
	// Discarded is the start URL of an unfinished run of another start
	// URL that this Begin forgot (its frontier and outcomes; the Store's
	// per-URL history stays), or empty.
	Discarded string
}

// CrawlLink is a link to a URL, given to [CrawlTx.Enqueue].
type CrawlLink struct {
	Loc   string
	Depth int
	// Referrer is the page (or seed sitemap) that linked to Loc; empty for
	// the start URL.
	Referrer string
	// PathKey groups the URLs counted together by [CrawlTx.Variants]
	// (the URL without its query); empty for none.
	PathKey string
	// Reason, when set, decides the URL at once (not to be fetched).
	Reason string
	// Nofollow: seen only through a nofollow link.
	Nofollow bool
}

// CrawlURL is a pending URL, from [CrawlLog.Pending].
type CrawlURL struct {
	Loc      string
	Depth    int
	Referrer string
	PathKey  string
}

// CrawlResult is a fetched URL's outcome, given to [CrawlTx.Record].
type CrawlResult struct {
	Loc    string
	Status int
	// Title is the page's <title>, whitespace collapsed; empty for none.
	Title string
	// Reason says why the page is not listed; empty when Entry is set.
	Reason string
	// Entry is the page's sitemap entry when it is listed, else nil.
	Entry *sitemap.URL
	// Render is what rendering the page in a browser revealed, as the
	// crawler encodes it (JSON); empty when it was not rendered. The log
	// keeps it as it is and gives it back in [CrawlOutcome.Render].
	Render string
}

// CrawlOutcome is one URL of the run and what became of it, from
// [CrawlLog.Outcomes].
type CrawlOutcome struct {
	Loc string
	// Status is the HTTP status of a fetched URL; 0 when not fetched.
	Status   int
	Included bool
	Reason   string
	Depth    int
	Referrer string
	// Title is the page's title as recorded by [CrawlTx.Record].
	Title string
	// Inlinks counts the other pages of the run that link to the URL
	// ([LinkFollow] or [LinkNofollow]) or redirect to it ([LinkRedirect]);
	// canonical and hreflang annotations are not links a visitor follows
	// and are not counted. A listed page with no inlinks is an orphan
	// (unless it is the start URL).
	Inlinks int
	// Clicks is the URL's click depth: the fewest links (as counted by
	// Inlinks) from the start URL to it; 0 for the start URL, -1 when no
	// chain of links reaches it (an orphan, or a URL only a sitemap
	// lists) or when the run has not finished (computed by
	// [CrawlTx.Finish]). Depth, by contrast, is the crawl's own depth, at
	// which a URL listed in a seed sitemap is 0.
	Clicks int
	// Render is [CrawlResult.Render] as recorded; empty when the page was
	// not rendered.
	Render string
}

// CrawlEntry is a listed page, from [CrawlLog.Listed].
type CrawlEntry struct {
	Loc   string
	Entry *sitemap.URL
	// Depth, Title, Inlinks and Clicks are as in [CrawlOutcome].
	Depth   int
	Title   string
	Inlinks int
	Clicks  int
}

// LinkKind says how one page points at another in a [CrawlEdge].
type LinkKind uint8

// The kinds of [CrawlEdge], in the order [CrawlLog.Links] sorts them.
const (
	// LinkFollow is an <a> or <area> link the crawler follows.
	LinkFollow LinkKind = iota + 1
	// LinkNofollow is an <a> or <area> link marked rel="nofollow", or any
	// link of a page whose robots directives say nofollow.
	LinkNofollow
	// LinkRedirect is an HTTP redirect to To.
	LinkRedirect
	// LinkCanonical: the page names To as its canonical URL.
	LinkCanonical
	// LinkAlternate: the page names To as one of its hreflang alternates.
	LinkAlternate
)

// String returns the kind's name: "link", "nofollow", "redirect",
// "canonical" or "alternate" ("unknown" for other values).
func (k LinkKind) String() string {
	switch k {
	case LinkFollow:
		return "link"
	case LinkNofollow:
		return "nofollow"
	case LinkRedirect:
		return "redirect"
	case LinkCanonical:
		return "canonical"
	case LinkAlternate:
		return "alternate"
	}
	return "unknown"
}

// CrawlEdge is one link of a crawl's link graph: the page From points at
// To (a URL of the run in any state, or one left out of the crawl such as
// another site's page) in the way Kind says.
type CrawlEdge struct {
	From, To string
	Kind     LinkKind
}

// CrawlDone is a [CrawlLog] that can tell whether its run is finished
// ([CrawlTx.Finish]): what a reader that publishes (serve) must know, since
// a run under way (or killed) has listed only the pages it reached.
type CrawlDone interface {
	// Finished reports whether the log's last run finished; false while
	// a run is under way or after one was killed, and when the log never
	// held a run.
	Finished(ctx context.Context) (bool, error)
}

// FrontierCounter is a [CrawlLog] that can count its frontier: the URLs
// pending a fetch (those claimed and in flight included). The crawler's
// progress line shows pages done of those seen with it; a CrawlLog
// without it shows the pages done alone.
type FrontierCounter interface {
	Frontier(ctx context.Context) (int, error)
}
