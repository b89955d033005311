package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Settings are the options of [Run] as a person gives them (the flags of
// `sitemap html`, named alike): files by name. Check checks them.
type Settings struct {
	// Output is the directory the site map pages are written into
	// (created when missing); with Document, the FILE of the view, or "-"
	// for standard output.
	Output string
	// Document writes the HTML view of the one input ([Items]) instead
	// of the site map pages ([WritePages]).
	Document bool
	// Title and Lang are those of the pages (PageOptions, Options).
	Title, Lang string
	// PerPage is PageOptions.PerPage, at least 1.
	PerPage int
	// CSS names a file of CSS that replaces DefaultCSS, inlined.
	CSS string
	// Template names a file of an html/template that replaces
	// DefaultTemplate ([ParseTemplate]); not with Document.
	Template string
	// State names a crawl state (`sitemap crawl --state`: a file or a
	// postgres:// URL) whose titles the pages give a URL whose entry has
	// none ([CrawlTitles]); not with Document.
	State string
}

// Check checks s for the inputs names. An error names the setting as its
// flag (--per-page) and says what to give instead.
func (s Settings) Check(names []string) error {
	switch {
	case s.Output == "":
		return errors.New("-o is required: the directory to write the pages into (with --document, a file or -)")
	case s.PerPage < 1:
		return errors.New("--per-page must be at least 1")
	case !s.Document:
		return nil
	case len(names) != 1 || s.Template != "" || s.State != "":
		return errors.New("--document writes the view of one INPUT; it takes no --template or --state")
	}
	if fi, err := os.Stat(names[0]); err == nil && fi.IsDir() {
		return fmt.Errorf("--document %s is a directory; give the one sitemap or index of it to view, such as %s", names[0], firstSitemapIn(names[0]))
	}
	return nil
}

// firstSitemapIn names a sitemap file of dir for a message: its index
// sitemap.xml when there is one, else its first *.xml or *.xml.gz, else
// dir/sitemap.xml.
func firstSitemapIn(dir string) string {
	index := filepath.Join(dir, "sitemap.xml")
	if _, err := os.Stat(index); err == nil {
		return index
	}
	for _, pat := range []string{"*.xml", "*.xml.gz"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return m[0]
		}
	}
	return index
}

// RunOptions are the options of [Run].
type RunOptions struct {
	Settings
	// Input is how the inputs are read (Follow, for the pages, JSONL, so
	// that an entry list brings its titles, and OnDiagnostic are Run's
	// own).
	Input input.Options
	// Quiet leaves out the warnings and notes among the problems seen
	// reading, and the closing line.
	Quiet bool
}

// RunSummary is what [Run] wrote.
type RunSummary struct {
	// PagesSummary is what the site map pages hold (zero with Document).
	PagesSummary
	// Output is the directory or file written ("-": standard output).
	Output   string
	Document bool
	// Entries is, with Document, the number of URLs the view lists, or of
	// sitemaps when Index is set.
	Entries int
	Index   bool
	// Errors counts the error diagnostics seen reading the inputs.
	Errors int
}

// String is the closing line of Run ("wrote 3 pages into site: 450
// links").
func (s RunSummary) String() string {
	out := s.Output
	if out == "-" {
		out = "standard output"
	}
	if s.Document {
		what := plural.Of(s.Entries, "URL", "URLs")
		if s.Index {
			what = plural.Of(s.Entries, "sitemap", "sitemaps")
		}
		return "wrote the view of " + what + " to " + out
	}
	line := "wrote " + plural.Of(s.Pages, "page", "pages") + " into " + out + ": " + plural.Of(s.Links, "link", "links")
	if s.Skipped > 0 {
		line += ", " + plural.Of(s.Skipped, "entry", "entries") + " skipped (not an http(s) URL)"
	}
	return line
}

