package crawl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/time/rate"

	"github.com/sitemapkit/sitemap/state"
)

// DefaultLease is the lease time of a worker of a shared crawl when
// WorkerOptions.Lease is not set.
const DefaultLease = 20 * time.Second

// WorkerOptions configure one worker of a shared crawl ([NewWorker]).
type WorkerOptions struct {
	// ID names the worker in the crawl log; default host-pid-random.
	ID string
	// Lease is how long a URL handed to the worker stays its own
	// without a renewal (default DefaultLease). The worker renews its
	// leases and its heartbeat every third of it while it runs; a worker
	// that dies (kill -9, a lost machine) holds its URLs at most this
	// long before another worker takes them, and counts as alive as long.
	Lease time.Duration
	// Poll is how long a worker with nothing to lease waits before it
	// looks again (default Lease/50, between 20ms and 1s).
	Poll time.Duration
	// Again starts a new crawl of start when the log holds a finished
	// one (the site crawled again). Without it, NewWorker returns an
	// error wrapping [state.ErrCrawlFinished] then: a worker that starts
	// when the others are done does not crawl the whole site again alone.
	Again bool
}

func (w WorkerOptions) withDefaults() WorkerOptions {
	if w.Lease <= 0 {
		w.Lease = DefaultLease
	}
	if w.Poll <= 0 {
		w.Poll = min(max(w.Lease/50, 20*time.Millisecond), time.Second)
	}
	if w.ID == "" {
		host, _ := os.Hostname()
		var b [4]byte
		_, _ = rand.Read(b[:])
		w.ID = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
	}
	return w
}

// NewWorker prepares one worker of a crawl of start shared by any number
// of processes, on any machines, through log (a [state.Postgres]'s
// Crawl()): it joins the log's run of start ([state.SharedCrawlLog.Join]:
// the unfinished run of start, else a new one). [Crawler.Run] then
// leases URLs from the shared frontier, level by level as [New]'s crawl
// does, fetches them, writes what it found, and returns when the
// frontier is empty; the one worker whose Summary says Finished publishes
// the sitemaps ([Crawler.Entries]). Every worker must call
// [Crawler.Leave] when done (the finisher after publishing: until then it
// keeps its heartbeat, so that no new run starts under it).
//
// Politeness is the site's, not the worker's: the request rate
// (Options.Rate, robots.txt's Crawl-delay; the slowest any worker asks
// for) and the pauses after a 429 or 503 are kept in the crawl log's row
// of the host, so that all the workers together keep them.
// Options.Concurrency is per worker.
//
// The set of URLs crawled, their depths and referrers are those of a
// crawl by one process (a level is leased only when the one before is
// written). MaxPages and MaxTime are not supported (an error): stop the
// workers instead. The query-variant cap (MaxQueryVariants) is checked
// when a URL is leased; workers leasing variants of one path at the same
// moment may admit one batch more each.
func NewWorker(ctx context.Context, st state.Store, log state.SharedCrawlLog, start string, o Options, w WorkerOptions) (*Crawler, error) {
	if o.MaxPages > 0 || o.MaxTime > 0 {
		return nil, errors.New("a shared crawl's workers take no page or time limit (max-pages, max-time): stop the workers to stop the crawl")
	}
	o = o.withDefaults()
	w = w.withDefaults()
	c, err := newCrawler(st, log, start, o)
	if err != nil {
		return nil, err
	}
	c.shared, c.worker = log, w
	host, _ := os.Hostname()
	c.run, err = log.Join(ctx, c.start.String(), o.Now(), state.CrawlWorker{ID: w.ID, Host: host, PID: os.Getpid(), Lease: w.Lease}, w.Again)
	if err != nil {
		return nil, err
	}
	beat, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	c.stopBeat = func() { stop(); <-done }
	go func() {
		defer close(done)
		c.heartbeat(beat)
	}()
	return c, nil
}

// heartbeat renews the worker's leases every third of the lease time
// until ctx ends. A worker the log no longer knows (a new run started)
// stops the run.
func (c *Crawler) heartbeat(ctx context.Context) {
	t := time.NewTicker(c.worker.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := c.shared.Renew(ctx, c.worker.ID, c.worker.Lease, int(c.pages.Load()))
		if errors.Is(err, state.ErrCrawlLeft) {
			c.failed(err)
		}
		// Other errors (the database restarting) are tried again at
		// the next tick; the leases last three ticks.
	}
}

