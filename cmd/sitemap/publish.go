package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// publishFlags are the output flags generate and crawl share: where the
// sitemaps go, how they are named, split and compressed.
type publishFlags struct {
	Out string
	build.Settings

	// S3 are the S3 store's settings, for --out s3://bucket/prefix
	// (store.Settings).
	S3 store.S3Options
	// userAgent is the command's --user-agent, sent with the S3 requests.
	userAgent string
}

// register adds the flags to f, in the order --help shows them.
func (p *publishFlags) register(f *pflag.FlagSet) {
	f.StringVar(&p.Out, "out", ".", "directory, s3://bucket/prefix, or - (standard output)")
	f.StringVar(&p.Name, "name", "sitemap", "base name of the files: NAME.xml, NAME-1.xml, …")
	f.BoolVar(&p.Gzip, "gzip", false, "compress the sitemaps (NAME-1.xml.gz, …)")
	f.IntVar(&p.GzipLevel, "gzip-level", build.DefaultGzipLevel, "gzip level, 1 (fastest) to 9 (smallest)")
	f.BoolVar(&p.GzipIndex, "gzip-index", false, "compress the index too")
	f.StringVar(&p.Index, "index", "auto", "write an index: auto, always, never")
	f.IntVar(&p.MaxURLs, "max-urls", sitemap.MaxURLs, "most URLs per sitemap (S-01)")
	f.IntVar(&p.MaxBytes, "max-bytes", sitemap.MaxBytes, "most uncompressed bytes per sitemap (S-02)")
	f.StringVar(&p.S3.Endpoint, "s3-endpoint", "", "S3-compatible service `URL` (default $AWS_ENDPOINT_URL_S3, else AWS)")
	f.StringVar(&p.S3.Region, "s3-region", "", "S3 signing region (default $AWS_REGION, else us-east-1)")
	f.StringVar(&p.S3.CacheControl, "cache-control", store.DefaultCacheControl, "Cache-Control of the S3 objects written")
}

// s3Client gives o the one HTTP client (fetch.Client.Do) with the
// User-Agent ua for the S3 requests. The endpoint is configured, not an
// input, so --scope does not restrict it (as with an IndexNow endpoint).
func s3Client(o *store.S3Options, ua string) error {
	hc, err := httpClient(ua, 0, fetch.Scope{})
	o.HTTPClient = hc
	return err
}

// s3Store is the S3 store of --out loc (see s3Client).
func s3Store(loc string, o store.S3Options, ua string) (*store.S3Store, error) {
	if err := s3Client(&o, ua); err != nil {
		return nil, err
	}
	st, err := store.S3(loc, o)
	if err != nil {
		return nil, cannotRun("--out %s: %v", loc, err)
	}
	return st, nil
}

// buildOptions checks the flags (exit 2 on a bad value) and returns the
// build options they set; the caller adds BaseURL and the rest.
func (p *publishFlags) buildOptions() (build.Options, error) {
	if p.Out == "" {
		return build.Options{}, errEmptyOut
	}
	bo, err := p.Settings.Options()
	if err != nil {
		return bo, cannotRun("%v", err)
	}
	return bo, nil
}

// warnNoIndex is build.Settings.WarnNoIndex.
func (p *publishFlags) warnNoIndex(w io.Writer, sum build.Summary) { p.Settings.WarnNoIndex(w, sum) }

// ignoreBrokenPipe keeps a run that publishes files going when standard
// error (or output) is a pipe whose reader went away (sitemap generate …
// 2>&1 | head): a write there then fails instead of killing the process
// with SIGPIPE half-way, with its temporary files left in --out. The
// signal is caught, not ignored, so that diePipe can still end the
// process by it once the run has cleaned up (standard output's reader
// gone: exitPipe).
func ignoreBrokenPipe() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) }

// toStdout reports whether --out - asks for the one sitemap on standard
// output.
func (p *publishFlags) toStdout() bool { return p.Out == "-" }

// stdoutOptions checks the flags that cannot go with --out - and makes
// the index mode never (build.Settings.StdoutOptions).
func (p *publishFlags) stdoutOptions(bo *build.Options, json, xsl bool) error {
	if err := p.Settings.StdoutOptions(bo, json, xsl); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}

// needIndexError is the error of a run with --out - whose entries need
// more than one sitemap.
func needIndexError(e *build.NeedIndexError) error {
	return cannotRun("--out -: the %d entries need %d sitemaps (at most %d URLs and %d bytes each) and standard output takes one; write them into a directory with --out DIR (an index is written over them), or split the input", e.URLs, e.Sitemaps, e.MaxURLs, e.MaxBytes)
}

// out is the store.Settings of --out, its S3 requests sent through
// s3Client.
func (p *publishFlags) out() (store.Settings, error) {
	o := store.Settings{Out: p.Out, S3: p.S3}
	if store.IsS3(p.Out) {
		return o, s3Client(&o.S3, p.userAgent)
	}
	return o, nil
}

// outStore returns the store --out names (store.Settings.Open; a dry run
// only reads it) and its undo, to call once the run's store is done with.
func (p *publishFlags) outStore(dryRun bool, stdout io.Writer) (store.Store, func(), error) {
	o, err := p.out()
	if err != nil {
		return nil, func() {}, err
	}
	st, undo, err := o.Open(dryRun, stdout)
	if err != nil {
		return nil, undo, cannotRun("%v", err)
	}
	return st, undo, nil
}

// checkOut refuses, before a long run, an --out it could not publish
// into at its end (store.Settings.Check).
func (p *publishFlags) checkOut(ctx context.Context, dryRun bool) error {
	o, err := p.out()
	if err == nil {
		err = o.Check(ctx, p.Name+".xml", dryRun)
	}
	if err != nil && ctx.Err() == nil {
		return cannotRun("%v", err)
	}
	return err
}

// openState opens the state --state names (state.OpenNamed: a path
// that cannot be a state file is refused first, in the user's words).
func openState(ctx context.Context, name string, o state.Options) (*state.DB, error) {
	st, err := state.OpenNamed(ctx, name, o)
	if err != nil {
		return nil, cannotRun("%v", err)
	}
	return st, nil
}

// errEmptyOut is the error of --out "".
var errEmptyOut = cannotRun("%v", store.ErrEmptyOut)
