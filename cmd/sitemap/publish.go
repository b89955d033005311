package main

import (
	"context"
	"io"
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

	// The S3 store's settings, for --out s3://bucket/prefix.
	S3Endpoint   string
	S3Region     string
	CacheControl string
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
	f.StringVar(&p.S3Endpoint, "s3-endpoint", "", "S3-compatible service `URL` (default $AWS_ENDPOINT_URL_S3, else AWS)")
	f.StringVar(&p.S3Region, "s3-region", "", "S3 signing region (default $AWS_REGION, else us-east-1)")
	f.StringVar(&p.CacheControl, "cache-control", store.DefaultCacheControl, "Cache-Control of the S3 objects written")
}

func (p *publishFlags) s3Options() store.S3Options {
	return store.S3Options{Endpoint: p.S3Endpoint, Region: p.S3Region, CacheControl: p.CacheControl}
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

// warnNoIndex says, after a run that published sum, that --gzip-index
// had nothing to compress because no index was written.
func (p *publishFlags) warnNoIndex(w io.Writer, sum build.Summary) { sum.WarnNoIndex(w, p.GzipIndex) }

// ignoreBrokenPipe keeps a run that publishes files going when standard
// error (or output) is a pipe whose reader went away (sitemap generate …
// 2>&1 | head): a write there then fails instead of killing the process
// with SIGPIPE half-way, with its temporary files left in --out.
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }

// toStdout reports whether --out - asks for the one sitemap on standard
// output.
func (p *publishFlags) toStdout() bool { return p.Out == "-" }

// stdoutOptions checks the flags that cannot go with --out - and makes
// the index mode never: standard output takes one sitemap.
func (p *publishFlags) stdoutOptions(bo *build.Options, json, xsl bool) error {
	switch {
	case p.Index == "always":
		return cannotRun("--out - writes one sitemap to standard output, which cannot hold an index and its children; give --out DIR for --index always")
	case json:
		return cannotRun("--out - writes the sitemap to standard output, where --json would print the summary; drop --json (the summary goes to standard error)")
	case xsl:
		return cannotRun("--out - writes one sitemap to standard output; --xsl writes sitemap.xsl beside the sitemaps, which needs --out DIR")
	}
	bo.Index = build.IndexNever
	return nil
}

// needIndexError is the error of a run with --out - whose entries need
// more than one sitemap.
func needIndexError(e *build.NeedIndexError) error {
	return cannotRun("--out -: the %d entries need %d sitemaps (at most %d URLs and %d bytes each) and standard output takes one; write them into a directory with --out DIR (an index is written over them), or split the input", e.URLs, e.Sitemaps, e.MaxURLs, e.MaxBytes)
}

// openOptions are the options of store.Open and store.Check for --out
// (a dry run only reads it), with the S3 client of s3Client.
func (p *publishFlags) openOptions(dryRun bool, stdout io.Writer) (store.OpenOptions, error) {
	o := store.OpenOptions{Stdout: stdout, DryRun: dryRun, S3: p.s3Options()}
	if store.IsS3(p.Out) {
		if err := s3Client(&o.S3, p.userAgent); err != nil {
			return o, err
		}
	}
	return o, nil
}

// outStore returns the store --out names (store.Open; a dry run only
// reads it). undo removes the directories it created while they are
// still empty; call it once the run's store is done with.
func (p *publishFlags) outStore(dryRun bool, stdout io.Writer) (st store.Store, undo func(), err error) {
	o, err := p.openOptions(dryRun, stdout)
	if err != nil {
		return nil, func() {}, err
	}
	if st, undo, err = store.Open(p.Out, o); err != nil {
		return nil, undo, cannotRun("--out %s: %v", p.Out, err)
	}
	return st, undo, nil
}

// checkOut refuses, before a long run, an --out it could not publish
// into at its end (store.Check).
func (p *publishFlags) checkOut(ctx context.Context, dryRun bool) error {
	o, err := p.openOptions(dryRun, nil)
	if err == nil {
		err = store.Check(ctx, p.Out, p.Name+".xml", o)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("--out %s: %v", p.Out, err)
	}
	return nil
}

// openState opens the state --state names (state.Open: with o.DryRun, a
// file through a copy). A path that cannot be a state file
// (state.CheckFile) is refused first, in the user's words.
func openState(ctx context.Context, name string, o state.Options) (*state.DB, error) {
	if !state.IsPostgres(name) {
		if err := state.CheckFile(name); err != nil {
			return nil, cannotRun("--state %v", err)
		}
	}
	st, err := state.Open(ctx, name, o)
	if err != nil {
		return nil, cannotRun("--state %s: %v", state.Redact(name), err)
	}
	return st, nil
}

// errEmptyOut is the error of --out "".
var errEmptyOut = cannotRun("%v", store.ErrEmptyOut)