// Leave ends a worker's part in a shared crawl: its heartbeat stops, the
// URLs it still holds go back to the frontier at once, and it no longer
// counts as alive. It does nothing for a crawl made with [New].
func (c *Crawler) Leave(ctx context.Context) error {
	if c.shared == nil || c.left {
		return nil
	}
	c.stopHeartbeat()
	c.left = true
	return c.shared.Leave(ctx, c.worker.ID)
}

// stopHeartbeat stops renewing the worker's leases.
func (c *Crawler) stopHeartbeat() {
	if c.stopBeat != nil {
		c.stopBeat()
		c.stopBeat = nil
	}
}

// WorkerID is the worker's ID in the crawl log ("" for a crawl made with
// [New]).
func (c *Crawler) WorkerID() string { return c.worker.ID }

// failed keeps the first error of the crawl log met outside the
// coordinator; the run stops with it.
func (c *Crawler) failed(err error) {
	if err == nil {
		return
	}
	c.errMu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.errMu.Unlock()
}

func (c *Crawler) failure() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

// sharedWait reserves the host's next slot and waits for it.
// A pause asked for (by any worker) while it waited holds it too: it
// then reserves a slot after the pause.
func (c *Crawler) sharedWait(ctx context.Context) error {
	for {
		d, err := c.shared.Slot(ctx, c.start.Host)
		if err != nil {
			c.failed(err)
			return err
		}
		if d <= 0 {
			return nil // at once: no pause began in between
		}
		if err := sleep(ctx, d); err != nil {
			return err
		}
		p, err := c.shared.Paused(ctx, c.start.Host)
		if err != nil {
			c.failed(err)
			return err
		}
		if p <= 0 {
			return nil
		}
	}
}

// seedShared seeds the shared run when this worker is the one to
// ([state.SharedCrawlLog.ClaimSeed]: one worker seeds, once), or waits
// until the worker that is seeding it is done (or dies: then this one
// may take over).
func (c *Crawler) seedShared(ctx context.Context) error {
	for !c.run.Seeded {
		mine, seeded, err := c.shared.ClaimSeed(ctx, c.worker.ID)
		switch {
		case err != nil:
			return err
		case seeded:
			c.run.Seeded = true
		case mine:
			// The seeds in one transaction, tried again when it
			// conflicts with another (the warnings of the walk once).
			warned := len(c.warnings)
			for try := 0; ; try++ {
				c.warnings = c.warnings[:warned]
				if err = c.seed(ctx); !errors.Is(err, state.ErrConflict) || try == 9 {
					break
				}
				if err := sleep(ctx, time.Duration(try+1)*10*time.Millisecond); err != nil {
					return err
				}
			}
			if err != nil {
				return err
			}
			c.run.Seeded = true
		default:
			if err := c.failure(); err != nil {
				return err
			}
			if err := sleep(ctx, c.worker.Poll); err != nil {
				return err
			}
		}
	}
	return nil
}

// runShared is Run for a worker: after robots.txt and the seeds, it
// crawls its share and, when the frontier is empty, tries to finish the
// run.
func (c *Crawler) runShared(ctx context.Context, t0 time.Time, sum Summary) (Summary, error) {
	sum.Resumed = false // joining the run is not resuming a killed one
	var gap time.Duration
	if l := c.limiter.Limit(); l != rate.Inf && l > 0 {
		gap = time.Duration(float64(time.Second) / float64(l))
	}
	if err := c.shared.Politeness(ctx, c.start.Host, gap); err != nil {
		return sum, err
	}
	for {
		if err := c.loopShared(ctx); err != nil {
			return sum, err
		}
		won, err := c.shared.FinishShared(ctx, "")
		if err != nil {
			return sum, err
		}
		if won {
			sum.Finished = true
			sum, err = c.summarize(ctx, t0, sum, "")
			if err != nil {
				return sum, err
			}
			// The publisher's summary is the crawl's, as Finish's.
			sum.Fetched, err = c.log.Fetched(ctx)
			return sum, err
		}
		// Finished by another worker, or a URL came back (a worker's
		// last results written after this one looked): look again.
		if _, ok, err := c.log.NextDepth(ctx); err != nil {
			return sum, err
		} else if ok {
			continue
		}
		// Nothing pending now: the run is finished (by another
		// worker), or the URL that kept it from finishing was written
		// after FinishShared looked, by a worker that may die before
		// it finishes the run: finish it again.
		st, err := c.shared.Status(ctx)
		if err != nil {
			return sum, err
		}
		if st.State != "running" || st.Start != c.start.String() {
			break
		}
		if err := sleep(ctx, c.worker.Poll); err != nil {
			return sum, err
		}
	}
	return c.summarize(ctx, t0, sum, "")
}

