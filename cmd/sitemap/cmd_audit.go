package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/audit"
)

// auditOptions are the flags and arguments of `sitemap audit`.
type auditOptions struct {
	Inputs []string
	// Audit are the audit's settings (audit.Settings.Run).
	Audit      audit.Settings
	ListStates bool
	Forget     bool
	renderFlags
	UserAgent string
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
	f.StringVar(&o.Audit.Site, "site", "", "`URL` local sitemap files are served at, e.g. https://www.example.com/")
	f.StringVar(&o.Audit.Format, "format", "text", "output: text (a line per finding) or jsonl (a record per URL)")
	f.StringVar(&o.Audit.Report, "report", "", "also write a self-contained HTML report to `FILE`")
	f.IntVar(&o.Audit.Sample, "sample", 0, "audit a uniform random sample of `N` URLs of each sitemap (0: every URL)")
	f.StringVar(&o.Audit.State, "state", "", "state `FILE` that makes the audit resumable")
	f.BoolVar(&o.Audit.Resume, "resume", false, "keep the state in the user's state directory: run the same command again to resume")
	f.BoolVar(&o.ListStates, "list-states", false, "list the audit states kept in the user's state directory, and exit")
	f.BoolVar(&o.Forget, "forget", false, "remove the kept state of the audit of the arguments (of every audit without any), and exit")
	f.BoolVar(&o.Audit.History, "history", false, "keep each URL's lastmod and content in --state; later runs say if lastmod is honest")
	f.BoolVar(&o.Audit.Crawl, "crawl", false, "also crawl from the homepage: missing pages, orphans, click depth")
	f.IntVar(&o.Audit.CrawlMaxPages, "crawl-max-pages", 0, "most pages the crawl fetches (0: no limit)")
	f.IntVar(&o.Audit.CrawlMaxDepth, "crawl-max-depth", 50, "most links the crawl follows from the homepage (0: no limit)")
	o.renderFlags.register(f)
	f.IntVar(&o.Audit.Concurrency, "concurrency", 4, "requests in flight at once")
	f.Float64Var(&o.Audit.Rate, "rate", 10, "most requests per second; 0 for no limit")
	f.DurationVar(&o.Audit.Timeout, "timeout", 30*time.Second, "time limit of one request, body included")
	addMaxErrors(c, &o.Audit.MaxErrors)
	return c
}

func runAudit(c *cobra.Command, o *auditOptions, s *streams) error {
	ctx := c.Context()
	if err := o.Audit.Check(o.Inputs); err != nil {
		return cannotRun("%v", err)
	}
	if err := o.renderFlags.Check(); err != nil { // before the state is opened
		return cannotRun("%v", err)
	}
	sc, err := scopeOf(c)
	if err != nil {
		return err
	}
	client, err := httpClient(o.UserAgent, o.Audit.Timeout, sc)
	if err != nil {
		return cannotRun("%v", err)
	}
	env := audit.Env{HTTP: client, Stdin: s.In, Out: s.Out, Err: s.Err, Terminal: s.ErrIsTerminal, Render: o.renderFlags.Open}
	problems, err := o.Audit.Run(ctx, o.Inputs, env)
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case errors.Is(err, audit.ErrNothingListed):
		// No sitemap found, or sitemaps listing nothing (empty, not a
		// sitemap): a problem found, exit 1 as in fetch and validate.
		return &exitError{Code: exitProblems, Err: err}
	case err != nil:
		return cannotRun("%v", err)
	case problems:
		return problemsFound()
	}
	return nil
}

// runAuditStates is --list-states and --forget: the kept states listed,
// or the one of the arguments (every one without arguments) removed.
func runAuditStates(o *auditOptions, s *streams) error {
	if o.ListStates {
		if err := audit.WriteStates(s.Out, s.Err); err != nil {
			return cannotRun("%v", err)
		}
		if !o.Forget {
			return nil
		}
	}
	if err := audit.Forget(s.Err, o.Audit.Site, o.Inputs); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
