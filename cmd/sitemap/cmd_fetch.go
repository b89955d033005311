package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// fetchOptions are the flags and argument of `sitemap fetch`.
type fetchOptions struct {
	fetch.Settings
	Start string
	// httpOnly are the HTTP-only flags given (fetch.HTTPOnlyFlags).
	httpOnly []string
}

func newFetchCmd(s *streams) *cobra.Command {
	o := &fetchOptions{}
	c := withHelp("fetch", &cobra.Command{
		Use:  "fetch [flags] URL|FILE|DIR|-",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Start = args[0]
			o.UserAgent = userAgent(c)
			for _, name := range fetch.HTTPOnlyFlags() {
				if fl := c.Flags().Lookup(name); fl != nil && fl.Changed {
					o.httpOnly = append(o.httpOnly, "--"+name)
				}
			}
			if err := o.Check(); err != nil {
				return cannotRun("%v", err)
			}
			var err error
			if o.Scope, err = scopeOf(c); err != nil {
				return err
			}
			return runFetch(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "txt", "output: txt, jsonl or csv")
	f.BoolVar(&o.Tree, "tree", false, "print the tree of documents with counts and problems instead of URLs (--format json: one object)")
	f.BoolVar(&o.TreeURLs, "urls", false, "with --tree, list each sitemap's URLs beneath it")
	f.StringVar(&o.KnownPaths, "known-paths", "fallback", "probe well-known paths: never, fallback (robots.txt names none), always")
	f.IntVar(&o.Concurrency, "concurrency", 8, "sitemaps read at once")
	f.IntVar(&o.PerHost, "per-host", 4, "sitemaps read at once from one host")
	f.StringVar(&o.Base, "base", "", "`URL` a local START is served at, to find an index's children")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.IntVar(&o.MaxDepth, "max-depth", 5, "deepest level of indexes followed")
	f.IntVar(&o.MaxSitemaps, "max-sitemaps", 10000, "most sitemaps requested")
	f.Int64Var(&o.MaxURLs, "max-urls", 0, "stop after this many URLs (0: no limit)")
	f.Int64Var(&o.MaxBytes, "max-bytes", 0, "stop after this many bytes transferred (0: no limit)")
	f.DurationVar(&o.Timeout, "timeout", 0, "time limit of the whole run (0: none)")
	f.DurationVar(&o.SitemapTimeout, "sitemap-timeout", 5*time.Minute, "time limit of one sitemap, request and body")
	f.DurationVar(&o.IdleTimeout, "idle-timeout", 30*time.Second, "longest a server may send nothing in the middle of a body")
	f.IntVar(&o.Attempts, "attempts", 3, "tries of a request on 429, 5xx and network errors")
	f.StringVar(&o.CacheDir, "cache", "", "`DIR` keeping bodies for conditional requests next time")
	f.BoolVar(&o.NoDedup, "no-dedup", false, "print a URL every time a sitemap lists it (memory stays flat)")
	o.DedupMemory = fetch.DefaultDedupMemory
	f.Var((*seen.Memory)(&o.DedupMemory), "dedup-memory", "memory for the URLs printed, a `SIZE` such as 1GiB; then a temporary file")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors and the summary on standard error")
	f.BoolVar(&o.Verbose, "verbose", false, "also print notes (info diagnostics) on standard error")
	f.BoolVar(&o.Changes, "changes", false, "print what changed since the last run with --state, as diff's JSONL")
	f.StringVar(&o.State, "state", "", "with --changes, the `FILE` or postgres:// database of the last run")
	f.StringVar(&o.FullEvery, "full-every", "10", "with --changes, read every child every `N` runs or after a duration (168h)")
	f.StringVar(&o.Since, "since", "", "print only entries whose lastmod is after `TIME` (2026-11-02, RFC 3339, 24h)")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

func runFetch(ctx context.Context, o *fetchOptions, s *streams) error {
	if o.UserAgent == "" {
		o.UserAgent = defaultUserAgent()
	}
	ro, err := o.RunOptions(o.Start, time.Now())
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.Changes {
		return runFetchChanges(ctx, o, ro, s)
	}
	if !urlnorm.IsHTTP(o.Start) {
		// A local START is read by the same walk as a URL, its documents
		// through package input's Getter, one at a time so the URLs come
		// in the files' order.
		fetch.WarnLocal(s.Err, o.Start, o.httpOnly)
		ro.Getter = input.NewGetter(input.Options{Base: o.Base, Stdin: s.In})
		ro.Concurrency = 1
	}
	ro.Progress = s.ErrIsTerminal
	sum, err := fetch.Run(ctx, o.Start, ro, s.Out, s.Err)
	var se *fetch.StartError
	var oe *input.OpenError
	if errors.As(err, &se) && errors.As(se.Err, &oe) {
		se.Err = oe.Err // the message names the START already
	}
	switch {
	case err != nil:
		return cannotRun("%v", err)
	case sum.Errors > 0 || sum.Failed > 0:
		return problemsFound()
	}
	return nil
}

// runFetchChanges is fetch --changes: diff.RunChanges on the state.
func runFetchChanges(ctx context.Context, o *fetchOptions, ro fetch.RunOptions, s *streams) error {
	co := diff.ChangesRunOptions{Format: map[bool]string{true: "text"}[o.Format == "text"], Quiet: o.Quiet, Verbose: o.Verbose}
	var err error
	if co.FullEvery, co.FullAfter, err = diff.ParseFullEvery(o.FullEvery); err != nil {
		return cannotRun("%v", err)
	}
	co.Since, co.Fetch = ro.Since, ro.Options
	switch sum, err := diff.RunChanges(ctx, o.Start, o.State, co, s.Out, s.Err); {
	case err != nil:
		return cannotRun("%v", err)
	case sum.Walk.Errors+sum.Walk.Failed > 0:
		return problemsFound()
	}
	return nil
}
