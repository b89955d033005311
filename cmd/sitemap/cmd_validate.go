package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/validate"
)

func newValidateCmd(s *streams) *cobra.Command {
	o := &validate.Settings{}
	c := withHelp("validate", &cobra.Command{
		Use:  "validate [flags] INPUT...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := requester(c, &o.Client.UserAgent, &o.Client.Scope); err != nil {
				return err
			}
			ro, err := o.RunOptions(args, s.In)
			if err != nil {
				return cannotRun("%v", err)
			}
			ro.Progress = s.ErrIsTerminal
			sum, err := validate.Run(c.Context(), args, ro, s.Out, s.Err)
			switch {
			case err == nil && sum.Unopened > 0 && sum.Documents == 0:
				return &exitError{Code: exitUsage} // the error above says it all
			case err == nil && sum.Unopened > 0:
				return &exitError{Code: exitUsage, Err: errors.New(sum.Unread())}
			}
			return runOutcome(c.Context(), err, sum.Failed(o.Strict))
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "text", "output: text, json (one array) or jsonl (one object a line)")
	f.BoolVar(&o.Strict, "strict", false, "count warnings as errors for the exit status")
	f.StringVar(&o.Base, "base", "", "`URL` a local INPUT is served at (a file, or a directory ending in /; L-09, I-06)")
	f.StringVar(&o.Now, "now", "", "`TIME` to judge lastmod (M-07) and news age (N-06) by (default: now)")
	f.BoolVar(&o.CrossSubmit, "cross-submit", false, "the sitemap is cross-submitted (O-03): scope errors become warnings")
	f.StringSliceVar(&o.TrustedHosts, "trusted-host", nil, "another `HOST` allowed in the sitemap (O-06); repeatable")
	f.BoolVar(&o.NoChildren, "no-children", false, "do not check the children of a sitemap index")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to check")
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "most diagnostics of one rule shown per document (0: all)")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Client.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}
