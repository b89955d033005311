package main

import (
	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/view"
)

func newHTMLCmd(s *streams) *cobra.Command {
	var o struct { // the flags of `sitemap html`
		readFlags
		view.Settings
	}
	c := withHelp("html", &cobra.Command{
		Use:  "html [flags] INPUT... -o DIR",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			in, err := o.inputOptions(s.In, !o.Document, nil)
			if err != nil {
				return cannotRun("%v", err)
			}
			sum, err := view.Run(c.Context(), args, view.RunOptions{Settings: o.Settings, Input: in, Quiet: o.Quiet}, s.Out, s.Err)
			return runOutcome(c.Context(), err, sum.Errors > 0)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVarP(&o.Output, "output", "o", "", "`DIR` to write the pages into; with --document a FILE, or - for standard output")
	f.BoolVar(&o.Document, "document", false, "write the HTML view of the one INPUT, a sitemap or index")
	f.StringVar(&o.Title, "title", "", "title of the pages (default \"Site map\")")
	f.StringVar(&o.Lang, "lang", "en", "language of the pages (the lang attribute)")
	f.IntVar(&o.PerPage, "per-page", view.DefaultPerPage, "most links on one page")
	f.StringVar(&o.CSS, "css", "", "`FILE` of CSS that replaces the default stylesheet (inlined)")
	f.StringVar(&o.Template, "template", "", "Go html/template `FILE` that replaces the default page")
	f.StringVar(&o.State, "state", "", "crawl state `FILE` (sitemap crawl --state) giving the pages' titles")
	o.add(c)
	return c
}
