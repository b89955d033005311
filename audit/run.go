package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// Env is what [Settings.Run] is given besides the settings: the HTTP
// client, the standard streams and the browser.
type Env struct {
	// HTTP makes every request (required).
	HTTP *fetch.Client
	// Stdin is read for the name "-".
	Stdin io.Reader
	// Out takes the records. Err takes the notes, the problems reading
	// the sitemaps, the summary and the closing lines, and, when
	// Terminal is set, a progress line.
	Out, Err io.Writer
	Terminal bool
	// Render, when set, starts the browser that renders the audited
	// pages (and the crawl's) for the User-Agent it is given, as
	// render.Settings.Open does: the renderer, its mode, and the func
	// that ends it. A nil renderer renders nothing.
	Render func(ctx context.Context, userAgent string) (crawl.Renderer, crawl.RenderMode, func(), error)
}

// ErrNothingListed is the error of an audit whose sitemaps list no URL
// (none found, empty, or not sitemaps): a problem found about the site,
// not a run that could not be made.
var ErrNothingListed = errors.New("the sitemaps list no URL; nothing audited")

// Run is `sitemap audit` as one call: the audit of names (one http(s)
// URL, or local files served at Site) with its state where
// [Settings.StateFile] says, the records written to env.Out in Format,
// the HTML report to Report, and the summary and closing lines to
// env.Err. Check s first ([Settings.Check]).
//
// problems is true when a URL has an error or a sitemap could not be
// read (the audit covers only what was read). An interrupted run (ctx
// done) says on env.Err what was kept and returns ctx.Err(); a run whose
// sitemaps list nothing returns [ErrNothingListed]; any other error is
// one of a run that could not be made. A run that fails at once removes
// the state it created, and a failed or interrupted one leaves no report
// (nor truncates the last).
func (s Settings) Run(ctx context.Context, names []string, env Env) (problems bool, err error) {
	rs, err := s.StateFile(names)
	if err != nil {
		return false, err
	}
	defer rs.Release()
	if rs.Note != "" {
		fmt.Fprintln(env.Err, "sitemap: "+rs.Note)
	}
	report, err := s.createReport()
	if err != nil {
		return false, err
	}
	if report != nil {
		defer report.Abort()
	}
	st, err := state.Open(ctx, rs.Path, state.Options{})
	if err != nil {
		return false, err
	}
	defer st.Close()
	discard := func() {
		if rs.Created {
			st.Close()
			RemoveState(rs.Path)
		}
	}
	diags := &DiagnosticPrinter{W: env.Err}
	o, bar, closeBrowser, err := s.options(ctx, st, env, diags)
	if err != nil {
		return false, err
	}
	defer closeBrowser()
	a, err := New(ctx, st.Audit(), names, o)
	if err != nil {
		discard()
		return false, err
	}
	if a.Resumed() {
		fmt.Fprintf(env.Err, "sitemap: resuming the unfinished audit in %s\n", rs.Path)
	}
	sum, err := a.Run(ctx)
	bar.Done()
	diags.End()
	if err != nil {
		if ctx.Err() != nil {
			s.interrupted(env.Err, rs.Path)
			return false, ctx.Err()
		}
		discard()
		return false, err
	}
	if sum.Listed == 0 {
		discard()
		return false, ErrNothingListed
	}
	return s.write(ctx, a, sum, report, diags.Errors, env)
}

// options are the Options of the run in st: its problems reading the
// sitemaps go to diags, its progress to the bar (nil but on a terminal),
// and its pages are rendered by the browser env.Render starts, which
// closeBrowser ends.
func (s Settings) options(ctx context.Context, st *state.DB, env Env, diags *DiagnosticPrinter) (o Options, bar *progress.Bar, closeBrowser func(), err error) {
	o = s.Options()
	o.HTTP, o.Stdin, o.OnDiagnostic = env.HTTP, env.Stdin, diags.Print
	closeBrowser = func() {}
	if o.Crawl != nil {
		o.CrawlStore, o.CrawlLog = st, st.Crawl()
	}
	if env.Render != nil {
		if o.Render, o.RenderMode, closeBrowser, err = env.Render(ctx, env.HTTP.UserAgent()); err != nil {
			return o, nil, func() {}, err
		}
	}
	if o.Crawl != nil {
		o.Crawl.Render, o.Crawl.RenderMode = o.Render, o.RenderMode
	}
	if env.Terminal {
		bar = progress.New(env.Err, progress.Options{Unit: "URLs"})
		o.Progress = func(n int) { bar.Set(int64(n)) }
	}
	return o, bar, closeBrowser, nil
}

// interrupted says what an interrupted run kept in its state at path.
func (s Settings) interrupted(w io.Writer, path string) {
	if s.State != "" || s.Resume {
		fmt.Fprintf(w, "sitemap: audit interrupted; what was checked is kept in %s: run the same command again to continue\n", path)
	} else {
		fmt.Fprintf(w, "sitemap: audit interrupted; run it with --resume (or --state FILE) to keep what was checked for the next run\n")
	}
}

// createReport starts Report aside (nil without it), before the work,
// so that an unwritable report fails at once; it is renamed to the
// report only when complete.
func (s Settings) createReport() (*store.AsideFile, error) {
	if s.Report == "" {
		return nil, nil
	}
	if fi, err := os.Stat(s.Report); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("--report %s is a directory; give the name of the HTML file to write, e.g. %s", s.Report, filepath.Join(s.Report, "audit.html"))
	}
	if fi, err := os.Stat(filepath.Dir(s.Report)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--report %s: no directory %s; create it first", s.Report, filepath.Dir(s.Report))
	}
	f, err := store.CreateAside(s.Report)
	if err != nil {
		return nil, fmt.Errorf("--report %s: %v", s.Report, errors.Unwrap(err))
	}
	return f, nil
}

// write prints the records of the audit, adds them to the report and
// publishes it, then writes the summary and the closing lines.
func (s Settings) write(ctx context.Context, a *Auditor, sum Summary, report *store.AsideFile, readErrors int, env Env) (bool, error) {
	var rw io.Writer
	if report != nil {
		rw = report
	}
	tally, err := a.WriteRecords(ctx, sum, env.Out, s.Format, rw, s.Crawl)
	if err == nil && report != nil {
		err = report.Commit(0o644)
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, fmt.Errorf("writing the audit: %v", err)
	}
	sum.WriteText(env.Err, tally)
	if s.Report != "" {
		fmt.Fprintf(env.Err, "sitemap: report written to %s\n", s.Report)
	}
	if readErrors > 0 {
		// A sitemap that could not be read (a child missing, not a
		// sitemap) is a problem found, as in every command: the audit
		// covers only what was read.
		fmt.Fprintf(env.Err, "sitemap: %s reading the sitemaps (above); a sitemap that could not be read is not audited\n", plural.Of(readErrors, "error", "errors"))
	}
	if tally.Errors > 0 {
		fmt.Fprintf(env.Err, "sitemap: %s with errors\n", plural.Of(tally.Errors, "URL", "URLs"))
	}
	return tally.Errors > 0 || readErrors > 0, nil
}
