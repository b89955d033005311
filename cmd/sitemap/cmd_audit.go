package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/tmpdir"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// auditOptions are the flags and arguments of `sitemap audit`.
type auditOptions struct {
	Inputs     []string
	Site       string
	Format     string
	Report     string
	Sample     int
	State      string
	Resume     bool
	ListStates bool
	Forget     bool
	History    bool
	Crawl      bool
	renderFlags
	CrawlPages  int
	CrawlDepth  int
	Concurrency int
	Rate        float64
	Timeout     time.Duration
	MaxErrors   int
	UserAgent   string
}

func newAuditCmd(s *streams) *cobra.Command {
	o := &auditOptions{}
	c := withHelp("audit", &cobra.Command{
		Use: "audit [flags] URL | FILE... --site URL",
		Args: func(c *cobra.Command, args []string) error {
			if o.ListStates || o.Forget {
				return nil
			}
			return cobra.MinimumNArgs(1)(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			o.UserAgent = userAgent(c)
			if o.ListStates || o.Forget {
				return runAuditStates(o, s)
			}
			return runAudit(c, o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Site, "site", "", "`URL` local sitemap files are served at, e.g. https://www.example.com/")
	f.StringVar(&o.Format, "format", "text", "output: text (a line per finding) or jsonl (a record per URL)")
	f.StringVar(&o.Report, "report", "", "also write a self-contained HTML report to `FILE`")
	f.IntVar(&o.Sample, "sample", 0, "audit a uniform random sample of `N` URLs of each sitemap (0: every URL)")
	f.StringVar(&o.State, "state", "", "state `FILE` that makes the audit resumable")
	f.BoolVar(&o.Resume, "resume", false, "keep the state in the user's state directory: run the same command again to resume")
	f.BoolVar(&o.ListStates, "list-states", false, "list the audit states kept in the user's state directory, and exit")
	f.BoolVar(&o.Forget, "forget", false, "remove the kept state of the audit of the arguments (of every audit without any), and exit")
	f.BoolVar(&o.History, "history", false, "keep each URL's lastmod and content in --state; later runs say if lastmod is honest")
	f.BoolVar(&o.Crawl, "crawl", false, "also crawl from the homepage: missing pages, orphans, click depth")
	f.IntVar(&o.CrawlPages, "crawl-max-pages", 0, "most pages the crawl fetches (0: no limit)")
	f.IntVar(&o.CrawlDepth, "crawl-max-depth", 50, "most links the crawl follows from the homepage (0: no limit)")
	o.renderFlags.register(f)
	f.IntVar(&o.Concurrency, "concurrency", 4, "requests in flight at once")
	f.Float64Var(&o.Rate, "rate", 10, "most requests per second; 0 for no limit")
	f.DurationVar(&o.Timeout, "timeout", 30*time.Second, "time limit of one request, body included")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

func runAudit(c *cobra.Command, o *auditOptions, s *streams) error {
	ctx := c.Context()
	if err := o.check(); err != nil {
		return err
	}
	sc, err := scopeOf(c)
	if err != nil {
		return err
	}
	client, err := httpClient(o.UserAgent, o.Timeout, sc)
	if err != nil {
		return cannotRun("%v", err)
	}
	statePath, release, created, err := o.statePath(s)
	if err != nil {
		return err
	}
	defer release()
	report, err := o.createReport()
	if err != nil {
		return err
	}
	if report != nil {
		defer report.Abort() // a failed or interrupted audit leaves no report, nor truncates the last one
	}
	st, err := state.Open(ctx, statePath, state.Options{})
	if err != nil {
		return cannotRun("%v", err)
	}
	defer st.Close()
	discard := func() { discardState(created, st, statePath) }
	ao, diags := o.auditOptions(client, st, s)
	var closeBrowser func()
	if ao.Render, ao.RenderMode, closeBrowser, err = o.renderFlags.open(ctx, client.UserAgent()); err != nil {
		return err
	}
	defer closeBrowser()
	if ao.Crawl != nil {
		ao.Crawl.Render, ao.Crawl.RenderMode = ao.Render, ao.RenderMode
	}
	var bar *progress.Bar
	if s.ErrIsTerminal {
		bar = progress.New(s.Err, progress.Options{Unit: "URLs"})
		ao.Progress = func(n int) { bar.Set(int64(n)) }
	}
	a, err := audit.New(ctx, st.Audit(), o.Inputs, ao)
	if err != nil {
		discard()
		return cannotRun("%v", err)
	}
	if a.Resumed() {
		fmt.Fprintf(s.Err, "sitemap: resuming the unfinished audit in %s\n", statePath)
	}
	sum, err := a.Run(ctx)
	bar.Done()
	diags.End()
	if err != nil {
		if ctx.Err() != nil {
			if o.State != "" || o.Resume {
				fmt.Fprintf(s.Err, "sitemap: audit interrupted; what was checked is kept in %s: run the same command again to continue\n", statePath)
			} else {
				fmt.Fprintf(s.Err, "sitemap: audit interrupted; run it with --resume (or --state FILE) to keep what was checked for the next run\n")
			}
			return ctx.Err()
		}
		discard()
		return cannotRun("%v", err)
	}
	if sum.Listed == 0 {
		discard()
		// No sitemap found, or sitemaps listing nothing (empty, not a
		// sitemap): a problem found, exit 1 as in fetch and validate.
		return &exitError{Code: exitProblems, Err: errors.New("the sitemaps list no URL; nothing audited")}
	}
	tally, err := o.writeRecords(ctx, a, sum, report, s)
	if err != nil {
		return err
	}
	return o.finish(sum, tally, diags.Errors, s)
}

// statePath is where the run's state lives: --state FILE, or with
// --resume the audit's file in the user's state directory (both kept:
// release does nothing), else a file of a temporary directory release
// removes; created says the file does not exist yet.
func (o *auditOptions) statePath(s *streams) (path string, release func(), created bool, err error) {
	defer func() {
		_, serr := os.Stat(path)
		created = !state.IsPostgres(path) && errors.Is(serr, fs.ErrNotExist)
	}()
	switch {
	case o.State != "":
		path = o.State
	case o.Resume:
		if path, err = audit.StatePath(o.Site, o.Inputs); err != nil {
			return "", nil, false, cannotRun("the audit state has no default place: %v; give --state FILE", err)
		}
		fmt.Fprintf(s.Err, "sitemap: audit state: %s (--state FILE, or %s, to keep it elsewhere; --forget removes it)\n", path, state.DirEnv)
	default:
		// Not asked to resume: the state lives only while the run does
		// (a killed run's is removed by the next audit).
		dir, release, err := tmpdir.Make("", "sitemap-audit-*")
		if err != nil {
			return "", nil, false, cannotRun("audit state: %v", err)
		}
		return filepath.Join(dir, "audit.db"), release, true, nil
	}
	if state.IsPostgres(path) {
		return path, func() {}, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", nil, false, cannotRun("--state %s: %v", path, err)
	}
	if o.Resume && o.State == "" {
		if err := audit.KeepStateTarget(path, o.Site, o.Inputs); err != nil {
			return "", nil, false, cannotRun("audit state: %v", err)
		}
	}
	return path, func() {}, false, nil
}

// discardState removes the state of a run that failed at once (nothing
// to audit) when the run created it: no state of a run that never ran.
func discardState(created bool, st *state.DB, path string) {
	if created {
		st.Close()
		audit.RemoveState(path)
	}
}

// runAuditStates is --list-states and --forget: the kept states listed,
// or the one of the arguments (every one without arguments) removed.
func runAuditStates(o *auditOptions, s *streams) error {
	if o.ListStates {
		states, err := audit.States()
		if err != nil {
			return cannotRun("%v", err)
		}
		for _, st := range states {
			fmt.Fprintf(s.Out, "%s\t%s\t%s\t%d bytes\n", cmp.Or(st.Target, "?"), st.Path, st.ModTime.UTC().Format(time.RFC3339), st.Size)
		}
		if len(states) == 0 {
			fmt.Fprintln(s.Err, "sitemap: no audit state kept (only audits run with --resume keep one)")
		}
		if !o.Forget {
			return nil
		}
	}
	var paths []string
	if len(o.Inputs) > 0 {
		p, err := audit.StatePath(o.Site, o.Inputs)
		if err != nil {
			return cannotRun("%v", err)
		}
		paths = append(paths, p)
	} else {
		states, err := audit.States()
		if err != nil {
			return cannotRun("%v", err)
		}
		for _, st := range states {
			paths = append(paths, st.Path)
		}
	}
	for _, p := range paths {
		removed, err := audit.RemoveState(p)
		if err != nil {
			return cannotRun("--forget: %v", err)
		}
		if !removed {
			fmt.Fprintf(s.Err, "sitemap: no audit state kept for %s (only audits run with --resume keep one; --list-states lists them)\n", strings.Join(o.Inputs, " "))
			continue
		}
		fmt.Fprintf(s.Err, "sitemap: removed %s\n", p)
	}
	return nil
}

// check refuses the flags that cannot work together, before any request.
func (o *auditOptions) check() error {
	switch {
	case o.Format != "text" && o.Format != "jsonl":
		return cannotRun("--format %q: want text or jsonl", o.Format)
	case o.Concurrency < 1:
		return cannotRun("--concurrency must be at least 1")
	case o.Sample < 0:
		return cannotRun("--sample must be 0 (every URL) or more")
	case o.History && o.State == "" && !o.Resume:
		return cannotRun("--history compares with earlier runs: give --state FILE (or --resume) to keep them")
	case o.Rate < 0:
		return cannotRun("--rate %v: give 0 (no limit) or more requests a second", o.Rate)
	case o.CrawlPages < 0:
		return cannotRun("--crawl-max-pages %d: give 0 (no limit) or more", o.CrawlPages)
	case o.CrawlDepth < 0:
		return cannotRun("--crawl-max-depth %d: give 0 (no limit) or more", o.CrawlDepth)
	case o.Site != "" && !urlnorm.IsHTTP(o.Site):
		return cannotRun("--site %q is not an http(s) URL; give where the files are served, e.g. https://www.example.com/", o.Site)
	}
	if len(o.Inputs) == 1 && urlnorm.IsHTTP(o.Inputs[0]) {
		if o.Site != "" {
			return cannotRun("--site is for local sitemap files; a URL is served where it is")
		}
		return nil
	}
	for _, in := range o.Inputs {
		if urlnorm.IsHTTP(in) {
			return cannotRun("%s: audit one URL (a homepage, robots.txt or sitemap) or local files, not both", in)
		}
		if in != "-" {
			if _, err := os.Stat(in); err != nil {
				return cannotRun("%s: no such file, nor an http(s) URL; give a homepage, a sitemap URL or sitemap files with --site", in)
			}
		}
	}
	if o.Crawl && o.Site == "" {
		return cannotRun("--crawl of local sitemaps needs --site URL: the homepage the crawl starts at")
	}
	return nil
}

// createReport starts --report aside (nil without it), before the work,
// so that an unwritable report fails at once; it is renamed to the
// report only when complete.
func (o *auditOptions) createReport() (*store.AsideFile, error) {
	if o.Report == "" {
		return nil, nil
	}
	if fi, err := os.Stat(o.Report); err == nil && fi.IsDir() {
		return nil, cannotRun("--report %s is a directory; give the name of the HTML file to write, e.g. %s", o.Report, filepath.Join(o.Report, "audit.html"))
	}
	if fi, err := os.Stat(filepath.Dir(o.Report)); err != nil || !fi.IsDir() {
		return nil, cannotRun("--report %s: no directory %s; create it first", o.Report, filepath.Dir(o.Report))
	}
	f, err := store.CreateAside(o.Report)
	if err != nil {
		return nil, cannotRun("--report %s: %v", o.Report, errors.Unwrap(err))
	}
	return f, nil
}

// auditOptions are the options of audit.New: its problems reading the
// sitemaps go to standard error through the audit.DiagnosticPrinter
// returned.
func (o *auditOptions) auditOptions(client *fetch.Client, st *state.SQLite, s *streams) (audit.Options, *audit.DiagnosticPrinter) {
	diags := &audit.DiagnosticPrinter{W: s.Err}
	ao := audit.Options{
		HTTP: client, Concurrency: o.Concurrency, Rate: o.Rate, Sample: o.Sample, Site: o.Site, History: o.History,
		MaxErrors: decoderMaxErrors(o.MaxErrors), Stdin: s.In, OnDiagnostic: diags.Print,
	}
	if o.Rate == 0 {
		ao.Rate = -1
	}
	if o.Crawl {
		ao.Crawl = &crawl.Options{MaxPages: o.CrawlPages, MaxDepth: o.CrawlDepth, Rate: ao.Rate, Concurrency: o.Concurrency, Timeout: o.Timeout}
		ao.CrawlStore, ao.CrawlLog = st, st.Crawl()
	}
	return ao, diags
}

// writeRecords prints the records of the audit, adds them to the report
// and publishes it.
func (o *auditOptions) writeRecords(ctx context.Context, a *audit.Auditor, sum audit.Summary, report *store.AsideFile, s *streams) (audit.Tally, error) {
	var rw io.Writer
	if report != nil {
		rw = report
	}
	tally, err := a.WriteRecords(ctx, sum, s.Out, o.Format, rw, o.Crawl)
	if err == nil && report != nil {
		err = report.Commit(0o644)
	}
	if err != nil {
		if ctx.Err() != nil {
			return tally, ctx.Err()
		}
		return tally, cannotRun("writing the audit: %v", err)
	}
	return tally, nil
}

// finish writes the summary and the closing lines, and returns the exit
// status.
func (o *auditOptions) finish(sum audit.Summary, tally audit.Tally, readErrors int, s *streams) error {
	sum.WriteText(s.Err, tally)
	if o.Report != "" {
		fmt.Fprintf(s.Err, "sitemap: report written to %s\n", o.Report)
	}
	if readErrors > 0 {
		// A sitemap that could not be read (a child missing, not a
		// sitemap) is a problem found, as in every command: the audit
		// covers only what was read.
		fmt.Fprintf(s.Err, "sitemap: %s reading the sitemaps (above); a sitemap that could not be read is not audited\n", plural.Of(readErrors, "error", "errors"))
	}
	if tally.Errors > 0 {
		fmt.Fprintf(s.Err, "sitemap: %s with errors\n", plural.Of(tally.Errors, "URL", "URLs"))
	}
	if tally.Errors > 0 || readErrors > 0 {
		return problemsFound()
	}
	return nil
}
