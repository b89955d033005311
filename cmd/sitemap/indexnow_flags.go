package main

import (
	"context"
	"errors"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
)

// indexnowFlags are the flags of a command that publishes sitemaps and
// then tells IndexNow engines what changed (generate, crawl).
type indexnowFlags struct {
	in indexnow.PublishSettings
	// indexnowClient sends the batches (tests may set it).
	indexnowClient *fetch.Client
	// indexnowUA is the User-Agent of its requests (--user-agent).
	indexnowUA string
}

func (f *indexnowFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.in.KeyFile, "indexnow-key-file", "", "then submit changed URLs to IndexNow with this key `FILE` (needs --state)")
	fs.StringVar(&f.in.Endpoint, "indexnow-endpoint", indexnow.DefaultEndpoint, "IndexNow `URL` to submit to")
	fs.StringVar(&f.in.KeyLocation, "indexnow-key-location", "", "`URL` of the key file when not https://HOST/KEY.txt (IN-05)")
	fs.Int64Var(&f.in.MaxPerDay, "indexnow-max-per-day", 0, "submit at most `N` URLs in 24 hours (0: no limit)")
	fs.BoolVar(&f.in.DryRun, "indexnow-dry-run", false, "print the IndexNow batches on standard error instead of sending them")
	fs.BoolVar(&f.in.VerifyKey, "indexnow-verify-key", false, "check the live key file before submitting")
}

// check refuses the flags before anything runs and returns the key
// (indexnow.PublishSettings.Check).
func (f *indexnowFlags) check(hasState bool) (string, error) {
	key, err := f.in.Check(hasState)
	if err != nil {
		return "", cannotRun("%v", err)
	}
	return key, nil
}

// submitPublished submits what the sitemaps just published at top
// changed, recorded in the state at statePath
// (indexnow.PublishSettings.SubmitState).
func (f *indexnowFlags) submitPublished(ctx context.Context, key, top, host, statePath string, s *streams) error {
	return f.exit(f.settings().SubmitState(ctx, key, top, host, statePath, s.Err))
}

// submitWith is submitPublished with the ledger already open.
func (f *indexnowFlags) submitWith(ctx context.Context, key, top, host string, st indexnow.Ledger, s *streams) error {
	return f.exit(f.settings().Submit(ctx, key, top, host, st, s.Err))
}

// settings are the flags with the client of the command.
func (f *indexnowFlags) settings() indexnow.PublishSettings {
	in := f.in
	in.Client, in.UserAgent = f.indexnowClient, f.indexnowUA
	return in
}

// exit is the exit error of a submission after a publication: 1 when
// some of it failed (the sitemaps stay published), else 2.
func (f *indexnowFlags) exit(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, indexnow.ErrPublishedFailures):
		return &exitError{Code: exitProblems, Err: err}
	}
	return cannotRun("%v", err)
}
