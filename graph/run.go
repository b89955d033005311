package graph

import (
	"context"
	"errors"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// Settings are the options of [Run] as a person gives them (the flags of
// `sitemap graph`, named alike). Check checks them.
type Settings struct {
	// Output is the FILE to write, or "-" for standard output.
	Output string
	// Format is one of [Formats], or "" for the one Output's name says
	// ([FormatOf]).
	Format string
	// Title is DrawOptions.Title.
	Title string
	// MaxNodes, MaxLinks (DrawOptions) and MaxSections (Options) are at
	// least 1; MaxPages, the pages of a section kept, at least 0 (0: none).
	MaxNodes, MaxLinks, MaxSections, MaxPages int
	// State names a crawl state (`sitemap crawl --state`: a file or a
	// postgres:// URL) whose link graph is drawn instead of the sections
	// of the inputs ([Links]).
	State string
}

// Check checks s and returns the format of the drawing. An error names
// the setting as its flag (--max-nodes) and says what to give instead.
func (s Settings) Check() (format string, err error) {
	if format, err = FormatOf(s.Output, s.Format); err != nil {
		return "", err
	}
	if s.MaxNodes < 1 || s.MaxSections < 1 || s.MaxLinks < 1 || s.MaxPages < 0 {
		return "", errors.New("--max-nodes, --max-sections and --max-links must be at least 1, --max-pages at least 0")
	}
	return format, nil
}

// RunOptions are the options of [Run].
type RunOptions struct {
	Settings
	// Input is how the inputs are read: a site's sitemaps, an index's
	// children (Follow, JSONL, so that an entry list brings its titles,
	// and OnDiagnostic are Run's own).
	Input input.Options
	// Quiet leaves out the warnings and notes among the problems seen
	// reading, the warnings about a link graph and the closing line.
	Quiet bool
}

// RunSummary is what [Run] drew.
type RunSummary struct {
	// Output is the file written ("-": standard output), Format its format.
	Output, Format string
	// URLs are the URLs drawn, in Sections sections; Drawn is how many
	// nodes the drawing has (MaxNodes at most).
	URLs, Sections, Drawn int
	// State is set for the link graph of a crawl state; Links is then
	// the number of internal links between its sections.
	State bool
	Links int
	// Errors counts the error diagnostics seen reading the inputs.
	Errors int
}

// String is the closing line of Run ("wrote site.svg (svg): 450 URLs in
// 35 sections"; "wrote json to standard output: …").
func (s RunSummary) String() string {
	wrote := "wrote " + s.Output + " (" + s.Format + ")"
	if s.Output == "-" {
		wrote = "wrote " + s.Format + " to standard output"
	}
	urls := plural.Of(s.URLs, "URL", "URLs")
	if s.State {
		urls = plural.Of(s.URLs, "sitemap URL", "sitemap URLs")
	}
	line := wrote + ": " + urls + " in " + plural.Of(s.Sections, "section", "sections")
	if s.Drawn < s.Sections {
		line += " (" + progress.Group(int64(s.Drawn)) + " drawn)"
	}
	if s.State {
		line += "; " + plural.Of(s.Links, "internal link", "internal links")
	}
	return line
}

// Run is `sitemap graph` as one call: the entries of the inputs names
// ([input.Entries], a site's sitemaps and an index's children read) built
// into a [Tree], or with o.State the link graph of that crawl state
// ([Links]; names, when given, are the sitemap it is compared with),
// drawn in o's format ([Draw]) into o.Output through [store.WriteOutput]
// (stdout for "-"; a failed run leaves the old file). Unless o.Quiet, the
// link graph's warnings ([LinkTree.Warnings]) and the closing line
// ([RunSummary.String]) go to diag, after "sitemap: ". The problems seen
// reading go to diag as they come, as text ([report.Printer]: only the
// errors with o.Quiet), counted in the summary's Errors.
//
// Inputs that list no URL are an [*input.EmptyError]; a done ctx returns
// ctx.Err(); any other error (settings, a state that cannot be opened,
// one that listed no page, a write) says what to do.
func Run(ctx context.Context, names []string, o RunOptions, stdout, diag io.Writer) (sum RunSummary, err error) {
	format, err := o.Check()
	sum = RunSummary{Output: o.Output, Format: format, State: o.State != ""}
	if err != nil {
		return sum, err
	}
	dp := report.NewPrinter(diag, o.Quiet)
	defer func() { sum.Errors = dp.Errors }()
	o.Input.Follow, o.Input.JSONL, o.Input.OnDiagnostic = true, true, dp.Print
	entries := input.Entries(names, o.Input) // read through the one walk
	gopt := Options{MaxSections: o.MaxSections, MaxPages: o.MaxPages}
	if o.MaxPages == 0 {
		gopt.MaxPages = -1 // none
	}
	draw := DrawOptions{MaxNodes: o.MaxNodes, MaxLinks: o.MaxLinks, Title: o.Title}
	var d Drawing
	var t *Tree
	if o.State != "" {
		lt, err := o.links(ctx, names, entries, gopt, diag)
		if err != nil {
			return sum, err
		}
		d, t = lt, lt.Tree
		for _, e := range lt.Edges {
			sum.Links += e.Links
		}
	} else {
		if t, err = Build(ctx, entries, gopt); err != nil {
			return sum, ctxErr(ctx, err)
		}
		if t.URLs == 0 {
			return sum, &input.EmptyError{Names: names, What: "nothing to draw"}
		}
		d = t
	}
	if err := store.WriteOutput(o.Output, stdout, func(w io.Writer) error { return Draw(ctx, w, d, format, draw) }); err != nil {
		return sum, err
	}
	sum.URLs, sum.Sections = t.URLs-t.Skipped, t.Sections
	Walk(t.Limit(o.MaxNodes), func(*Node) { sum.Drawn++ })
	if !o.Quiet {
		fmt.Fprintln(diag, "sitemap: "+sum.String())
	}
	return sum, nil
}

// links reads the link graph of the crawl state o.State, and says its
// warnings on diag unless o.Quiet.
func (o RunOptions) links(ctx context.Context, names []string, entries sitemap.Entries, gopt Options, diag io.Writer) (*LinkTree, error) {
	st, err := state.OpenCrawlState(ctx, o.State)
	if err != nil {
		return nil, fmt.Errorf("--state %w", err)
	}
	defer st.Close()
	var listed sitemap.Entries
	if len(names) > 0 {
		listed = entries
	}
	lt, err := Links(ctx, st.Crawl(), listed, gopt)
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	if lt.URLs == 0 {
		return nil, fmt.Errorf("--state %s: the crawl listed no page and no INPUT was given: nothing to draw", o.State)
	}
	for _, w := range lt.Warnings(ctx, st.Crawl(), state.Redact(o.State), names) {
		if o.Quiet {
			break
		}
		fmt.Fprintln(diag, "sitemap: warning: "+w)
	}
	return lt, nil
}

// ctxErr is ctx's error when ctx is done (what stopped the run), else err.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
