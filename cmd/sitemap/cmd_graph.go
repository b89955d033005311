package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/graph"
	"github.com/sitemapkit/sitemap/store"
)

func newGraphCmd(s *streams) *cobra.Command {
	var o struct { // the flags of `sitemap graph`
		readFlags
		graph.Settings
	}
	c := withHelp("graph", &cobra.Command{
		Use: "graph [flags] INPUT... -o FILE  |  graph --state FILE [INPUT...] -o FILE",
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && o.State == "" {
				return cannotRun("give the sitemaps to draw (INPUT...), or a crawl's --state\nrun 'sitemap graph --help' for usage")
			}
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			in, err := o.inputOptions(s.In, true, nil)
			if err != nil {
				return cannotRun("%v", err)
			}
			sum, err := graph.Run(c.Context(), args, graph.RunOptions{Settings: o.Settings, Input: in, Quiet: o.Quiet}, s.Out, s.Err)
			return runOutcome(c.Context(), err, sum.Errors > 0)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVarP(&o.Output, "output", "o", "-", "`FILE` to write, or - for standard output")
	f.StringVar(&o.Format, "format", "", "html, svg, dot or json (default: from the name of -o; json on standard output)")
	f.StringVar(&o.State, "state", "", "draw the internal links of this crawl state `FILE` (sitemap crawl --state)")
	f.StringVar(&o.Title, "title", "", "title of the drawing (default: \"Sections of\" the site)")
	f.IntVar(&o.MaxNodes, "max-nodes", graph.DefaultMaxNodes, "most sections drawn; the rest are aggregated into \"+N more\" nodes")
	f.IntVar(&o.MaxLinks, "max-links", graph.DefaultMaxLinks, "with --state, most links drawn in SVG and DOT (the heaviest)")
	f.IntVar(&o.MaxSections, "max-sections", graph.DefaultMaxSections, "most sections held while reading (a memory ceiling)")
	f.IntVar(&o.MaxPages, "max-pages", graph.DefaultMaxPages, "pages of each section kept to list in the HTML map")
	o.add(c)
	return c
}

// writeOutput is store.WriteOutput (crawl's --report uses it too).
func writeOutput(name string, stdout io.Writer, write func(io.Writer) error) error {
	return store.WriteOutput(name, stdout, write)
}