// Run is `sitemap html` as one call: the site map pages of the inputs
// names ([input.Entries]: a site's sitemaps, an index's children, entry
// lists with their titles; o.State's titles for the others) written into
// the directory o.Output
// ([WritePages]: a failed run publishes nothing), or with o.Document the
// HTML view of the one input ([Items]) written to the file o.Output
// through [store.WriteOutput] (stdout for "-"). Unless o.Quiet, the
// closing line ([RunSummary.String]) goes to diag, after "sitemap: ". The
// problems seen reading go to diag as they come, as text
// ([report.Printer]: only the errors with o.Quiet), counted in the
// summary's Errors.
//
// Inputs that list no page are an [*input.EmptyError]; once ctx is done
// the error is ctx.Err(); any other error (settings, files, a write) says
// what to do.
func Run(ctx context.Context, names []string, o RunOptions, stdout, diag io.Writer) (RunSummary, error) {
	dp := report.NewPrinter(diag, o.Quiet)
	o.Input.OnDiagnostic = dp.Print
	sum, err := o.run(ctx, names, stdout)
	sum.Errors = dp.Errors
	if err != nil {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		return sum, err
	}
	if !o.Quiet {
		fmt.Fprintln(diag, "sitemap: "+sum.String())
	}
	return sum, nil
}

// run is Run but for the closing line and ctx's error: the settings
// checked and their files read, then the view or the pages written.
func (o RunOptions) run(ctx context.Context, names []string, stdout io.Writer) (RunSummary, error) {
	sum := RunSummary{Output: o.Output, Document: o.Document}
	if err := o.Check(names); err != nil {
		return sum, err
	}
	css := ""
	if o.CSS != "" {
		b, err := os.ReadFile(o.CSS)
		if err != nil {
			return sum, fmt.Errorf("--css: %v", err)
		}
		css = string(b)
	}
	o.Input.Follow, o.Input.JSONL = !o.Document, !o.Document
	if o.Document {
		err := store.WriteOutput(o.Output, stdout, func(w io.Writer) error {
			return o.document(ctx, names, css, w, &sum)
		})
		return sum, err
	}
	po := PageOptions{Title: o.Title, Lang: o.Lang, PerPage: o.PerPage, CSS: css}
	if o.Template != "" {
		b, err := os.ReadFile(o.Template)
		if err != nil {
			return sum, fmt.Errorf("--template: %v", err)
		}
		if po.Template, err = ParseTemplate(filepath.Base(o.Template), string(b)); err != nil {
			return sum, fmt.Errorf("--template %s: %v", o.Template, err)
		}
	}
	if o.State != "" {
		st, err := state.OpenCrawlState(ctx, o.State)
		if err != nil {
			return sum, fmt.Errorf("--state %v", err)
		}
		defer st.Close()
		po.Titles = CrawlTitles(st.Crawl())
	}
	fi, err := os.Stat(o.Output)
	isFile := err == nil && !fi.IsDir()
	if ext := strings.ToLower(filepath.Ext(o.Output)); isFile || err != nil && (ext == ".html" || ext == ".htm") {
		return sum, fmt.Errorf("-o %s: the site map is written into a directory (index.html, page-2.html, …): give a directory; --document writes the view of one sitemap into one file", o.Output)
	}
	if err := store.CheckWritable(o.Output); err != nil {
		// Before the inputs are read: a read-only file system.
		return sum, fmt.Errorf("-o %s: %v; give a directory you can write to", o.Output, err)
	}
	if err := os.MkdirAll(o.Output, 0o755); err != nil {
		return sum, fmt.Errorf("-o %s: %v", o.Output, err)
	}
	if sum.PagesSummary, err = WritePages(ctx, o.Output, input.Entries(names, o.Input), po); err != nil {
		return sum, err
	}
	if sum.Links == 0 {
		return sum, &input.EmptyError{Names: names, What: "the site map lists no page"}
	}
	return sum, nil
}

// document writes the HTML view of the one input names[0] to w, counting
// its entries into sum.
func (o RunOptions) document(ctx context.Context, names []string, css string, w io.Writer, sum *RunSummary) error {
	r, err := input.NewReader(ctx, names, o.Input)
	if err != nil {
		return err
	}
	defer r.Close()
	vo := Options{Title: o.Title, Lang: o.Lang, CSS: css}
	if urlnorm.IsHTTP(names[0]) {
		vo.Self = names[0]
	}
	first := true
	return Items(ctx, w, func() (*sitemap.Item, error) {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		if first {
			sum.Index, first = e.Kind == sitemap.ItemIndex, false
		}
		if sum.Index == (e.Kind == sitemap.ItemIndex) {
			sum.Entries++ // of the kind the view lists
		}
		return &e.Item, nil
	}, vo)
}
