package indexnow

import (
	"context"
	"sync"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Queue submits the URLs a running program hands it (a sitemap server's
// added and changed entries) in batches through [Submit]: every interval,
// what was added since is sent, the Ledger skipping what it has seen sent
// at that version, the quota and the engines' 429s respected as Submit
// does. A URL added twice before it is sent is sent once, at its latest
// version. Create it with [NewQueue]; Add may be called from any
// goroutine while Run runs.
type Queue struct {
	o       Options
	every   time.Duration
	max     int
	mu      sync.Mutex
	pending map[string]sitemap.URL
	order   []string
	dropped int64
	kick    chan struct{}
	// Start's context and goroutines (Run, CatchUp).
	ctx     context.Context
	stopRun context.CancelFunc
	running sync.WaitGroup
	// Sent, when set, is told of each round's Summary and error.
	Sent func(Summary, error)
}

// MaxQueued is the most URLs a Queue holds unsent; past it, Add drops
// URLs (counted by Dropped, which a caller should tell): with a Ledger, a
// later submission of the whole site sends them.
const MaxQueued = 1_000_000

// NewQueue returns a Queue sending with o every interval (2 seconds when
// 0).
func NewQueue(o Options, every time.Duration) *Queue {
	if every <= 0 {
		every = 2 * time.Second
	}
	return &Queue{o: o, every: every, max: MaxQueued, pending: map[string]sitemap.URL{}, kick: make(chan struct{}, 1)}
}

// Add queues urls (their Loc and LastMod are what is sent and recorded).
func (q *Queue) Add(urls []sitemap.URL) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, u := range urls {
		if _, ok := q.pending[u.Loc]; !ok {
			if len(q.order) >= q.max {
				q.dropped++
				continue
			}
			q.order = append(q.order, u.Loc)
		}
		q.pending[u.Loc] = sitemap.URL{Loc: u.Loc, LastMod: u.LastMod}
	}
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// Dropped is the number of URLs Add dropped because the queue was full.
func (q *Queue) Dropped() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// take empties the queue.
func (q *Queue) take() []sitemap.URL {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]sitemap.URL, 0, len(q.order))
	for _, loc := range q.order {
		out = append(out, q.pending[loc])
	}
	q.order = nil
	q.pending = map[string]sitemap.URL{} // not clear: a burst's map would keep its size
	return out
}

// Run sends what is queued, at most every interval, until ctx is done;
// then it returns ctx's error (what is still queued is not sent). A round
// that fails is told to Sent and its URLs are not queued again: the
// Ledger, when there is one, has not recorded them, so a later
// submission of the site sends them.
func (q *Queue) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-q.kick:
		}
		urls := q.take()
		if len(urls) > 0 {
			sum, err := Submit(ctx, func(ctx context.Context, yield func(*sitemap.URL) error) error {
				for i := range urls {
					if err := yield(&urls[i]); err != nil {
						return err
					}
				}
				return nil
			}, q.o)
			if q.Sent != nil {
				q.Sent(sum, err)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(q.every):
		}
	}
}

// Start runs q (Run) in the background until the stop it returns is
// called, which waits for it and for a CatchUp in progress. Call it once.
func (q *Queue) Start(ctx context.Context) (stop func()) {
	q.ctx, q.stopRun = context.WithCancel(ctx)
	q.running.Go(func() { q.Run(q.ctx) })
	return func() { q.stopRun(); q.running.Wait() }
}

// CatchUp submits, in the background of a started Queue and with its
// Options, every entry of entries: with a Ledger, only what it has not
// seen sent at its version, which is what changed while no queue ran
// (one ledger lookup per URL). done, when set, is told the Summary and
// the error (nil when Start's stop ended it).
func (q *Queue) CatchUp(entries sitemap.Entries, done func(Summary, error)) {
	q.running.Go(func() {
		sum, err := Submit(q.ctx, entries, q.o)
		if q.ctx.Err() != nil {
			err = nil
		}
		if done != nil {
			done(sum, err)
		}
	})
}
