package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/generate"
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
	JSON bool

	Report string
	// Crawl are the crawl's own settings (crawl.Settings.Options), its
	// state and its shared crawl (cmd_crawl_worker.go) included.
	Crawl crawl.Settings
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
			} else if !o.Crawl.Status && !o.Crawl.Finish {
				return cannotRun("crawl needs START-URL, the site's homepage (e.g. sitemap crawl https://www.example.com/ --out public/)")
			}
			if err := requester(c, &o.Crawl.UserAgent, &o.Crawl.Scope); err != nil {
				return err
			}
			if err := checkWorkerFlags(c.Flags(), o.Crawl.Worker); err != nil {
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
	f.BoolVar(&o.Crawl.DryRun, "dry-run", false, "crawl and print the summary, writing nothing (--state only read)")
	f.BoolVar(&o.JSON, "json", false, "print the summaries as JSON on standard output")
	f.StringVar(&o.Crawl.State, "state", "", "state `FILE` or postgres:// database (default: one per --out)")
	f.StringVar(&o.Report, "report", "", "write one JSON line per URL seen to `FILE` (- for standard output)")
	f.IntVar(&o.Crawl.Concurrency, "concurrency", 4, "requests in flight at once")
	f.Float64Var(&o.Crawl.Rate, "rate", 10, "most requests per second (token bucket); 0 for no limit")
	f.DurationVar(&o.Crawl.Timeout, "timeout", 30*time.Second, "time limit of one request, body included")
	f.IntVar(&o.Crawl.MaxDepth, "max-depth", 50, "most links followed from a seed; 0 for no limit")
	f.IntVar(&o.Crawl.MaxPages, "max-pages", 0, "most pages fetched; 0 for no limit")
	f.DurationVar(&o.Crawl.MaxTime, "max-time", 0, "longest the crawl may run, e.g. 30m; 0 for no limit")
	f.IntVar(&o.Crawl.MaxQueryVariants, "max-query-variants", 100, "most URLs of one path differing only in their query; 0 for no limit")
	registerWorker(f, &o.Crawl)
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

func runCrawl(ctx context.Context, o *crawlOptions, s *streams) error {
	if err := o.Crawl.CheckShared(); err != nil {
		return cannotRun("%v", err)
	}
	if o.Crawl.Status {
		if err := crawl.WriteSharedStatus(ctx, s.Out, o.Crawl.State, o.JSON); err != nil {
			return cannotRun("%v", err)
		}
		return nil
	}
	co, bo, inKey, err := o.prepare(ctx)
	if err != nil {
		return err
	}
	start, _ := url.Parse(o.Start) // checked by prepare
	loc, err := state.CrawlLocation(o.Crawl.State, o.Out, o.Crawl.DryRun)
	for _, n := range loc.Notes {
		fmt.Fprintln(s.Err, "sitemap: "+n)
	}
	if err != nil {
		return cannotRun("%v", err)
	}
	barDone := func() {}
	if s.ErrIsTerminal {
		barDone = co.ShowProgress(s.Err)
	}
	st, err := state.Open(ctx, loc.Path, state.Options{DryRun: o.Crawl.DryRun})
	if err != nil {
		return cannotRun("%v", err)
	}
	defer st.Close()
	var closeBrowser func()
	if co.Render, co.RenderMode, closeBrowser, err = o.renderFlags.Open(ctx, o.Crawl.UserAgent); err != nil {
		return cannotRun("%v", err)
	}
	defer closeBrowser()
	so := o.Crawl.StartOptions(loc.Shown, func(msg string) { fmt.Fprintln(s.Err, "sitemap: "+msg) })
	cr, sum, publish, err := crawl.Start(ctx, st, o.Start, co, so)
	barDone()
	var rerr *crawl.RunError
	switch {
	case err != nil && !errors.As(err, &rerr):
		return cannotRun("%v", err)
	case err == nil && !publish:
		return nil // a worker that has nothing to publish
	}
	if cr != nil {
		defer cr.Leave(context.WithoutCancel(ctx)) // a worker's URLs go back at once
	}
	if err != nil {
		if ctx.Err() == nil {
			return cannotRun("crawl: %v", rerr.Err)
		}
		fmt.Fprintln(s.Err, "sitemap: "+o.Crawl.Interrupted(loc.Shown))
		return ctx.Err()
	}
	return o.publish(ctx, cr, sum, bo, start, inKey, st, s)
}

// publish ends a crawl that has pages to publish: the warnings, the
// report, the sitemaps, the summaries, the IndexNow submission, and the
// exit status.
func (o *crawlOptions) publish(ctx context.Context, cr *crawl.Crawler, sum crawl.Summary, bo build.Options, start *url.URL, inKey string, st *state.DB, s *streams) error {
	for _, w := range sum.Warnings {
		fmt.Fprintf(s.Err, "sitemap: warning: %s\n", w)
	}
	if o.Report != "" {
		if err := writeOutput(o.Report, s.Out, func(w io.Writer) error { return cr.WriteReport(ctx, w) }); err != nil {
			return cannotRun("--report: %v", err)
		}
	}
	bo.BaseURL, bo.DryRun = o.BaseURL, o.Crawl.DryRun
	if bo.BaseURL == "" {
		bo.BaseURL = start.Scheme + "://" + start.Host + "/"
	}
	bsum, skipped, err := publishCrawl(ctx, cr, o, bo, s)
	if errors.Is(err, build.ErrNoEntries) {
		// Nothing listed: the crawl's summary, and why.
		if err := sum.WriteClosing(s.Out, s.Err, o.JSON, nil); err != nil {
			return cannotRun("%v", err)
		}
		if err := sum.NothingListed(s.Err); err != nil {
			return cannotRun("%v", err) // nothing answered, as fetch says of such a site
		}
		return problemsFound()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if err := sum.WriteClosing(s.Out, s.Err, o.JSON, bsum); err != nil {
		return cannotRun("%v", err)
	}
	o.publishFlags.warnNoIndex(s.Err, bsum)
	if inKey != "" && !o.Crawl.DryRun && o.Out != "-" {
		if top := bsum.TopIn(o.Out); top != "" {
			if err := o.indexnowFlags.submitWith(ctx, inKey, top, start.Host, st, s); err != nil {
				return err
			}
		}
	}
	if sum.WriteFailed(s.Err, o.Report) || skipped > 0 {
		return problemsFound()
	}
	return nil
}

// prepare checks the flags, before any request or file: the crawl's and
// the builder's options, and the IndexNow key (inKey, "" for none).
func (o *crawlOptions) prepare(ctx context.Context) (co crawl.Options, bo build.Options, inKey string, err error) {
	if o.Crawl.UserAgent == "" {
		o.Crawl.UserAgent = defaultUserAgent()
	}
	if co, err = o.Crawl.Options(); err != nil {
		return co, bo, "", cannotRun("%v", err)
	}
	if err = o.renderFlags.Check(); err != nil { // before the state is said or opened
		return co, bo, "", cannotRun("%v", err)
	}
	// With --finish, the start URL is the crawl's, read from the database.
	if o.Start, err = o.Crawl.StartURL(ctx, o.Start); err != nil {
		return co, bo, "", cannotRun("%v", err)
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
	if _, err = crawl.CheckStart(o.Start); err != nil {
		return co, bo, "", cannotRun("%v", err)
	}
	if o.BaseURL != "" {
		if err = build.CheckURLSetting("--base-url", o.BaseURL); err != nil {
			return co, bo, "", cannotRun("%v", err) // not after the crawl
		}
	}
	// Found out after the crawl, the run would be finished and lost: a
	// local --out (but in a dry run, which writes none) or a --report
	// FILE that cannot be written, an --out s3://… that cannot be read.
	if err = o.checkOut(ctx, o.Crawl.DryRun); err != nil {
		return
	}
	if o.Report != "" {
		if err := store.CheckOutputFile(o.Report); err != nil {
			return co, bo, "", cannotRun("--report %s: %v", o.Report, err)
		}
	}
	return
}

// publishCrawl feeds the listed pages, sorted by URL, to the builder and
// publishes the sitemaps (generate.Run, as generate does, without dedup:
// the crawl lists each page once). The entries the builder refuses and
// its remarks are written as generate writes them (generate.Reporter: 100
// one by one, then counted by rule); skipped counts them all.
func publishCrawl(ctx context.Context, cr *crawl.Crawler, o *crawlOptions, bo build.Options, s *streams) (build.Summary, int, error) {
	var st store.Store
	if !o.Crawl.DryRun {
		var undo func()
		var err error
		if st, undo, err = o.outStore(false, s.Out); err != nil {
			return build.Summary{}, 0, err
		}
		defer undo() // removes only directories it created that are still empty
	}
	skipped, invalid := 0, 0
	rep := &generate.Reporter{Print: func(line string) { fmt.Fprintln(s.Err, line) }}
	sum, err := generate.Run(ctx, generate.Entries(cr.Entries), generate.Options{
		Out: st, Build: bo, KeepDuplicates: true,
		Report: func(p generate.Problem) {
			skipped++
			if p.Severity == sitemap.SeverityError {
				invalid++
			}
			rep.Report(p)
		},
	})
	rep.WriteHeld(s.Err, invalid)
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
