package indexnow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/version"
	"github.com/sitemapkit/sitemap/state"
)

// Settings are a submission as a person gives it to `sitemap submit`
// (its flags, named alike): the inputs, the key and host, and how to
// send. [Run] checks them; its errors name the flag.
type Settings struct {
	Credentials
	// Inputs are what [Inputs] reads: change lists, sitemaps and entry
	// lists (files, "-" for the reader Run is given, http(s) URLs).
	Inputs []string
	// Endpoint, BatchSize (1 to MaxBatch), MaxPerDay (0 or more),
	// LockWait (above 0) and DryRun are those of [Options].
	Endpoint  string
	BatchSize int
	MaxPerDay int64
	LockWait  time.Duration
	DryRun    bool
	// VerifyKey fetches the key file first ([Credentials.Verify]).
	VerifyKey bool
	// AllowOffSite also reads an index's children on another site (I-05,
	// then a warning).
	AllowOffSite bool
	// State is the state file or postgres:// database recording every
	// submission (the Ledger); "" for none. A dry run reads a copy of a
	// state file and writes nothing to it.
	State string
	// Timeout is the time limit of each HTTP request (above 0).
	Timeout time.Duration
	// Client sends the batches and reads URL inputs; nil for a client
	// with Timeout, UserAgent (default: the program's) and Scope.
	Client    *fetch.Client
	UserAgent string
	Scope     fetch.Scope
}

// RunSummary is what [Run] did: the submission's Summary and the errors
// reading its inputs (each said as it came).
type RunSummary struct {
	Summary
	InputErrors int
}

// OK reports whether everything read was offered and accepted: no batch
// failed, no URL was refused, no input had an error.
func (s RunSummary) OK() bool { return s.Summary.OK() && s.InputErrors == 0 }

// InterruptedError is the error of [Run] when ctx was done while
// batches went out: the batches before it were sent (and, with a state,
// recorded). Err is the context's error.
type InterruptedError struct {
	State bool // the batches sent are recorded in Settings.State
	Err   error
}

func (e *InterruptedError) Error() string {
	if e.State {
		return "submit: interrupted; the batches above were sent and recorded in --state: run the same command again to send the rest"
	}
	return "submit: interrupted; the batches above were sent: give the URLs not sent in a later run (with --state, a run sends only what it has not sent)"
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// Run is `sitemap submit` as one call: it checks s, resolves its
// Credentials, verifies the key file with VerifyKey, reads s.Inputs
// ([Inputs]; "-" from in) and [Submit]s their URLs. diag gets, a line
// each: the key file's name when engines would not find it, what the
// submission tells ([Options.Tell]), the input's diagnostics, a wait for
// another submitter's lock, then "submit: " and the Summary, and a
// warning when URLs were left for later without a state to remember
// them. A dry run writes each batch's JSON body to out.
//
// A submission that ran returns nil; whether everything went is
// RunSummary.OK. An error names the flag and says what to do: a setting
// refused, a local input missing, the key file not verified, an
// [*InterruptedError], a lock held past LockWait, out failing
// ("writing output: …"), or an input that is not text
// (source.ErrBinary, a problem of the input rather than of the run).
func Run(ctx context.Context, s Settings, in io.Reader, out, diag io.Writer) (RunSummary, error) {
	var sum RunSummary
	if err := s.check(diag); err != nil {
		return sum, err
	}
	c := s.Client
	if c == nil {
		var err error
		if c, err = s.client(); err != nil {
			return sum, err
		}
	}
	if s.VerifyKey {
		ku, err := s.Verify(ctx, c)
		if err != nil {
			return sum, err
		}
		fmt.Fprintf(diag, "key file %s holds the key\n", ku)
	}
	ledger, done, err := s.ledger(ctx)
	if err != nil {
		return sum, err
	}
	defer done()
	diagnostic := func(d sitemap.Diagnostic) {
		if d.Severity == sitemap.SeverityError {
			sum.InputErrors++
		}
		fmt.Fprintln(diag, d.String())
	}
	entries, err := Inputs(ctx, s.Inputs, s.Key, input.Options{Stdin: in, Client: c, Follow: true, AllowOffSite: s.AllowOffSite, JSONL: true, OnDiagnostic: diagnostic})
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return sum, err
	}
	sum.Summary, err = s.submit(ctx, entries, c, ledger, out, diag)
	if err != nil {
		return sum, err
	}
	if sum.Deferred == 1 && ledger == nil {
		fmt.Fprintln(diag, "sitemap: warning: 1 URL was not sent; without --state, give it again in a later run")
	} else if sum.Deferred > 0 && ledger == nil {
		fmt.Fprintf(diag, "sitemap: warning: %d URLs were not sent; without --state, give them again in a later run\n", sum.Deferred)
	}
	return sum, nil
}

