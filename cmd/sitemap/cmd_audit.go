package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// auditOptions are the flags and arguments of `sitemap audit`.
type auditOptions struct {
	Inputs      []string
	Site        string
	Format      string
	Report      string
	Sample      int
	State       string
	Crawl       bool
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
	c := &cobra.Command{
		Use:   "audit [flags] URL | FILE... --site URL",
		Short: "Request every URL a site's sitemaps list and report what is wrong: redirects, 404s, noindex, canonicals, orphans",
		Long: `Audit requests every URL a site's sitemaps list and reports redirects, 404s, noindex pages,
canonicals elsewhere and stale lastmods (with --crawl, orphans and missing pages), each with
its rule, AUD-01 to AUD-18; exit status 1 on an error-class finding. See docs/AUDIT.md.`,
		Example: `  sitemap audit https://www.example.com/
  sitemap audit https://www.example.com/sitemap.xml --crawl --report audit.html
  sitemap audit public/sitemap.xml --site https://www.example.com/ --sample 2000`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			o.UserAgent = userAgent(c)
			return runAudit(c, o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Site, "site", "", "`URL` local sitemap files are served at, e.g. https://www.example.com/")
	f.StringVar(&o.Format, "format", "text", "output: text (a line per finding) or jsonl (a record per URL)")
	f.StringVar(&o.Report, "report", "", "also write a self-contained HTML report to `FILE`")
	f.IntVar(&o.Sample, "sample", 0, "audit a uniform random sample of `N` URLs of each sitemap (0: every URL)")
	f.StringVar(&o.State, "state", "", "state `FILE` that makes the audit resumable (default: in the user's state directory)")
	f.BoolVar(&o.Crawl, "crawl", false, "also crawl from the homepage: missing pages, orphans, click depth")
	f.IntVar(&o.CrawlPages, "crawl-max-pages", 0, "most pages the crawl fetches (0: no limit)")
	f.IntVar(&o.CrawlDepth, "crawl-max-depth", 50, "most links the crawl follows from the homepage (0: no limit)")
	f.IntVar(&o.Concurrency, "concurrency", 4, "requests in flight at once")
	f.Float64Var(&o.Rate, "rate", 10, "most requests per second; 0 for no limit")
	f.DurationVar(&o.Timeout, "timeout", 30*time.Second, "time limit of one request, body included")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

// auditStatePath is the default state of an audit: STATEHOME/audit/HASH.db,
// HASH the first 16 hex digits of the SHA-256 of what is audited (the
// start, or --site and the absolute paths of the files).
func auditStatePath(o *auditOptions) (string, error) {
	home, err := state.UserDir()
	if err != nil {
		return "", err
	}
	key := o.Site
	for _, in := range o.Inputs {
		if abs, err := filepath.Abs(in); err == nil && !isURL(in) && in != "-" {
			in = abs
		}
		key += "\x00" + in
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(home, "audit", hex.EncodeToString(sum[:8])+".db"), nil
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func runAudit(c *cobra.Command, o *auditOptions, s *streams) error {
	ctx := c.Context()
	if o.Format != "text" && o.Format != "jsonl" {
		return cannotRun("--format %q: want text or jsonl", o.Format)
	}
	if o.Concurrency < 1 {
		return cannotRun("--concurrency must be at least 1")
	}
	if o.Sample < 0 {
		return cannotRun("--sample must be 0 (every URL) or more")
	}
	switch {
	case o.Rate < 0:
		return cannotRun("--rate %v: give 0 (no limit) or more requests a second", o.Rate)
	case o.CrawlPages < 0:
		return cannotRun("--crawl-max-pages %d: give 0 (no limit) or more", o.CrawlPages)
	case o.CrawlDepth < 0:
		return cannotRun("--crawl-max-depth %d: give 0 (no limit) or more", o.CrawlDepth)
	}
	local := len(o.Inputs) > 1 || !isURL(o.Inputs[0])
	if o.Site != "" && !isURL(o.Site) {
		return cannotRun("--site %q is not an http(s) URL; give where the files are served, e.g. https://www.example.com/", o.Site)
	}
	if local {
		for _, in := range o.Inputs {
			if isURL(in) {
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
	} else if o.Site != "" {
		return cannotRun("--site is for local sitemap files; a URL is served where it is")
	}
	sc, err := scopeOf(c)
	if err != nil {
		return err
	}
	client, err := httpClient(o.UserAgent, o.Timeout, sc)
	if err != nil {
		return cannotRun("%v", err)
	}
	statePath := o.State
	if statePath == "" {
		if statePath, err = auditStatePath(o); err != nil {
			return cannotRun("the audit state has no default place: %v; give --state FILE", err)
		}
		fmt.Fprintf(s.Err, "sitemap: audit state: %s (--state FILE, or %s, to keep it elsewhere)\n", statePath, state.DirEnv)
	}
	if err := os.MkdirAll(filepath.Dir(statePath), 0o755); err != nil {
		return cannotRun("--state %s: %v", statePath, err)
	}
	var report *os.File
	if o.Report != "" {
		// A temporary file beside the report, made before the work so an
		// unwritable report fails at once, and renamed to the report only
		// when it is complete: a failed or interrupted audit leaves no
		// report behind, nor truncates the one a previous run wrote.
		if fi, err := os.Stat(o.Report); err == nil && fi.IsDir() {
			return cannotRun("--report %s is a directory; give the name of the HTML file to write, e.g. %s", o.Report, filepath.Join(o.Report, "audit.html"))
		}
		if fi, err := os.Stat(filepath.Dir(o.Report)); err != nil || !fi.IsDir() {
			return cannotRun("--report %s: no directory %s; create it first", o.Report, filepath.Dir(o.Report))
		}
		if report, err = os.CreateTemp(filepath.Dir(o.Report), "."+filepath.Base(o.Report)+".*.tmp"); err != nil {
			return cannotRun("--report %s: %v", o.Report, err)
		}
		defer func() {
			report.Close()
			os.Remove(report.Name()) // gone already when the report was published
		}()
	}
	st, err := state.OpenSQLite(ctx, statePath, state.SQLiteOptions{})
	if err != nil {
		return cannotRun("%v", err)
	}
	defer st.Close()

	diags, readErrors := 0, 0
	ao := audit.Options{
		HTTP: client, Concurrency: o.Concurrency, Rate: o.Rate, Sample: o.Sample, Site: o.Site,
		MaxErrors: decoderMaxErrors(o.MaxErrors), Stdin: s.In,
		OnDiagnostic: func(d sitemap.Diagnostic) {
			if d.Severity == sitemap.SeverityInfo {
				return
			}
			if d.Severity == sitemap.SeverityError {
				readErrors++
			}
			if d.Rule == rules.VAL01 {
				// Where local children are looked for is audit's --site.
				d.Message = strings.Replace(d.Message, "by its path under --base", "by its path under --site", 1)
			}
			if diags++; diags <= auditMaxDiagnostics {
				fmt.Fprintln(s.Err, d.String())
			}
		},
	}
	if o.Rate == 0 {
		ao.Rate = -1
	}
	if o.Crawl {
		ao.Crawl = &crawl.Options{MaxPages: o.CrawlPages, MaxDepth: o.CrawlDepth, Rate: ao.Rate, Concurrency: o.Concurrency, Timeout: o.Timeout}
		ao.CrawlStore, ao.CrawlLog = st, st.Crawl()
	}
	var bar *progress.Bar
	if s.ErrIsTerminal {
		bar = progress.New(s.Err, progress.Options{Unit: "URLs"})
		ao.Progress = func(n int) { bar.Set(int64(n)) }
	}
	a, err := audit.New(ctx, st.Audit(), o.Inputs, ao)
	if err != nil {
		return cannotRun("%v", err)
	}
	if a.Resumed() {
		fmt.Fprintf(s.Err, "sitemap: resuming the unfinished audit in %s\n", statePath)
	}
	sum, err := a.Run(ctx)
	bar.Done()
	if diags > auditMaxDiagnostics {
		fmt.Fprintf(s.Err, "sitemap: %d more problems reading the sitemaps not shown (sitemap validate lists them)\n", diags-auditMaxDiagnostics)
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.Err, "sitemap: audit interrupted; what was checked is kept in %s: run the same command again to continue\n", statePath)
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}
	if sum.Listed == 0 {
		// No sitemap found, or sitemaps listing nothing (empty, not a
		// sitemap): a problem found, exit 1 as in fetch and validate.
		return &exitError{Code: exitProblems, Err: errors.New("the sitemaps list no URL; nothing audited")}
	}

	bw := bufio.NewWriterSize(s.Out, 64<<10)
	var rep *audit.ReportWriter
	if report != nil {
		rep = audit.NewReportWriter(report, audit.ReportInfo{Start: sum.Start, Sample: sum.Sample, Listed: sum.Listed, Sampled: sum.Sampled, Crawled: o.Crawl, Time: time.Now()})
	}
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	tally, err := a.Records(ctx, func(r *audit.Record) error {
		if rep != nil {
			if err := rep.Add(r); err != nil {
				return err
			}
		}
		if o.Format == "jsonl" {
			return enc.Encode(r)
		}
		for _, f := range r.Findings {
			fmt.Fprintf(bw, "%s: %s %s: %s\n", r.URL, f.Severity, f.Rule, escapeLine(f.Message))
		}
		return nil
	})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && rep != nil {
		if err = rep.Close(); err == nil {
			err = report.Close()
		}
		if err == nil {
			err = os.Chmod(report.Name(), 0o644)
		}
		if err == nil {
			err = os.Rename(report.Name(), o.Report)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("writing the audit: %v", err)
	}
	writeAuditSummary(s.Err, sum, tally)
	if o.Report != "" {
		fmt.Fprintf(s.Err, "sitemap: report written to %s\n", o.Report)
	}
	if readErrors > 0 {
		// A sitemap that could not be read (a child missing, not a
		// sitemap) is a problem found, as in every command: the audit
		// covers only what was read.
		fmt.Fprintf(s.Err, "sitemap: %s reading the sitemaps (above); a sitemap that could not be read is not audited\n", plural(readErrors, "error"))
	}
	if tally.Errors > 0 {
		fmt.Fprintf(s.Err, "sitemap: %d %s with errors\n", tally.Errors, crawlPlural(tally.Errors, "URL", "URLs"))
	}
	if tally.Errors > 0 || readErrors > 0 {
		return problemsFound()
	}
	return nil
}

// auditMaxDiagnostics is how many problems reading the sitemaps are shown.
const auditMaxDiagnostics = 50

// escapeLine keeps one record per line whatever a message quotes.
func escapeLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(s)
}

// writeAuditSummary writes the counts by class.
func writeAuditSummary(w io.Writer, sum audit.Summary, t audit.Tally) {
	how := "audited"
	if sum.Resumed {
		how = "resumed the audit of"
	}
	sample := ""
	if sum.Sample > 0 {
		sample = fmt.Sprintf(" (a uniform random sample of at most %d per sitemap)", sum.Sample)
	}
	fmt.Fprintf(w, "%s %s: %d listed %s, %d audited%s; %d checked in this run, in %s\n", how, sum.Start, sum.Listed, crawlPlural(sum.Listed, "URL", "URLs"),
		sum.Sampled, sample, sum.Checked, sum.Elapsed.Round(time.Millisecond))
	if sum.Crawled > 0 {
		fmt.Fprintf(w, "  the crawl fetched %d %s\n", sum.Crawled, crawlPlural(sum.Crawled, "page", "pages"))
	}
	ids := make([]rules.ID, 0, len(t.Rules))
	for id := range t.Rules {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "  %s %-7s %-34s %d\n", id, audit.Severity(id), audit.ClassName(id), t.Rules[id])
	}
}