// A worker holds up to ahead URLs leased and not yet fetched or
// written (so that its fetchers have work while it writes), and writes
// its fetched pages' results writeBatch at a time, when nothing is in
// flight, or when the oldest is maxHold old.
const (
	ahead      = 32
	writeBatch = 32
	maxHold    = 200 * time.Millisecond
)

// loopShared is the coordinator of a worker: it leases URLs of the
// shallowest pending depth, up to ahead more than its fetchers are
// busy with, hands them to its fetchers, and writes their results
// writeBatch at a time, or when nothing is in flight, or after maxHold
// (so that the other workers are not held long at the end of a level by
// results waiting here). It returns when nothing is pending and nothing
// is in flight.
func (c *Crawler) loopShared(ctx context.Context) error {
	n := c.o.Concurrency
	limit := n + ahead // URLs leased and not yet resulted
	pool := c.startFetchers(ctx, n, limit)
	defer pool.stop()
	var h heldResults
	for {
		if err := c.failure(); err != nil {
			return err // a result of a failed wait is not written
		}
		if len(h.batch) > 0 && (len(h.batch) >= writeBatch || h.inflight == 0 || time.Since(h.oldest) >= maxHold) {
			if err := c.writeStillHeld(ctx, h.batch); err != nil {
				return err
			}
			h.batch = h.batch[:0]
		}
		full := false
		if room := limit - h.inflight; room >= n || (h.inflight == 0 && room > 0) {
			leased, ok, err := c.leaseNext(ctx, pool.tasks, room)
			if err != nil {
				return err
			}
			if !ok && h.inflight == 0 && len(h.batch) == 0 {
				return nil
			}
			if ok {
				h.inflight += leased
				full = leased == room
			}
		}
		if full && h.inflight < limit {
			continue
		}
		wait := c.worker.Poll
		if len(h.batch) > 0 {
			wait = min(wait, max(maxHold-time.Since(h.oldest), 0))
		}
		if err := h.await(ctx, pool.results, wait); err != nil {
			return err
		}
	}
}

// heldResults is what loopShared holds: results not written yet and
// requests in flight.
type heldResults struct {
	batch    []result  // fetched, not written yet
	oldest   time.Time // when the first result of batch came
	inflight int       // handed to the fetchers, no result yet
}

// take holds the result r of a request in flight.
func (h *heldResults) take(r result) {
	if len(h.batch) == 0 {
		h.oldest = time.Now()
	}
	h.batch = append(h.batch, r)
	h.inflight--
}

// await waits up to wait for a result from results, then takes it and
// every other result already there; none after wait. It returns ctx's
// error when ctx is done first.
func (h *heldResults) await(ctx context.Context, results <-chan result, wait time.Duration) error {
	timer := time.NewTimer(wait)
	select {
	case <-ctx.Done():
		timer.Stop()
		return ctx.Err()
	case <-timer.C:
		return nil
	case r := <-results:
		timer.Stop()
		h.take(r)
	}
	for more := true; more; {
		select {
		case r := <-results:
			h.take(r)
		default:
			more = false
		}
	}
	return nil
}

// writeStillHeld writes the results of batch whose URLs are still leased
// to this worker (none: nothing is written, but the counts and progress
// are still told), counts them, tells Options.Progress and
// Options.Frontier. An error of the crawl log or the store is returned.
func (c *Crawler) writeStillHeld(ctx context.Context, batch []result) error {
	// Only the results of URLs still leased to this worker
	// touch the store: one whose lease ran out is another's
	// (its result must not overwrite theirs); the crawl log's
	// write checks again, under the rows' locks.
	kept, err := c.stillHeld(ctx, batch)
	if err != nil {
		return err
	}
	if err := c.write(ctx, kept); err != nil {
		return err
	}
	c.runPages += len(kept)
	c.pages.Add(int64(len(kept)))
	if c.o.Progress != nil {
		c.o.Progress(c.runPages)
	}
	c.frontier(ctx)
	return nil
}

