package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/source"
)

// submitOptions are the flags and arguments of `sitemap submit`.
type submitOptions struct {
	indexnow.Settings
	// client sends the batches and reads URL inputs (tests may set it).
	client *fetch.Client
}

func newSubmitCmd(s *streams) *cobra.Command {
	o := &submitOptions{}
	c := withHelp("submit", &cobra.Command{
		Use:  "submit [flags] INPUT...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runSubmit(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Key, "key", "", "the IndexNow `KEY` (IN-03)")
	f.StringVar(&o.KeyFile, "key-file", "", "read the key from its key `FILE` instead of --key")
	f.StringVar(&o.Host, "host", "", "`HOST` every URL must be on (default: the host of --key-location)")
	f.StringVar(&o.KeyLocation, "key-location", "", "`URL` of the key file when not https://HOST/KEY.txt (IN-05)")
	f.StringVar(&o.Endpoint, "endpoint", indexnow.DefaultEndpoint, "IndexNow `URL` to POST to")
	f.BoolVar(&o.VerifyKey, "verify-key", false, "check the live key file before submitting")
	f.BoolVar(&o.DryRun, "dry-run", false, "print each batch's JSON body and send nothing")
	f.Int64Var(&o.MaxPerDay, "max-per-day", 0, "send at most `N` URLs in 24 hours, the rest later (0: no limit)")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.StringVar(&o.State, "state", "", "state `FILE` or postgres:// database recording every submission")
	f.IntVar(&o.BatchSize, "batch-size", indexnow.MaxBatch, "most URLs in one POST (at most 10,000, IN-08)")
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	f.DurationVar(&o.LockWait, "lock-wait", 10*time.Minute, "longest a batch waits for another run's lock on --state")
	return c
}

// runSubmit runs indexnow.Run: exit 1 when something read was not
// offered or accepted (or an input is not text), 2 when the run could not
// go on.
func runSubmit(ctx context.Context, o *submitOptions, s *streams) error {
	o.Client = o.client
	sum, err := indexnow.Run(ctx, o.Settings, s.In, s.Out, s.Err)
	switch {
	case errors.Is(err, source.ErrBinary):
		// A problem of the input (F-04), as generate says of it.
		return &exitError{Code: exitProblems, Err: err}
	case err != nil:
		return cannotRun("%v", err)
	case !sum.OK():
		return problemsFound()
	}
	return nil
}
