package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/diff"
)

func newDiffCmd(s *streams) *cobra.Command {
	o := &diff.Settings{}
	c := withHelp("diff", &cobra.Command{
		Use:  "diff [flags] OLD NEW",
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if err := requester(c, &o.Client.UserAgent, &o.Client.Scope); err != nil {
				return err
			}
			ro, err := o.RunOptions(args[0], args[1], s.In)
			if err != nil {
				return cannotRun("%v", err)
			}
			sum, err := diff.Run(c.Context(), args[0], args[1], ro, s.Out, s.Err)
			// A side that is no sitemap, or whose children cannot be read, is a
			// problem found (diff.SideError): exit 1 as in validate, parse and fetch.
			return runOutcome(c.Context(), err, sum.Differ())
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "text", "output: text or jsonl (one change a line)")
	f.StringSliceVar(&o.Ignore, "ignore", nil, "`FIELD` not to compare (lastmod, changefreq, priority, images, …); repeatable")
	f.StringVar(&o.TempDir, "tmp-dir", "", "`DIR` for the temporary sort files (default: $TMPDIR)")
	f.DurationVar(&o.Client.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	f.StringVar(&o.Base, "base", "", "`URL` local OLD and NEW are served at, to find an index's children")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	addMaxErrors(c, &o.MaxErrors)
	return c
}
