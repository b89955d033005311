package indexnow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/version"
	"github.com/sitemapkit/sitemap/state"
)

// PublishSettings are the submission after a publication as a person
// gives it to `sitemap generate` and `sitemap crawl` (their
// --indexnow-* flags: KeyFile is --indexnow-key-file, and so on):
// [SubmitPublished] with a ledger, so each URL goes once at each version.
type PublishSettings struct {
	// KeyFile is the key file whose key is sent; "" for no submission.
	KeyFile string
	// Endpoint, KeyLocation, MaxPerDay (0 or more) and DryRun are those
	// of [Options]; VerifyKey is PublishedOptions.VerifyKey.
	Endpoint    string
	KeyLocation string
	MaxPerDay   int64
	DryRun      bool
	VerifyKey   bool
	// Client sends the batches; nil for a client with a 60-second
	// timeout and UserAgent (default: the program's).
	Client    *fetch.Client
	UserAgent string
}

// Check refuses the settings before anything runs: an option without
// KeyFile, a negative MaxPerDay, a KeyFile without a state to record the
// submissions in (hasState false), a key file that cannot be read or
// holds no valid key. It returns the key ("" without KeyFile). An error
// names the flag and says what to give.
func (s PublishSettings) Check(hasState bool) (string, error) {
	if s.KeyFile == "" {
		for _, o := range []struct {
			name string
			set  bool
		}{
			{"--indexnow-key-location", s.KeyLocation != ""}, {"--indexnow-max-per-day", s.MaxPerDay != 0},
			{"--indexnow-dry-run", s.DryRun}, {"--indexnow-verify-key", s.VerifyKey},
		} {
			if o.set {
				return "", fmt.Errorf("%s is an option of the IndexNow submission, which --indexnow-key-file turns on; give --indexnow-key-file FILE too", o.name)
			}
		}
		return "", nil
	}
	if s.MaxPerDay < 0 {
		return "", fmt.Errorf("--indexnow-max-per-day %d: want 0 (no limit) or more", s.MaxPerDay)
	}
	if !hasState {
		return "", errors.New("--indexnow-key-file submits what changed since the last submission, which --state records; give --state FILE too")
	}
	return LoadKeyFile("--indexnow-key-file", s.KeyFile)
}

// ErrPublishedFailures is the error of [PublishSettings.Submit] when a
// batch failed, a URL was refused or a published sitemap could not be
// read back: what was not sent goes with the next publication. The
// lines above it said what.
var ErrPublishedFailures = errors.New("the sitemaps were published; IndexNow submission had failures (what was not sent goes with the next run)")

// SubmitState is [PublishSettings.Submit] with the ledger of the state
// file or postgres:// database statePath names, opened for it and closed
// after.
func (s PublishSettings) SubmitState(ctx context.Context, key, top, host, statePath string, diag io.Writer) error {
	st, err := state.Open(ctx, statePath, state.Options{})
	if err != nil {
		return fmt.Errorf("--state %s: the sitemaps were published but nothing was submitted to IndexNow: %v", state.Redact(statePath), err)
	}
	defer st.Close()
	return s.Submit(ctx, key, top, host, st, diag)
}

// Submit submits the entries of the sitemap (or index and its children)
// just published at top whose version ledger has not seen submitted
// ([SubmitPublished]), with key (Check's) for the URLs of host. It tells
// diag its progress, a line each starting "indexnow: " (the key file
// verified, the diagnostics, the Summary). A run that went but for some
// batches or URLs returns [ErrPublishedFailures]; any other error says
// that the sitemaps were published and what stopped the submission.
func (s PublishSettings) Submit(ctx context.Context, key, top, host string, ledger Ledger, diag io.Writer) error {
	c := s.Client
	if c == nil {
		ua := s.UserAgent
		if ua == "" {
			ua = version.UserAgent()
		}
		var err error
		if c, err = fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: time.Minute, HeaderTimeout: time.Minute}); err != nil {
			return err
		}
	}
	o := Options{
		Key: key, Host: host, KeyLocation: s.KeyLocation, Endpoint: s.Endpoint, Client: c, Ledger: ledger,
		MaxPerDay: s.MaxPerDay, DryRun: s.DryRun, LockWait: 10 * time.Minute,
		OnDiagnostic: func(d sitemap.Diagnostic) { fmt.Fprintln(diag, d.String()) },
	}
	o.Tell(func(line string) { fmt.Fprintln(diag, "indexnow: "+line) })
	sum, readErrors, err := SubmitPublished(ctx, top, o, PublishedOptions{
		VerifyKey:   s.VerifyKey,
		OnVerified:  func(ku string) { fmt.Fprintf(diag, "indexnow: key file %s holds the key\n", ku) },
		OnReadError: func(d sitemap.Diagnostic) { fmt.Fprintln(diag, d.String()) },
	})
	var verr *VerifyError
	switch {
	case errors.As(err, &verr):
		return fmt.Errorf("the sitemaps were published; nothing was submitted to IndexNow: --indexnow-verify-key: %v", verr.Err)
	case err != nil:
		return fmt.Errorf("the sitemaps were published; IndexNow submission stopped: %v", err)
	}
	fmt.Fprintf(diag, "indexnow: %s\n", sum)
	if !sum.OK() || readErrors > 0 {
		return ErrPublishedFailures
	}
	return nil
}
