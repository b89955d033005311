package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/input"
)

// parseOptions are the flags and arguments of `sitemap parse`.
type parseOptions struct {
	readFlags
	Format     string
	Follow     bool
	MaxPerRule int
	Inputs     []string
}

func newParseCmd(s *streams) *cobra.Command {
	o := &parseOptions{}
	c := withHelp("parse", &cobra.Command{
		Use:  "parse [flags] INPUT...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runParse(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "jsonl", "output: jsonl, csv or txt")
	f.BoolVar(&o.Follow, "follow", false, "print the URLs of an index's children instead of its entries")
	f.StringVar(&o.Base, "base", "", "`URL` a local INPUT is served at, to find an index's children")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to read with --follow")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "with --follow, also read children on another site (I-05, then a warning)")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors on standard error, not warnings and notes")
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "most diagnostics of one rule shown per document (0: all)")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}

func runParse(ctx context.Context, o *parseOptions, s *streams) error {
	if err := baseNeedsLocal(o.Base, o.Inputs); err != nil {
		return err
	}
	ps := input.ParseSettings{ReadSettings: o.ReadSettings, Format: o.Format, Follow: o.Follow, MaxPerRule: o.MaxPerRule}
	if err := ps.Check(); err != nil {
		return cannotRun("%v", err)
	}
	c, err := o.httpClient()
	if err != nil {
		return cannotRun("%v", err)
	}
	po := ps.ParseOptions(c, s.In)
	// The progress line goes to a terminal's standard error when the
	// entries go elsewhere: on the same terminal they scroll anyway.
	if s.ErrIsTerminal && !isTerminal(s.Out) {
		po.Progress = true
	}
	sum, err := input.Parse(ctx, o.Inputs, po, s.Out, s.Err)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, new(*input.ReportedError)):
		return &exitError{Code: exitUsage} // the diagnostic above said it
	case err != nil:
		return cannotRun("%v", err)
	case sum.Errors > 0:
		return problemsFound()
	}
	return nil
}
