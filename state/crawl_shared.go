package state

import (
	"context"
	"errors"
	"time"
)

// SharedCrawlLog is a [CrawlLog] that any number of processes, on any
// machines, crawl from at once ([DB.Crawl] of PostgreSQL): each is a worker that
// joins the run ([SharedCrawlLog.Join]), leases URLs from the shared
// frontier for a while ([SharedCrawlLog.Lease]), renews its leases while
// it fetches them ([SharedCrawlLog.Renew]) and writes what it found with
// [CrawlLog.Update], where [LeaseTx.Held] tells whether the URL is still
// its own. A worker that dies stops renewing: its leases run out and
// another worker leases the URLs again, so nothing it held is lost.
//
// Politeness is shared too: every request to a host first reserves a slot
// ([SharedCrawlLog.Slot]) from the host's row, which holds the next time a
// request may start and the gap between two (the largest any worker asked
// for with [SharedCrawlLog.Politeness]), so that the workers together keep
// the site's rate and Crawl-delay. Times are the database's clock: the
// workers' clocks need not agree.
//
// When the frontier is empty, one worker finishes the run
// ([SharedCrawlLog.FinishShared] returns true to exactly one caller) and
// publishes the sitemaps.
type SharedCrawlLog interface {
	CrawlLog
	// Join is Begin for a worker: it resumes the unfinished run of start
	// (clearing no counted mark: the other workers' leases stand), or,
	// when the log holds a run of another start URL or none, starts a
	// new one at now, unless a worker of that run is still alive (then
	// it returns an error wrapping [ErrCrawlBusy]). When the log holds a
	// finished run of start, it returns an error wrapping
	// [ErrCrawlFinished] (a worker that joins late, when the others are
	// done), unless again is set: then it starts a new run as above (a
	// crawl of the site again). It records w as alive; w.Lease is how
	// long it stays alive without a Renew.
	Join(ctx context.Context, start string, now time.Time, w CrawlWorker, again bool) (CrawlRun, error)
	// ClaimSeed tells worker whether to seed the run (enqueue the start
	// URL and the seed sitemaps' URLs, then [CrawlTx.Seeded], in one
	// Update): mine is true for the one worker that is to do it now,
	// seeded is true once it is done (or the run finished). Both false:
	// another live worker is seeding; ask again a little later (a
	// seeder that dies, or leaves, is replaced by the next caller). No
	// URL is to be leased before seeded: the frontier is not all there.
	ClaimSeed(ctx context.Context, worker string) (mine, seeded bool, err error)
	// Lease leases to worker up to n pending URLs of depth that no live
	// lease holds, in Loc order, until ttl from now: it selects them
	// FOR UPDATE SKIP LOCKED (workers leasing at once take different
	// URLs), then calls admit on each, in the same transaction, which
	// may decide the URL instead (with [CrawlTx.Skip]) and return false.
	// counted is the URL's counted mark (set by an earlier lease whose
	// worker died). The admitted URLs are returned.
	Lease(ctx context.Context, worker string, depth, n int, ttl time.Duration, admit func(tx CrawlTx, u CrawlURL, counted bool) (bool, error)) ([]CrawlURL, error)
	// Renew extends every lease of worker to ttl from now and records
	// that it is alive, having fetched pages pages. It returns an error
	// wrapping [ErrCrawlLeft] when the worker is no longer part of the
	// run (a new run started).
	Renew(ctx context.Context, worker string, ttl time.Duration, pages int) error
	// Holding reports which of locs are pending and leased to worker
	// now (as [LeaseTx.Holds], outside a transaction: no row is
	// locked), so that a worker touches nothing for a URL it lost.
	Holding(ctx context.Context, worker string, locs []string) (map[string]bool, error)
	// Leave gives back worker's leases (another worker may take them at
	// once) and removes it from the live workers.
	Leave(ctx context.Context, worker string) error
	// Politeness makes gap the least time between two requests to host,
	// unless a worker asked for a larger one in this run.
	Politeness(ctx context.Context, host string, gap time.Duration) error
	// Slot reserves the next request to host: it returns how long to wait
	// before making it (0 or less: at once). The next slot is one gap
	// later. A host Politeness was not called for has no limit.
	Slot(ctx context.Context, host string) (time.Duration, error)
	// Pause makes the next slot of host no earlier than d from now (a
	// 429 or 503's Retry-After, for every worker).
	Pause(ctx context.Context, host string, d time.Duration) error
	// Paused returns how long the host's last pause still lasts (0 or
	// less: none), for a request whose slot was reserved before the
	// pause was asked for: it is not to be made before the pause ends.
	Paused(ctx context.Context, host string) (time.Duration, error)
	// FinishShared finishes the run as [CrawlTx.Finish] does, when it is
	// running and, unless reason is set, seeded with nothing pending:
	// true for the one caller that did it, false when the run was
	// already finished, is not seeded yet, or some URL is pending.
	FinishShared(ctx context.Context, reason string) (bool, error)
	// Status reads the run's progress: the frontier, the workers, the
	// pages fetched lately.
	Status(ctx context.Context) (CrawlStatus, error)
}

