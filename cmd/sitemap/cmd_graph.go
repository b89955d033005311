package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/graph"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/state"
)

// graphOptions are the flags and arguments of `sitemap graph`.
type graphOptions struct {
	UserAgent    string
	Scope        fetch.Scope
	Output       string
	Format       string
	Title        string
	MaxNodes     int
	MaxLinks     int
	MaxSections  int
	MaxPages     int
	Base         string
	MaxChildren  int
	AllowOffSite bool
	Quiet        bool
	MaxErrors    int
	Timeout      time.Duration
	State        string
	Inputs       []string

	client *fetch.Client
}

func newGraphCmd(s *streams) *cobra.Command {
	o := &graphOptions{}
	c := &cobra.Command{
		Use:   "graph [flags] INPUT... -o FILE  |  graph --state FILE [INPUT...] -o FILE",
		Short: "Draw a site's sections from its sitemaps: an interactive HTML map, SVG, Graphviz DOT or JSON",
		Long: `Graph draws a site's sections from its sitemaps (a tree by URL path with page counts) as an
interactive HTML map, SVG, Graphviz DOT or JSON, by the name of -o; with --state, a crawl's
internal links with orphans and missing pages marked. See docs/DRAWING.md.`,
		Example: `  sitemap graph testdata/samples/basic.xml -o site.html
  sitemap crawl https://www.example.com/ --out crawled/ --state crawl.db
  sitemap graph --state crawl.db -o links.html
  sitemap graph --state crawl.db public/sitemap.xml -o links.html
  sitemap graph https://www.example.com/ -o site.svg
  sitemap graph testdata/samples/ -o site.dot
  sitemap graph --format json testdata/samples/basic.xml`,
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
	}
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
	f.StringVar(&o.Base, "base", "", "`URL` a local INPUT is served at, to find an index's children")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to read")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors on standard error, not warnings")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}

// graphFormat is the output format of -o NAME and --format.
func graphFormat(output, format string) (string, error) {
	if format == "" {
		switch strings.ToLower(filepath.Ext(output)) {
		case ".html", ".htm":
			format = "html"
		case ".svg":
			format = "svg"
		case ".dot", ".gv":
			format = "dot"
		case ".json":
			format = "json"
		case "":
			if output == "-" {
				return "json", nil
			}
			fallthrough
		default:
			return "", fmt.Errorf("-o %s: the name does not say the format; end it in .html, .svg, .dot or .json, or give --format", output)
		}
	}
	switch format {
	case "html", "svg", "dot", "json":
		return format, nil
	}
	return "", fmt.Errorf("--format %q: want html, svg, dot or json", format)
}

// graphEntries returns the URLs of the inputs: a site's through fetch's
// discovery, anything else through input with its children followed.
// Diagnostics go to diag.
func graphEntries(o *graphOptions, stdin io.Reader, diag func(sitemap.Diagnostic)) sitemap.Entries {
	in := input.Options{
		Base: o.Base, Stdin: stdin, Follow: true, MaxChildren: o.MaxChildren, AllowOffSite: o.AllowOffSite,
		Client:       o.client,
		Decoder:      sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)},
		OnDiagnostic: diag,
	}
	if o.MaxChildren == 0 {
		in.MaxChildren = -1
	}
	return siteEntries(o.Inputs, in)
}

// siteEntries returns the URLs of the inputs, read with in through the
// one walk (input.Entries): a site's homepage or robots.txt URL stands for
// the sitemaps discovery finds there, read eight at a time.
// Diagnostics go to in.OnDiagnostic.
func siteEntries(inputs []string, in input.Options) sitemap.Entries {
	if len(inputs) == 1 && input.IsSiteStart(inputs[0]) {
		in.Concurrency = 8
	}
	return input.Entries(inputs, in)
}

// diagPrinter prints diagnostics on standard error and counts errors.
type diagPrinter struct {
	w      io.Writer
	quiet  bool
	errors int
}

func (p *diagPrinter) diag(d sitemap.Diagnostic) {
	if d.Severity == sitemap.SeverityError {
		p.errors++
	} else if p.quiet {
		return
	}
	fmt.Fprintln(p.w, d.String())
}

