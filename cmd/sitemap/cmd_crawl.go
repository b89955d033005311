package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// crawlOptions are the flags and argument of `sitemap crawl`.
type crawlOptions struct {
	Start string
	indexnowFlags

	// Output, as in generate.
	BaseURL string
	publishFlags
	DryRun bool
	JSON   bool

	State  string
	Report string
	// Crawl are the crawl's own settings (crawl.Settings.Options).
	Crawl crawl.Settings

	// The shared crawl (cmd_crawl_worker.go).
	workerFlags
	renderFlags
}

func newCrawlCmd(s *streams) *cobra.Command {
	o := &crawlOptions{}
	c := withHelp("crawl", &cobra.Command{
		Use:  "crawl [flags] START-URL",
		Args: cobra.RangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Start = args[0]
			} else if !o.Status && !o.Finish {
				return cannotRun("crawl needs START-URL, the site's homepage (e.g. sitemap crawl https://www.example.com/ --out public/)")
			}
			if err := requester(c, &o.Crawl.UserAgent, &o.Crawl.Scope); err != nil {
				return err
			}
			o.indexnowUA = o.Crawl.UserAgent
			o.publishFlags.userAgent = o.Crawl.UserAgent
			return runCrawl(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.BaseURL, "base-url", "", "URL the sitemaps are served from (default: START-URL's site root)")
	o.publishFlags.register(f)
	o.indexnowFlags.register(f)
	f.BoolVar(&o.DryRun, "dry-run", false, "crawl and print the summary, writing nothing (--state only read)")
	f.BoolVar(&o.JSON, "json", false, "print the summaries as JSON on standard output")
	f.StringVar(&o.State, "state", "", "state `FILE` or postgres:// database (default: one per --out)")
	f.StringVar(&o.Report, "report", "", "write one JSON line per URL seen to `FILE` (- for standard output)")
	f.IntVar(&o.Crawl.Concurrency, "concurrency", 4, "requests in flight at once")
	f.Float64Var(&o.Crawl.Rate, "rate", 10, "most requests per second (token bucket); 0 for no limit")
	f.DurationVar(&o.Crawl.Timeout, "timeout", 30*time.Second, "time limit of one request, body included")
	f.IntVar(&o.Crawl.MaxDepth, "max-depth", 50, "most links followed from a seed; 0 for no limit")
	f.IntVar(&o.Crawl.MaxPages, "max-pages", 0, "most pages fetched; 0 for no limit")
	f.DurationVar(&o.Crawl.MaxTime, "max-time", 0, "longest the crawl may run, e.g. 30m; 0 for no limit")
	f.IntVar(&o.Crawl.MaxQueryVariants, "max-query-variants", 100, "most URLs of one path differing only in their query; 0 for no limit")
	o.registerWorker(f)
	f.StringArrayVar(&o.Crawl.Include, "include", nil, "crawl only URLs matching this regular expression (repeatable)")
	f.StringArrayVar(&o.Crawl.Exclude, "exclude", nil, "do not crawl URLs matching this regular expression (repeatable)")
	f.StringArrayVar(&o.Crawl.ListInclude, "list-include", nil, "list only pages matching this regular expression (repeatable)")
	f.StringArrayVar(&o.Crawl.ListExclude, "list-exclude", nil, "do not list pages matching this regular expression (repeatable)")
	f.StringVar(&o.Crawl.Query, "query", "keep", "query strings: keep, strip, or allow=NAME,NAME")
	f.StringSliceVar(&o.Crawl.ImageHosts, "image-hosts", nil, "other hosts whose images are listed, e.g. cdn.example.com (IM-05)")
	f.BoolVar(&o.Crawl.NoSitemaps, "no-sitemaps", false, "do not seed the crawl with the sitemaps robots.txt names")
	f.StringSliceVar(&o.Crawl.Ignore, "ignore", nil, "listing rules to switch off: robots, noindex, canonical, nofollow")
	o.renderFlags.register(f)
	return c
}

// crawlOpts turns the flags into crawl.Options.
func (o *crawlOptions) crawlOpts() (crawl.Options, error) {
	if o.Crawl.UserAgent == "" {
		o.Crawl.UserAgent = defaultUserAgent()
	}
	co, err := o.Crawl.Options()
	if err != nil {
		return co, cannotRun("%v", err)
	}
	return co, nil
}

func runCrawl(ctx context.Context, o *crawlOptions, s *streams) error {
	if err := o.workerFlags.check(o.State); err != nil {
		return err
	}
	if o.Status {
		return runCrawlStatus(ctx, o, s)
	}
	co, bo, inKey, err := o.prepare(ctx)
	if err != nil {
		return err
	}
	start, _ := url.Parse(o.Start) // checked by prepare
	statePath, shownState, err := o.statePath(s)
	if err != nil {
		return err
	}
	bar := crawlBar(&co, s)
	st, err := state.Open(ctx, statePath, state.Options{DryRun: o.DryRun})
	if err != nil {
		return cannotRun("%v", err)
	}
	defer st.Close()
	var closeBrowser func()
	if co.Render, co.RenderMode, closeBrowser, err = o.renderFlags.open(ctx, o.Crawl.UserAgent); err != nil {
		return err
	}
	defer closeBrowser()
	cr, sum, stop, err := o.crawl(ctx, st, co, shownState, bar, s)
	if stop {
		return err
	}
	if cr != nil {
		defer cr.Leave(context.WithoutCancel(ctx)) // a worker's URLs go back at once
	}
	if err != nil {
		return o.crawlError(ctx, err, shownState, s)
	}
	for _, w := range sum.Warnings {
		fmt.Fprintf(s.Err, "sitemap: warning: %s\n", w)
	}
	if o.Report != "" {
		if err := writeCrawlReport(ctx, cr, o.Report, s); err != nil {
			return err
		}
	}
	bo.BaseURL, bo.DryRun = o.BaseURL, o.DryRun
	if bo.BaseURL == "" {
		bo.BaseURL = start.Scheme + "://" + start.Host + "/"
	}
	bsum, skipped, err := publishCrawl(ctx, cr, o, bo, s)
	if errors.Is(err, build.ErrNoEntries) {
		return o.nothingListed(sum, s)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if err := o.writeSummaries(sum, bsum, s); err != nil {
		return err
	}
	if inKey != "" && !o.DryRun && o.Out != "-" {
		if top := bsum.TopIn(o.Out); top != "" {
			if err := o.indexnowFlags.submitWith(ctx, inKey, top, start.Host, st, s); err != nil {
				return err
			}
		}
	}
	if failed := sum.Failed(); failed > 0 || skipped > 0 {
		if failed > 0 {
			fmt.Fprintf(s.Err, "sitemap: %s failed (see the counts above%s)\n", plural.Of(failed, "URL", "URLs"), reportHint(o.Report))
		}
		return problemsFound()
	}
	return nil
}

// crawlBar is the progress line of a crawl on a terminal (nil elsewhere),
// told by co's Progress and Frontier.
func crawlBar(co *crawl.Options, s *streams) *progress.Bar {
	if !s.ErrIsTerminal {
		return nil
	}
	bar := progress.New(s.Err, progress.Options{Unit: "pages", Of: "pages"})
	co.Progress = func(n int) { bar.Set(int64(n)) }
	co.Frontier = func(done, seen int) { bar.SetOf(int64(done), int64(seen)) }
	return bar
}

// prepare checks the flags, before any request or file: the crawl's and
// the builder's options, and the IndexNow key (inKey, "" for none).
func (o *crawlOptions) prepare(ctx context.Context) (co crawl.Options, bo build.Options, inKey string, err error) {
	if co, err = o.crawlOpts(); err != nil {
		return
	}
	if o.Finish {
		// The start URL is the crawl's, read from the database.
		if o.Start, err = finishStart(ctx, o); err != nil {
			return
		}
	}
	if bo, err = o.publishFlags.buildOptions(); err != nil {
		return
	}
	if o.toStdout() {
		if err = o.stdoutOptions(&bo, o.JSON, false); err != nil {
			return
		}
	}
	if o.Report == "-" && (o.toStdout() || o.JSON) {
		what := "the sitemap (--out -)"
		if o.JSON {
			what = "the JSON summary (--json)"
		}
		err = cannotRun("--report - and %s would both go to standard output, mixed; give --report FILE", what)
		return
	}
	ignoreBrokenPipe()
	if inKey, err = o.indexnowFlags.check(true); err != nil { // the crawl state records submissions
		return
	}
	start, perr := url.Parse(o.Start)
	if perr != nil || (start.Scheme != "http" && start.Scheme != "https") || start.Host == "" {
		err = cannotRun("START-URL %q is not an absolute http(s) URL; give the homepage, e.g. https://www.example.com/", o.Start)
		return
	}
	// Found out after the crawl, the run would be finished and lost.
	err = o.checkOutputs(ctx)
	return
}

// statePath is the state the crawl opens (a dry run opens a copy of it:
// state.Options.DryRun) and its name in messages.
func (o *crawlOptions) statePath(s *streams) (path, shown string, err error) {
	if state.IsPostgres(o.State) {
		if o.DryRun {
			return "", "", cannotRun("--dry-run with --state %s: a crawl writes its frontier into the database, and a dry run writes nothing; give a copy of the database, or --state FILE", state.Redact(o.State))
		}
		return o.State, state.Redact(o.State), nil
	}
	path = o.State
	if path == "" {
		if path, err = crawlStateDefault(o, s); err != nil {
			return "", "", err
		}
	}
	if o.DryRun {
		return path, path + " (a copy: dry run)", nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", "", cannotRun("--state %s: %v", path, err)
	}
	return path, path, nil
}

// crawl runs the crawl (crawl.Start): this process's, a worker's or the
// --finish of a shared one. stop is set when the run ends with err (nil:
// done) without publishing.
func (o *crawlOptions) crawl(ctx context.Context, st *state.DB, co crawl.Options, shown string, bar *progress.Bar, s *streams) (*crawl.Crawler, crawl.Summary, bool, error) {
	so := crawl.StartOptions{Shown: shown, Worker: crawl.WorkerOptions{Lease: o.Lease, Again: o.Again},
		Note: func(msg string) { fmt.Fprintln(s.Err, "sitemap: "+msg) }}
	switch {
	case o.Worker:
		so.Mode = crawl.Worker
	case o.Finish:
		so.Mode = crawl.Finisher
	}
	cr, sum, publish, err := crawl.Start(ctx, st, o.Start, co, so)
	bar.Done()
	var rerr *crawl.RunError
	switch {
	case errors.As(err, &rerr):
		return cr, sum, false, rerr.Err
	case err != nil:
		return cr, sum, true, cannotRun("%v", err)
	}
	return cr, sum, !publish, nil
}

// crawlError is the error a crawl that failed with err ends with; an
// interrupted one says what was kept.
func (o *crawlOptions) crawlError(ctx context.Context, err error, shown string, s *streams) error {
	if ctx.Err() == nil {
		return cannotRun("crawl: %v", err)
	}
	switch {
	case o.Worker:
		fmt.Fprintf(s.Err, "sitemap: worker interrupted; its URLs went back to the other workers: run the same command again to rejoin the crawl in %s\n", shown)
	case o.DryRun:
		fmt.Fprintln(s.Err, "sitemap: crawl interrupted; dry run, nothing kept")
	default:
		fmt.Fprintf(s.Err, "sitemap: crawl interrupted; what was crawled is kept in %s: run the same command again to continue\n", shown)
	}
	return ctx.Err()
}

// nothingListed ends a crawl that lists no page: its summary, and why.
func (o *crawlOptions) nothingListed(sum crawl.Summary, s *streams) error {
	if o.JSON {
		if err := sum.WriteJSON(s.Out, nil); err != nil {
			return cannotRun("writing summary: %v", err)
		}
	} else {
		sum.WriteText(s.Err)
	}
	if sum.Unreachable != "" {
		// Nothing answered: no finding about the site's pages, a run
		// that could not be made (as fetch says of such a site).
		return cannotRun("the site did not answer (%s): nothing crawled, nothing published; check the URL and that the site is up", sum.Unreachable)
	}
	fmt.Fprintf(s.Err, "sitemap: no page can be listed; nothing published, previous sitemaps left as they were\n")
	return problemsFound()
}

// writeSummaries writes the crawl's and the builder's summaries: JSON on
// standard output with --json, else text on standard error.
func (o *crawlOptions) writeSummaries(sum crawl.Summary, bsum build.Summary, s *streams) error {
	if o.JSON {
		if err := sum.WriteJSON(s.Out, bsum); err != nil {
			return cannotRun("writing summary: %v", err)
		}
	} else {
		sum.WriteText(s.Err)
		bsum.WriteTable(s.Err)
	}
	o.publishFlags.warnNoIndex(s.Err, bsum)
	return nil
}

// crawlStateDefault is the crawl's state file when --state is not given
// (state.CrawlPath: one per output directory in the per-user state
// directory), said on standard error with where an earlier version's
// file was moved from or is read.
func crawlStateDefault(o *crawlOptions, s *streams) (string, error) {
	f, err := state.CrawlPath(o.Out, o.DryRun)
	if err != nil {
		return "", cannotRun("%v", err)
	}
	for _, n := range f.Notes() {
		fmt.Fprintln(s.Err, "sitemap: "+n)
	}
	return f.Path, nil
}

// checkOutputs refuses, before the first request, a local --out (but in a
// dry run, which writes none) or a --report FILE that cannot be written:
// a directory, a file in the way, no permission; and an --out s3://… whose
// index cannot be read (no such bucket, endpoint or credentials). It
// creates nothing that stays.
func (o *crawlOptions) checkOutputs(ctx context.Context) error {
	if err := o.checkOut(ctx, o.DryRun); err != nil {
		return err
	}
	if o.Report != "" {
		if err := store.CheckOutputFile(o.Report); err != nil {
			return cannotRun("--report %s: %v", o.Report, err)
		}
	}
	return nil
}

func reportHint(report string) string {
	if report == "" || report == "-" {
		return "; --report FILE lists them"
	}
	return "; " + report + " lists them"
}

// publishCrawl feeds the listed pages, sorted by URL, to the builder and
// publishes the sitemaps (generate.Run, as generate does, without dedup:
// the crawl lists each page once).
func publishCrawl(ctx context.Context, cr *crawl.Crawler, o *crawlOptions, bo build.Options, s *streams) (build.Summary, int, error) {
	var st store.Store
	if !o.DryRun {
		var undo func()
		var err error
		if st, undo, err = o.outStore(false, s.Out); err != nil {
			return build.Summary{}, 0, err
		}
		defer undo() // removes only directories it created that are still empty
	}
	skipped := 0
	sum, err := generate.Run(ctx, generate.Entries(cr.Entries), generate.Options{
		Out: st, Build: bo, KeepDuplicates: true,
		Report: func(p generate.Problem) {
			if skipped++; skipped <= crawlMaxReported {
				fmt.Fprintln(s.Err, p.Error())
			}
		},
	})
	var serr *generate.StageError
	var need *build.NeedIndexError
	switch {
	case err == nil, errors.Is(err, build.ErrNoEntries):
	case o.toStdout() && errors.As(err, &need):
		err = needIndexError(need)
	case ctx.Err() != nil:
		err = ctx.Err()
	case errors.As(err, &serr):
		err = cannotRun("%v", serr.Err)
	default:
		err = cannotRun("%v", err)
	}
	return sum.Summary, skipped, err
}

// writeCrawlReport writes one JSON line per URL seen, sorted by URL, to
// path: standard output for "-", else written aside (writeOutput), so a
// killed run leaves the previous report whole.
func writeCrawlReport(ctx context.Context, cr *crawl.Crawler, path string, s *streams) error {
	if err := writeOutput(path, s.Out, func(w io.Writer) error { return cr.WriteReport(ctx, w) }); err != nil {
		return cannotRun("--report: %v", err)
	}
	return nil
}

// crawlMaxReported is how many entries the builder refused are reported
// one by one.
const crawlMaxReported = 100
