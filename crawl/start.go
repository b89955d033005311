package crawl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/state"
)

// Mode is how one process takes part in a crawl ([Start]).
type Mode int

const (
	// Alone crawls in this process: the unfinished crawl of the same
	// start URL in the state is resumed, else a new one starts ([New]).
	Alone Mode = iota
	// Worker crawls as one of the workers of a crawl shared through a
	// PostgreSQL state ([NewWorker]).
	Worker
	// Finisher finishes and reads a shared crawl whose workers all died
	// before one of them could publish it ([Open], [Crawler.Finish]).
	Finisher
)

// StartOptions say how [Start] takes part in the crawl and where it tells
// what happens on the way.
type StartOptions struct {
	Mode   Mode
	Worker WorkerOptions // for Mode Worker
	// Shown is the state's name in errors and notes: a file, or a
	// PostgreSQL URL without its password (state.Redact).
	Shown string
	// Note, when set, is told each line a person running the crawl
	// wants to read (a crawl resumed or replaced, a worker joining,
	// finishing, or leaving the end to another), without a prefix.
	Note func(string)
}

// A RunError is the error of a crawl that started and stopped before its
// end: its context done (its frontier is kept in the state, or a
// worker's URLs go back to the others), or the state or site failing.
// Start's errors that are not RunErrors happen before a request is made.
type RunError struct{ Err error }

func (e *RunError) Error() string { return e.Err.Error() }
func (e *RunError) Unwrap() error { return e.Err }

// Start runs the crawl of start that the state st holds, the way o.Mode
// says, and returns the Crawler whose Entries and Outcomes are to be
// published. publish is false when this process has nothing to publish:
// a worker that found the crawl finished (run again with
// WorkerOptions.Again to crawl again), or whose frontier is empty while
// another worker publishes (it has left: its URLs went back); cr is then
// nil or left. A worker's Crawler that is returned must be left
// ([Crawler.Leave]) once published; a crawl made Alone ignores Leave.
//
// Errors name the state by so.Shown and say what to do: a crawl held by
// another process (state.ErrCrawlBusy), a --finish of a crawl still
// pending (ErrPending). An error of the run itself is a *[RunError],
// returned with the Crawler and the Summary so far.
func Start(ctx context.Context, st *state.DB, start string, o Options, so StartOptions) (cr *Crawler, sum Summary, publish bool, err error) {
	note := so.Note
	if note == nil {
		note = func(string) {}
	}
	switch so.Mode {
	case Worker:
		return startWorker(ctx, st, start, o, so, note)
	case Finisher:
		return finish(ctx, st, start, o, so.Shown)
	}
	cr, err = New(ctx, st, st.Crawl(), start, o)
	if errors.Is(err, state.ErrCrawlBusy) {
		return nil, sum, false, fmt.Errorf("crawl: %s: %w (add --worker to crawl with them)", so.Shown, err)
	}
	if err != nil {
		return nil, sum, false, fmt.Errorf("crawl: state file %s: %w", so.Shown, err)
	}
	if cr.Resumed() {
		note("resuming the unfinished crawl in " + so.Shown)
	}
	if d := cr.Discarded(); d != "" {
		note(fmt.Sprintf("note: %s held an unfinished crawl of %s, which this crawl of %s replaces (a crawl continues only when run with the same START-URL)", so.Shown, d, start))
	}
	if sum, err = cr.Run(ctx); err != nil {
		return cr, sum, false, &RunError{err}
	}
	return cr, sum, true, nil
}

// startWorker is Start for Mode Worker.
func startWorker(ctx context.Context, st *state.DB, start string, o Options, so StartOptions, note func(string)) (*Crawler, Summary, bool, error) {
	log, ok := st.Crawl().(state.SharedCrawlLog)
	if !ok {
		return nil, Summary{}, false, errors.New("--worker needs a PostgreSQL state")
	}
	cr, err := NewWorker(ctx, st, log, start, o, so.Worker)
	switch {
	case errors.Is(err, state.ErrCrawlFinished):
		note(fmt.Sprintf("the crawl of %s in %s is finished: nothing to do (sitemap crawl --state … --finish publishes it again; add --again to crawl the site again)", start, so.Shown))
		return nil, Summary{}, false, nil
	case errors.Is(err, state.ErrCrawlBusy):
		return nil, Summary{}, false, fmt.Errorf("crawl: %s: %w", so.Shown, err)
	case err != nil:
		return nil, Summary{}, false, fmt.Errorf("crawl: %w", err)
	}
	how := "joined the crawl"
	if !cr.Resumed() {
		how = "started a new crawl"
	}
	note(fmt.Sprintf("worker %s %s of %s in %s", cr.WorkerID(), how, start, so.Shown))
	sum, err := cr.Run(ctx)
	if err != nil {
		return cr, sum, false, &RunError{err}
	}
	if sum.Finished {
		if cs, err := log.Status(ctx); err == nil {
			note(fmt.Sprintf("worker %s finished the crawl (%s fetched by all its workers) and publishes it", cr.WorkerID(), plural.Of(cs.Fetched, "page", "pages")))
		}
		return cr, sum, true, nil
	}
	for _, w := range sum.Warnings {
		note("warning: " + w)
	}
	if err := cr.Leave(context.WithoutCancel(ctx)); err != nil {
		return cr, sum, false, fmt.Errorf("crawl: %w", err)
	}
	note(fmt.Sprintf("worker %s: %s fetched in %s; the frontier is empty and another worker publishes (sitemap crawl --state … --finish publishes, should it die first)",
		cr.WorkerID(), plural.Of(sum.Fetched, "page", "pages"), sum.Elapsed.Round(time.Millisecond)))
	return cr, sum, false, nil
}

// finish is Start for Mode Finisher.
func finish(ctx context.Context, st *state.DB, start string, o Options, shown string) (*Crawler, Summary, bool, error) {
	cr, err := Open(st, st.Crawl(), start, o)
	if err != nil {
		return nil, Summary{}, false, fmt.Errorf("crawl: %w", err)
	}
	sum, err := cr.Finish(ctx)
	if errors.Is(err, ErrPending) {
		return nil, sum, false, fmt.Errorf("--finish: the crawl in %s is not done (%w): start workers (sitemap crawl %s --state … --worker) to crawl the rest, or wait for them; sitemap crawl --state … --status shows the progress", shown, err, start)
	}
	if err != nil {
		return nil, sum, false, fmt.Errorf("crawl: %w", err)
	}
	return cr, sum, true, nil
}

// SharedStart is the start URL of the shared crawl log holds, for a
// --finish that may leave START-URL out; start, when not "", must be
// it. shown names the state in the errors.
func SharedStart(ctx context.Context, log state.SharedCrawlLog, start, shown string) (string, error) {
	cs, err := log.Status(ctx)
	if err != nil {
		return "", err
	}
	if cs.State == "" {
		return "", fmt.Errorf("--finish: %s holds no crawl; start one with sitemap crawl START-URL --state … --worker", shown)
	}
	if start != "" && start != cs.Start {
		return "", fmt.Errorf("--finish: %s holds the crawl of %s, not %s", shown, cs.Start, start)
	}
	return cs.Start, nil
}