// leaseNext leases up to room URLs of the shallowest pending depth
// (applying the query-variant cap, admit) and hands them to the fetchers
// through tasks. It returns how many it leased, and ok false when nothing
// is pending (then it leases nothing). An error of the crawl log is
// returned.
func (c *Crawler) leaseNext(ctx context.Context, tasks chan<- task, room int) (int, bool, error) {
	d, ok, err := c.log.NextDepth(ctx)
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return 0, false, nil
	}
	us, err := c.shared.Lease(ctx, c.worker.ID, d, room, c.worker.Lease, func(tx state.CrawlTx, u state.CrawlURL, counted bool) (bool, error) {
		return c.admit(ctx, tx, u, counted)
	})
	if err != nil {
		return 0, false, err
	}
	for _, u := range us {
		tasks <- task{Loc: u.Loc, Depth: u.Depth, Referrer: u.Referrer}
	}
	return len(us), true, nil
}

// stillHeld returns the results of batch whose URLs are leased to this
// worker (in a new slice: batch is reused).
func (c *Crawler) stillHeld(ctx context.Context, batch []result) ([]result, error) {
	locs := make([]string, len(batch))
	for i := range batch {
		locs[i] = batch[i].Loc
	}
	held, err := c.shared.Holding(ctx, c.worker.ID, locs)
	if err != nil {
		return nil, err
	}
	kept := make([]result, 0, len(batch))
	for _, r := range batch {
		if held[r.Loc] {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

// admit applies the query-variant cap to a URL being leased: a URL whose
// path has MaxQueryVariants variants before it is decided instead; an
// earlier lease's counted URL is admitted again.
func (c *Crawler) admit(ctx context.Context, tx state.CrawlTx, x state.CrawlURL, counted bool) (bool, error) {
	if x.PathKey == "" || c.o.MaxQueryVariants <= 0 || counted {
		return true, nil
	}
	k, err := tx.Variants(ctx, x.PathKey, x.Depth, x.Loc)
	if err != nil {
		return false, err
	}
	if k >= c.o.MaxQueryVariants {
		return false, tx.Skip(ctx, x.Loc, ReasonQueryVariants)
	}
	return true, tx.Count(ctx, x.Loc)
}

// ErrPending is returned by [Crawler.Finish] when the shared crawl's
// frontier is not empty.
var ErrPending = errors.New("the crawl's frontier is not empty")

// Finish finishes the shared crawl a Crawler made with [Open] reads, when
// its frontier is empty and it is not finished yet (its workers all died
// before one could), and returns the crawl's summary (Fetched: every page
// fetched by the run; Finished: this call finished it). With URLs still
// pending it returns an error wrapping ErrPending.
func (c *Crawler) Finish(ctx context.Context) (Summary, error) {
	t0 := time.Now()
	sum := Summary{Start: c.start.String()}
	if c.shared == nil {
		return sum, errors.New("crawl: Finish needs a shared crawl log (PostgreSQL)")
	}
	won, err := c.shared.FinishShared(ctx, "")
	if err != nil {
		return sum, err
	}
	st, err := c.shared.Status(ctx)
	if err != nil {
		return sum, err
	}
	if st.State == "running" && !st.Seeded {
		return sum, fmt.Errorf("%w: its seeds are not in yet (the worker seeding it died, or is at it), %d live workers", ErrPending, st.Alive())
	}
	if st.State != "finished" {
		return sum, fmt.Errorf("%w: %d URLs pending, %d live workers", ErrPending, st.Pending, st.Alive())
	}
	if st.Start != c.start.String() {
		return sum, fmt.Errorf("the crawl log holds a crawl of %s, not %s", st.Start, c.start)
	}
	sum.Finished = won
	sum, err = c.summarize(ctx, t0, sum, "")
	sum.Fetched = st.Fetched
	return sum, err
}