// LeaseTx is the [CrawlTx] of a [SharedCrawlLog]'s Update.
type LeaseTx interface {
	CrawlTx
	// Held reports whether loc is pending and leased to worker (its
	// lease may have run out, but no other worker has taken it): only
	// then is the worker's result for it to be written. It locks the
	// URL's row until the transaction ends.
	Held(ctx context.Context, loc, worker string) (bool, error)
	// Holds is Held of every loc of locs, in one statement: the set of
	// those held.
	Holds(ctx context.Context, worker string, locs []string) (map[string]bool, error)
}

// CrawlWorker is one worker of a shared crawl, as [SharedCrawlLog.Join]
// records it and [CrawlStatus] reports it.
type CrawlWorker struct {
	// ID names the worker, unique in the run (e.g. host-pid-random).
	ID string
	// Host and PID say where it runs, for people reading the status.
	Host string
	PID  int
	// Lease is the worker's lease time: it counts as alive until that
	// long after its last Join or Renew.
	Lease time.Duration

	// Read back by Status: when it joined and was last heard of, the
	// pages it fetched, and whether it is alive (heard of within Lease).
	Started, Seen time.Time
	Pages         int
	Alive         bool
}

// CrawlStatus is the progress of a shared crawl, from
// [SharedCrawlLog.Status].
type CrawlStatus struct {
	// Start and Time are the run's start URL and time; State is
	// "running", "finished", or "" when the log holds no run.
	Start string
	Time  time.Time
	State string
	// Seeded is set once the run's seeds are in (its frontier is
	// complete: before, an empty frontier does not mean done).
	Seeded bool
	// Pending counts the frontier (URLs to fetch), Leased those of them
	// a live lease holds (in flight), Decided the URLs done or left out,
	// Fetched the pages fetched.
	Pending, Leased, Decided, Fetched int
	// Workers are the workers the run has heard of, by ID.
	Workers []CrawlWorker
	// Recent counts the pages fetched in the last RecentWindow.
	Recent int
	// Now is the database's time the status was read at.
	Now time.Time
}

// RecentWindow is the time over which [CrawlStatus.Recent] counts pages.
const RecentWindow = 10 * time.Second

// PagesPerSecond is the fetch rate of the last RecentWindow.
func (s CrawlStatus) PagesPerSecond() float64 {
	return float64(s.Recent) / RecentWindow.Seconds()
}

// Alive counts the live workers.
func (s CrawlStatus) Alive() int {
	n := 0
	for _, w := range s.Workers {
		if w.Alive {
			n++
		}
	}
	return n
}

// ErrCrawlBusy is wrapped by [SharedCrawlLog.Join] when the log holds
// another run (a finished one being published, or one of another start
// URL) that a live worker is part of.
var ErrCrawlBusy = errors.New("a crawl with live workers holds the state")

// ErrCrawlFinished is wrapped by [SharedCrawlLog.Join] when the log
// holds a finished run of the start URL and the caller did not ask for a
// new one.
var ErrCrawlFinished = errors.New("the crawl is finished")

// ErrCrawlLeft is wrapped by [SharedCrawlLog.Renew] when the worker is no
// longer part of the run.
var ErrCrawlLeft = errors.New("the worker is no longer part of the crawl")

// ErrConflict is wrapped by the errors of a [SharedCrawlLog]'s Update
// (and the other methods that write) when the database ended the
// transaction because of another one writing the same rows at the same
// time (a deadlock or a serialization failure): nothing was written, and
// the same transaction may be tried again.
var ErrConflict = errors.New("the transaction conflicted with another one; nothing was written")
