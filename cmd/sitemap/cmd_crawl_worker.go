package main

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/crawl"
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
	f.DurationVar(&w.Lease, "lease", crawl.DefaultLease, "with --worker: how long a URL stays a worker's unrenewed")
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
	start, err := crawl.SharedStart(ctx, log, o.Start, state.Redact(o.State))
	if err != nil {
		return "", cannotRun("%v", err)
	}
	return start, nil
}
