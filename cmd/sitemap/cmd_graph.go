package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/graph"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// graphOptions are the flags and arguments of `sitemap graph`.
type graphOptions struct {
	readFlags
	Output      string
	Format      string
	Title       string
	MaxNodes    int
	MaxLinks    int
	MaxSections int
	MaxPages    int
	State       string
	Inputs      []string
}

func newGraphCmd(s *streams) *cobra.Command {
	o := &graphOptions{}
	c := withHelp("graph", &cobra.Command{
		Use: "graph [flags] INPUT... -o FILE  |  graph --state FILE [INPUT...] -o FILE",
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if len(args) == 0 && o.State == "" {
				return cannotRun("give the sitemaps to draw (INPUT...), or a crawl's --state\nrun 'sitemap graph --help' for usage")
			}
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runGraph(c.Context(), o, s)
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

func runGraph(ctx context.Context, o *graphOptions, s *streams) error {
	format, err := graph.FormatOf(o.Output, o.Format)
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.MaxNodes < 1 || o.MaxSections < 1 || o.MaxLinks < 1 || o.MaxPages < 0 {
		return cannotRun("--max-nodes, --max-sections and --max-links must be at least 1, --max-pages at least 0")
	}
	dp := report.NewPrinter(s.Err, o.Quiet)
	in, err := o.inputOptions(s.In, true, dp.Print)
	if err != nil {
		return cannotRun("%v", err)
	}
	in.JSONL = true                        // a CSV or JSONL entry list brings its titles
	entries := input.Entries(o.Inputs, in) // read through the one walk: a site's sitemaps, an index's children
	gopt := graph.Options{MaxSections: o.MaxSections, MaxPages: pagesOption(o.MaxPages)}
	draw := graph.DrawOptions{MaxNodes: o.MaxNodes, MaxLinks: o.MaxLinks, Title: o.Title}
	if o.State != "" {
		return runLinkGraph(ctx, o, s, dp, entries, format, gopt, draw)
	}
	tree, err := graph.Build(ctx, entries, gopt)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}
	if tree.URLs == 0 {
		return nothingRead(o.Inputs, "nothing to draw")
	}
	err = store.WriteOutput(o.Output, s.Out, func(w io.Writer) error { return graph.Draw(ctx, w, tree, format, draw) })
	if err != nil {
		return cannotRun("%v", err)
	}
	if dp.Errors > 0 {
		return problemsFound()
	}
	return nil
}

// runLinkGraph draws the link graph of the crawl state o.State.
func runLinkGraph(ctx context.Context, o *graphOptions, s *streams, dp *report.Printer, entries sitemap.Entries, format string, gopt graph.Options, draw graph.DrawOptions) error {
	st, err := state.OpenCrawlState(ctx, o.State)
	if err != nil {
		return cannotRun("--state %v", err)
	}
	defer st.Close()
	var listed sitemap.Entries
	if len(o.Inputs) > 0 {
		listed = entries
	}
	lt, err := graph.Links(ctx, st.Crawl(), listed, gopt)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}
	if lt.URLs == 0 {
		return cannotRun("--state %s: the crawl listed no page and no INPUT was given: nothing to draw", o.State)
	}
	for _, w := range lt.Warnings(ctx, st.Crawl(), state.Redact(o.State), o.Inputs) {
		if o.Quiet {
			break
		}
		fmt.Fprintln(s.Err, "sitemap: warning: "+w)
	}
	err = store.WriteOutput(o.Output, s.Out, func(w io.Writer) error { return graph.Draw(ctx, w, lt, format, draw) })
	if err != nil {
		return cannotRun("%v", err)
	}
	if dp.Errors > 0 {
		return problemsFound()
	}
	return nil
}

// nothingRead is the exit-1 error of a run whose inputs were read and
// listed no URL (no sitemap found at a homepage, an empty sitemap, a
// document that is not a sitemap): problems found, as fetch and validate
// say, not a failure to run.
func nothingRead(inputs []string, what string) error {
	return &exitError{Code: exitProblems, Err: fmt.Errorf("no URL read from %s: %s", strings.Join(inputs, ", "), what)}
}

// pagesOption turns --max-pages (0: none) into graph.Options.MaxPages
// (0: the default, negative: none).
func pagesOption(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// writeOutput is store.WriteOutput (crawl's --report uses it too).
func writeOutput(name string, stdout io.Writer, write func(io.Writer) error) error {
	return store.WriteOutput(name, stdout, write)
}
