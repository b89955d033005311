package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/state"
)

// indexnowFlags are the flags of a command that publishes sitemaps and
// then tells IndexNow engines what changed (generate).
type indexnowFlags struct {
	IndexNowKeyFile  string
	IndexNowEndpoint string
	// The options of 'sitemap submit' of the same names without the
	// indexnow- prefix, with the same meanings.
	IndexNowKeyLocation string
	IndexNowMaxPerDay   int64
	IndexNowDryRun      bool
	IndexNowVerifyKey   bool
	// indexnowClient sends the batches (tests may set it).
	indexnowClient *fetch.Client
	// indexnowUA is the User-Agent of its requests (--user-agent).
	indexnowUA string
}

func (f *indexnowFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.IndexNowKeyFile, "indexnow-key-file", "", "then submit changed URLs to IndexNow with this key `FILE` (needs --state)")
	fs.StringVar(&f.IndexNowEndpoint, "indexnow-endpoint", indexnow.DefaultEndpoint, "IndexNow `URL` to submit to")
	fs.StringVar(&f.IndexNowKeyLocation, "indexnow-key-location", "", "`URL` of the key file when not https://HOST/KEY.txt (IN-05)")
	fs.Int64Var(&f.IndexNowMaxPerDay, "indexnow-max-per-day", 0, "submit at most `N` URLs in 24 hours (0: no limit)")
	fs.BoolVar(&f.IndexNowDryRun, "indexnow-dry-run", false, "print the IndexNow batches on standard error instead of sending them")
	fs.BoolVar(&f.IndexNowVerifyKey, "indexnow-verify-key", false, "check the live key file before submitting")
}

// check refuses the flags before anything runs: a key file that cannot
// be read or holds no valid key, or no state to record submissions in.
func (f *indexnowFlags) check(hasState bool) (string, error) {
	if f.IndexNowKeyFile == "" {
		for _, o := range []struct {
			name string
			set  bool
		}{
			{"--indexnow-key-location", f.IndexNowKeyLocation != ""}, {"--indexnow-max-per-day", f.IndexNowMaxPerDay != 0},
			{"--indexnow-dry-run", f.IndexNowDryRun}, {"--indexnow-verify-key", f.IndexNowVerifyKey},
		} {
			if o.set {
				return "", cannotRun("%s is an option of the IndexNow submission, which --indexnow-key-file turns on; give --indexnow-key-file FILE too", o.name)
			}
		}
		return "", nil
	}
	if f.IndexNowMaxPerDay < 0 {
		return "", cannotRun("--indexnow-max-per-day %d: want 0 (no limit) or more", f.IndexNowMaxPerDay)
	}
	if !hasState {
		return "", cannotRun("--indexnow-key-file submits what changed since the last submission, which --state records; give --state FILE too")
	}
	return keyFlag("--indexnow-key-file", f.IndexNowKeyFile)
}

// keyFlag reads the IndexNow key of the key file a flag names
// (indexnow.LoadKeyFile), an exit-2 error when it cannot.
func keyFlag(flag, path string) (string, error) {
	key, err := indexnow.LoadKeyFile(flag, path)
	if err != nil {
		return "", cannotRun("%v", err)
	}
	return key, nil
}

// submitPublished submits the entries of the sitemap (or index and its
// children) just published at top, whose version the state has not seen
// submitted, to IndexNow. It returns an exit error when a batch failed
// or a URL was refused (the sitemaps stay published).
func (f *indexnowFlags) submitPublished(ctx context.Context, key, top, host, statePath string, s *streams) error {
	st, err := state.Open(ctx, statePath, state.Options{})
	if err != nil {
		return cannotRun("--state %s: the sitemaps were published but nothing was submitted to IndexNow: %v", state.Redact(statePath), err)
	}
	defer st.Close()
	return f.submitWith(ctx, key, top, host, st, s)
}

// submitWith is submitPublished with the ledger already open
// (indexnow.SubmitPublished, its progress said on standard error).
func (f *indexnowFlags) submitWith(ctx context.Context, key, top, host string, st indexnow.Ledger, s *streams) error {
	c := f.indexnowClient
	var err error
	if c == nil {
		if c, err = httpClient(f.indexnowUA, 60*time.Second, fetch.Scope{}); err != nil {
			return cannotRun("%v", err)
		}
	}
	o := indexnow.Options{
		Key: key, Host: host, KeyLocation: f.IndexNowKeyLocation, Endpoint: f.IndexNowEndpoint, Client: c, Ledger: st,
		MaxPerDay: f.IndexNowMaxPerDay, DryRun: f.IndexNowDryRun, LockWait: 10 * time.Minute,
		OnDiagnostic: func(d sitemap.Diagnostic) { fmt.Fprintln(s.Err, d.String()) },
	}
	o.Tell(func(line string) { fmt.Fprintln(s.Err, "indexnow: "+line) })
	sum, readErrors, err := indexnow.SubmitPublished(ctx, top, o, indexnow.PublishedOptions{
		VerifyKey:   f.IndexNowVerifyKey,
		OnVerified:  func(ku string) { fmt.Fprintf(s.Err, "indexnow: key file %s holds the key\n", ku) },
		OnReadError: func(d sitemap.Diagnostic) { fmt.Fprintln(s.Err, d.String()) },
	})
	var verr *indexnow.VerifyError
	switch {
	case errors.As(err, &verr):
		return cannotRun("the sitemaps were published; nothing was submitted to IndexNow: --indexnow-verify-key: %v", verr.Err)
	case err != nil:
		return cannotRun("the sitemaps were published; IndexNow submission stopped: %v", err)
	}
	fmt.Fprintf(s.Err, "indexnow: %s\n", sum)
	if !sum.OK() || readErrors > 0 {
		fmt.Fprintf(s.Err, "sitemap: the sitemaps were published; IndexNow submission had failures (what was not sent goes with the next run)\n")
		return problemsFound()
	}
	return nil
}
