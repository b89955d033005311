package main

import (
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/crawl"
)

// registerWorker adds the flags of a crawl shared by workers through a
// PostgreSQL state (crawl.Settings.CheckShared): --worker, --again,
// --lease, --finish, --status.
func registerWorker(f *pflag.FlagSet, s *crawl.Settings) {
	f.BoolVar(&s.Worker, "worker", false, "crawl together with other workers through --state postgres://…")
	f.BoolVar(&s.Again, "again", false, "with --worker: crawl again when the database holds a finished crawl")
	f.DurationVar(&s.Lease, "lease", crawl.DefaultLease, "with --worker: how long a URL stays a worker's unrenewed")
	f.BoolVar(&s.Finish, "finish", false, "publish a shared crawl whose workers died before publishing")
	f.BoolVar(&s.Status, "status", false, "show the shared crawl: frontier, workers alive, pages per second")
}

// checkWorkerFlags refuses --lease and --again given without --worker.
func checkWorkerFlags(f *pflag.FlagSet, worker bool) error {
	if worker {
		return nil
	}
	for _, name := range []string{"lease", "again"} {
		if f.Changed(name) {
			return cannotRun("--%s is a flag of a crawl's worker: add --worker (with --state postgres://…)", name)
		}
	}
	return nil
}