// submit submits entries with the settings' Options and says the
// Summary; a dry run's batches go to out.
func (s Settings) submit(ctx context.Context, entries sitemap.Entries, c *fetch.Client, ledger Ledger, out, diag io.Writer) (Summary, error) {
	var outErr error // the first error writing a dry run's batches
	opts := Options{
		Key: s.Key, Host: s.Host, KeyLocation: s.KeyLocation, Endpoint: s.Endpoint,
		Client: c, BatchSize: s.BatchSize, MaxPerDay: s.MaxPerDay, Ledger: ledger, DryRun: s.DryRun,
		LockWait: s.LockWait, Submitter: "sitemap submit",
		OnWait: func(msg string) { fmt.Fprintln(diag, "sitemap: "+msg) },
	}
	if s.DryRun {
		opts.OnBatch = func(b Batch) {
			if _, err := fmt.Fprintf(out, "%s\n", opts.DryRunJSON(b)); err != nil && outErr == nil {
				outErr = err
			}
		}
	}
	opts.Tell(func(line string) { fmt.Fprintln(diag, line) })
	sum, err := Submit(ctx, entries, opts)
	fmt.Fprintf(diag, "submit: %s\n", sum)
	var busy *state.LockBusyError
	switch {
	case errors.Is(err, context.Canceled):
		// Batches may have gone out: say so, not what generate says.
		return sum, &InterruptedError{State: ledger != nil, Err: err}
	case errors.As(err, &busy):
		return sum, fmt.Errorf("submit: %w (--lock-wait %s); run again when it is done, or give a longer --lock-wait", busy, s.LockWait)
	case err != nil:
		return sum, err
	case outErr != nil:
		return sum, fmt.Errorf("writing output: %w", outErr)
	}
	return sum, nil
}

// check refuses bad settings and missing local inputs before anything
// is read, and resolves the key (of Key or KeyFile) and the host; a
// warning about the key file's name goes to diag.
func (s *Settings) check(diag io.Writer) error {
	switch {
	case s.BatchSize < 1 || s.BatchSize > MaxBatch:
		return fmt.Errorf("--batch-size %d: use 1 to %d (IN-08)", s.BatchSize, MaxBatch)
	case s.MaxPerDay < 0:
		return fmt.Errorf("--max-per-day %d: use 0 (no limit) or more", s.MaxPerDay)
	case s.Timeout <= 0:
		return fmt.Errorf("--timeout %v: use a positive duration", s.Timeout)
	case s.LockWait <= 0:
		return fmt.Errorf("--lock-wait %v: use a positive duration", s.LockWait)
	}
	// A local input that is not there stops the run before anything is
	// read (the others would be read, and their URLs not sent).
	if err := input.CheckLocal(s.Inputs); err != nil {
		return err
	}
	c, warning, err := s.Resolve()
	if err != nil {
		return err
	}
	if warning != "" {
		fmt.Fprintf(diag, "sitemap: warning: %s\n", warning)
	}
	s.Credentials = c
	return nil
}

// client is the client of the settings' Timeout, UserAgent and Scope.
func (s Settings) client() (*fetch.Client, error) {
	ua := s.UserAgent
	if ua == "" {
		ua = version.UserAgent()
	}
	return fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: s.Timeout, HeaderTimeout: s.Timeout, Scope: s.Scope})
}

// ledger opens State (nil without it). A dry run reads a copy: it
// writes nothing, not even the schema of a new state file; a PostgreSQL
// state is read as it is (a dry run records no submission).
func (s Settings) ledger(ctx context.Context) (Ledger, func(), error) {
	if s.State == "" {
		return nil, func() {}, nil
	}
	if !state.IsPostgres(s.State) {
		if err := state.CheckFile(s.State); err != nil {
			return nil, nil, fmt.Errorf("--state %v", err)
		}
	}
	st, err := state.Open(ctx, s.State, state.Options{DryRun: s.DryRun})
	if err != nil {
		return nil, nil, fmt.Errorf("--state %s: %v", state.Redact(s.State), err)
	}
	return st, func() { st.Close() }, nil
}
