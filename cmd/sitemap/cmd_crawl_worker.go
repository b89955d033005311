package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/state"
)

// workerFlags are the flags of a crawl shared by workers through a
// PostgreSQL state: --worker, --lease, --finish, --status.
type workerFlags struct {
	Worker bool
	Again  bool
	Lease  time.Duration
	Finish bool
	Status bool

	flags *pflag.FlagSet // to tell the flags given
}

func (w *workerFlags) register(f *pflag.FlagSet) {
	w.flags = f
	f.BoolVar(&w.Worker, "worker", false, "crawl together with other workers through --state postgres://…")
	f.BoolVar(&w.Again, "again", false, "with --worker: crawl again when the database holds a finished crawl")
	f.DurationVar(&w.Lease, "lease", crawl.DefaultLease, "with --worker: how long a URL stays a worker's without a renewal")
	f.BoolVar(&w.Finish, "finish", false, "publish a shared crawl whose workers died before publishing")
	f.BoolVar(&w.Status, "status", false, "show the shared crawl: frontier, workers alive, pages per second")
}

func (o *crawlOptions) registerWorker(f *pflag.FlagSet) { o.workerFlags.register(f) }

// check refuses what the flags cannot do.
func (w *workerFlags) check(st string) error {
	n := 0
	for _, b := range []bool{w.Worker, w.Finish, w.Status} {
		if b {
			n++
		}
	}
	if !w.Worker && w.flags != nil {
		for _, name := range []string{"lease", "again"} {
			if w.flags.Changed(name) {
				return cannotRun("--%s is a flag of a crawl's worker: add --worker (with --state postgres://…)", name)
			}
		}
	}
	if n == 0 {
		return nil
	}
	if n > 1 {
		return cannotRun("give one of --worker, --finish and --status")
	}
	name := "--worker"
	switch {
	case w.Finish:
		name = "--finish"
	case w.Status:
		name = "--status"
	}
	if !state.IsPostgres(st) {
		return cannotRun("%s needs a PostgreSQL state (--state postgres://user:password@host/db): workers share the crawl through the database; a state file is one process's crawl", name)
	}
	if w.Lease < time.Second {
		return cannotRun("--lease %s: give at least 1s (a worker renews its leases every third of it)", w.Lease)
	}
	return nil
}

// openShared opens the PostgreSQL state of --state and its shared crawl
// log.
func openShared(ctx context.Context, o *crawlOptions) (*state.Postgres, state.SharedCrawlLog, error) {
	st, err := state.OpenPostgres(ctx, o.State, state.PostgresOptions{})
	if err != nil {
		return nil, nil, cannotRun("%v", err)
	}
	return st, st.Crawl().(state.SharedCrawlLog), nil
}

// runCrawlStatus prints the shared crawl's progress.
func runCrawlStatus(ctx context.Context, o *crawlOptions, s *streams) error {
	st, log, err := openShared(ctx, o)
	if err != nil {
		return err
	}
	defer st.Close()
	cs, err := log.Status(ctx)
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.JSON {
		err = crawl.WriteStatusJSON(s.Out, cs)
	} else {
		err = crawl.WriteStatus(s.Out, cs, state.Redact(o.State))
	}
	if err != nil {
		return cannotRun("writing the status: %v", err)
	}
	return nil
}

// finishStart is the start URL of the crawl --finish publishes: the
// database's (START-URL, when given, must be it).
func finishStart(ctx context.Context, o *crawlOptions) (string, error) {
	st, log, err := openShared(ctx, o)
	if err != nil {
		return "", err
	}
	defer st.Close()
	cs, err := log.Status(ctx)
	if err != nil {
		return "", cannotRun("%v", err)
	}
	if cs.State == "" {
		return "", cannotRun("--finish: %s holds no crawl; start one with sitemap crawl START-URL --state … --worker", state.Redact(o.State))
	}
	if o.Start != "" && o.Start != cs.Start {
		return "", cannotRun("--finish: %s holds the crawl of %s, not %s", state.Redact(o.State), cs.Start, o.Start)
	}
	return cs.Start, nil
}

// runWorker runs one worker. done is set when there is nothing more for
// this process to do: another worker publishes.
func runWorker(ctx context.Context, st *state.DB, co crawl.Options, o *crawlOptions, shown string, s *streams) (*crawl.Crawler, crawl.Summary, bool, error) {
	log, ok := st.Crawl().(state.SharedCrawlLog)
	if !ok {
		return nil, crawl.Summary{}, true, cannotRun("--worker needs a PostgreSQL state")
	}
	cr, err := crawl.NewWorker(ctx, st, log, o.Start, co, crawl.WorkerOptions{Lease: o.Lease, Again: o.Again})
	if errors.Is(err, state.ErrCrawlFinished) {
		fmt.Fprintf(s.Err, "sitemap: the crawl of %s in %s is finished: nothing to do (sitemap crawl --state … --finish publishes it again; add --again to crawl the site again)\n", o.Start, shown)
		return nil, crawl.Summary{}, true, nil
	}
	if err != nil {
		if errors.Is(err, state.ErrCrawlBusy) {
			return nil, crawl.Summary{}, true, cannotRun("crawl: %s: %v", shown, err)
		}
		return nil, crawl.Summary{}, true, cannotRun("crawl: %v", err)
	}
	how := "joined the crawl"
	if !cr.Resumed() {
		how = "started a new crawl"
	}
	fmt.Fprintf(s.Err, "sitemap: worker %s %s of %s in %s\n", cr.WorkerID(), how, o.Start, shown)
	sum, err := cr.Run(ctx)
	if err != nil {
		return cr, sum, false, err
	}
	if sum.Finished {
		if cs, err := log.Status(ctx); err == nil {
			fmt.Fprintf(s.Err, "sitemap: worker %s finished the crawl (%s fetched by all its workers) and publishes it\n", cr.WorkerID(), plural.Of(cs.Fetched, "page", "pages"))
		}
		return cr, sum, false, nil
	}
	for _, w := range sum.Warnings {
		fmt.Fprintf(s.Err, "sitemap: warning: %s\n", w)
	}
	if err := cr.Leave(context.WithoutCancel(ctx)); err != nil {
		return cr, sum, true, cannotRun("crawl: %v", err)
	}
	fmt.Fprintf(s.Err, "sitemap: worker %s: %s fetched in %s; the frontier is empty and another worker publishes (sitemap crawl --state … --finish publishes, should it die first)\n",
		cr.WorkerID(), plural.Of(sum.Fetched, "page", "pages"), sum.Elapsed.Round(time.Millisecond))
	return cr, sum, true, nil
}

// finishCrawl finishes (when its workers could not) and reads the shared
// crawl, for publishing.
func finishCrawl(ctx context.Context, st *state.DB, co crawl.Options, o *crawlOptions, shown string) (*crawl.Crawler, crawl.Summary, error) {
	log := st.Crawl()
	cr, err := crawl.Open(st, log, o.Start, co)
	if err != nil {
		return nil, crawl.Summary{}, cannotRun("crawl: %v", err)
	}
	sum, err := cr.Finish(ctx)
	if errors.Is(err, crawl.ErrPending) {
		return nil, sum, cannotRun("--finish: the crawl in %s is not done (%v): start workers (sitemap crawl %s --state … --worker) to crawl the rest, or wait for them; sitemap crawl --state … --status shows the progress", shown, err, o.Start)
	}
	if err != nil {
		return nil, sum, cannotRun("crawl: %v", err)
	}
	return cr, sum, nil
}
