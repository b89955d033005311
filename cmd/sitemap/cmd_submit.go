package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// submitOptions are the flags and arguments of `sitemap submit`.
type submitOptions struct {
	indexnow.Credentials
	Endpoint                        string
	VerifyKey, DryRun, AllowOffSite bool
	MaxPerDay                       int64
	BatchSize                       int
	State                           string
	Timeout, LockWait               time.Duration
	Inputs                          []string

	UserAgent string
	Scope     fetch.Scope
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

func runSubmit(ctx context.Context, o *submitOptions, s *streams) error {
	if err := o.check(s); err != nil {
		return err
	}
	key, host := o.Key, o.Host
	var err error
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return cannotRun("%v", err)
		}
	}
	if o.VerifyKey {
		ku, err := o.Verify(ctx, o.client)
		if err != nil {
			return cannotRun("%v", err)
		}
		fmt.Fprintf(s.Err, "key file %s holds the key\n", ku)
	}
	ledger, done, err := o.ledger(ctx)
	if err != nil {
		return err
	}
	defer done()
	inputErrors := 0
	diag := func(d sitemap.Diagnostic) {
		if d.Severity == sitemap.SeverityError {
			inputErrors++
		}
		fmt.Fprintln(s.Err, d.String())
	}
	entries, err := indexnow.Inputs(ctx, o.Inputs, key, input.Options{Stdin: s.In, Client: o.client, Follow: true, AllowOffSite: o.AllowOffSite, JSONL: true, OnDiagnostic: diag})
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return cannotRun("%v", err)
	}
	var outErr error // the first error writing a dry run's batches
	opts := indexnow.Options{
		Key: key, Host: host, KeyLocation: o.KeyLocation, Endpoint: o.Endpoint,
		Client: o.client, BatchSize: o.BatchSize, MaxPerDay: o.MaxPerDay, Ledger: ledger, DryRun: o.DryRun,
		LockWait: o.LockWait, Submitter: "sitemap submit",
		OnWait: func(msg string) { fmt.Fprintln(s.Err, "sitemap: "+msg) },
	}
	if o.DryRun {
		opts.OnBatch = func(b indexnow.Batch) {
			if _, err := fmt.Fprintf(s.Out, "%s\n", opts.DryRunJSON(b)); err != nil && outErr == nil {
				outErr = err
			}
		}
	}
	opts.Tell(func(line string) { fmt.Fprintln(s.Err, line) })
	sum, err := indexnow.Submit(ctx, entries, opts)
	fmt.Fprintf(s.Err, "submit: %s\n", sum)
	if err != nil {
		return o.submitError(err, ledger != nil)
	}
	if outErr != nil {
		return outputError(outErr)
	}
	if sum.Deferred == 1 && ledger == nil {
		fmt.Fprintln(s.Err, "sitemap: warning: 1 URL was not sent; without --state, give it again in a later run")
	} else if sum.Deferred > 0 && ledger == nil {
		fmt.Fprintf(s.Err, "sitemap: warning: %d URLs were not sent; without --state, give them again in a later run\n", sum.Deferred)
	}
	if !sum.OK() || inputErrors > 0 {
		return problemsFound()
	}
	return nil
}

// check refuses bad flags and missing local inputs before anything is
// read, and resolves the key (of --key or --key-file) and the host.
func (o *submitOptions) check(s *streams) error {
	switch {
	case o.BatchSize < 1 || o.BatchSize > indexnow.MaxBatch:
		return cannotRun("--batch-size %d: use 1 to %d (IN-08)", o.BatchSize, indexnow.MaxBatch)
	case o.MaxPerDay < 0:
		return cannotRun("--max-per-day %d: use 0 (no limit) or more", o.MaxPerDay)
	case o.Timeout <= 0:
		return cannotRun("--timeout %v: use a positive duration", o.Timeout)
	case o.LockWait <= 0:
		return cannotRun("--lock-wait %v: use a positive duration", o.LockWait)
	}
	// A local input that is not there stops the run before anything is
	// read (the others would be read, and their URLs not sent).
	for _, in := range o.Inputs {
		if in == "-" || urlnorm.IsHTTP(in) || store.IsS3(in) {
			continue
		}
		if _, err := os.Stat(in); err != nil {
			return fileError(in, err)
		}
	}
	c, warning, err := o.Resolve()
	if err != nil {
		return cannotRun("%v", err)
	}
	if warning != "" {
		fmt.Fprintf(s.Err, "sitemap: warning: %s\n", warning)
	}
	o.Credentials = c
	return nil
}

// ledger opens --state (nil without it). A dry run reads a copy: it
// writes nothing, not even the schema of a new state file; a PostgreSQL
// state is read as it is (a dry run records no submission).
func (o *submitOptions) ledger(ctx context.Context) (indexnow.Ledger, func(), error) {
	if o.State == "" {
		return nil, func() {}, nil
	}
	st, err := openState(ctx, o.State, state.Options{DryRun: o.DryRun})
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

// submitError is the exit error of a submission that stopped.
func (o *submitOptions) submitError(err error, hasLedger bool) error {
	if errors.Is(err, context.Canceled) {
		// Batches may have gone out: say so, not what generate says.
		if hasLedger {
			return cannotRun("submit: interrupted; the batches above were sent and recorded in --state: run the same command again to send the rest")
		}
		return cannotRun("submit: interrupted; the batches above were sent: give the URLs not sent in a later run (with --state, a run sends only what it has not sent)")
	}
	var busy *state.LockBusyError
	if errors.As(err, &busy) {
		return cannotRun("submit: %v (--lock-wait %s); run again when it is done, or give a longer --lock-wait", busy, o.LockWait)
	}
	if errors.Is(err, source.ErrBinary) {
		// A problem of the input (F-04), as generate says of it.
		return &exitError{Code: exitProblems, Err: err}
	}
	return cannotRun("%v", err)
}