func runGraph(ctx context.Context, o *graphOptions, s *streams) error {
	format, err := graphFormat(o.Output, o.Format)
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.MaxNodes < 1 || o.MaxSections < 1 || o.MaxLinks < 1 || o.MaxPages < 0 {
		return cannotRun("--max-nodes, --max-sections and --max-links must be at least 1, --max-pages at least 0")
	}
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return cannotRun("%v", err)
		}
	}
	dp := &diagPrinter{w: s.Err, quiet: o.Quiet}
	gopt := graph.Options{MaxSections: o.MaxSections, MaxPages: pagesOption(o.MaxPages)}
	draw := graph.DrawOptions{MaxNodes: o.MaxNodes, MaxLinks: o.MaxLinks, Title: o.Title}
	if o.State != "" {
		return runLinkGraph(ctx, o, s, dp, format, gopt, draw)
	}
	tree, err := graph.Build(ctx, graphEntries(o, s.In, dp.diag), gopt)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}
	if tree.URLs == 0 {
		return nothingRead(o.Inputs, "nothing to draw")
	}
	err = writeOutput(o.Output, s.Out, func(w io.Writer) error {
		switch format {
		case "html":
			return tree.HTML(ctx, w, draw)
		case "svg":
			return tree.SVG(ctx, w, draw)
		case "dot":
			return tree.DOT(ctx, w, draw)
		}
		return tree.JSON(ctx, w, draw)
	})
	if err != nil {
		return cannotRun("%v", err)
	}
	if dp.errors > 0 {
		return problemsFound()
	}
	return nil
}

// runLinkGraph draws the link graph of the crawl state o.State.
func runLinkGraph(ctx context.Context, o *graphOptions, s *streams, dp *diagPrinter, format string, gopt graph.Options, draw graph.DrawOptions) error {
	st, err := openStateReadOnly(ctx, o.State)
	if err != nil {
		return err
	}
	defer st.Close()
	var listed sitemap.Entries
	if len(o.Inputs) > 0 {
		listed = graphEntries(o, s.In, dp.diag)
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
	if n := lt.URLs - lt.Skipped; n > 0 && lt.Unreached == n && !o.Quiet {
		crawled := lt.Start
		if crawled == "" {
			crawled = state.Redact(o.State)
		}
		fmt.Fprintf(s.Err, "sitemap: warning: the crawl of %s reached none of the %s of %s: every one is drawn as an orphan; give the sitemaps of the site crawled (the same scheme, host and port)\n",
			crawled, plural(n, "URL"), strings.Join(o.Inputs, ", "))
	}
	if fc, ok := st.Crawl().(state.FrontierCounter); ok && !o.Quiet {
		if n, err := fc.Frontier(ctx); err == nil && n > 0 {
			fmt.Fprintf(s.Err, "sitemap: warning: --state %s: the crawl has not finished (%s still to fetch): the links of those pages are missing and click depths are unknown; run the same crawl command again to finish it\n",
				state.Redact(o.State), plural(n, "URL"))
		}
	}
	err = writeOutput(o.Output, s.Out, func(w io.Writer) error {
		switch format {
		case "html":
			return lt.HTML(ctx, w, draw)
		case "svg":
			return lt.SVG(ctx, w, draw)
		case "dot":
			return lt.DOT(ctx, w, draw)
		}
		return lt.JSON(ctx, w, draw)
	})
	if err != nil {
		return cannotRun("%v", err)
	}
	if dp.errors > 0 {
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

// writeOutput runs write on standard output (name "-") or on a temporary
// file beside name that is renamed to name when write succeeds, so name
// is never left half written.
func writeOutput(name string, stdout io.Writer, write func(io.Writer) error) error {
	if name == "-" {
		return write(stdout)
	}
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		// The error names the temporary file, which the user never
		// asked for: say what is wrong with the directory instead.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("writing %s: directory %s does not exist; create it first", name, dir)
		}
		return fmt.Errorf("writing %s: cannot create a file in %s: %v", name, dir, err)
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return nil
}
