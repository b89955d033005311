package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/validate"
)

// validateOptions are the flags and arguments of `sitemap validate`.
type validateOptions struct {
	// UserAgent is sent with every request (default: the CLI's).
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope        fetch.Scope
	Format       string
	Strict       bool
	Base         string
	Now          string
	CrossSubmit  bool
	TrustedHosts []string
	NoChildren   bool
	MaxChildren  int
	MaxPerRule   int
	MaxErrors    int
	Timeout      time.Duration
	Inputs       []string

	// client is the HTTP client for URL inputs (tests may set it).
	client *fetch.Client
}

func newValidateCmd(s *streams) *cobra.Command {
	o := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate [flags] INPUT...",
		Short: "Check sitemaps and sitemap indexes against the protocol, the XSDs and Google's rules",
		Long: `Validate checks sitemaps and indexes (files, directories, URLs, or a site from its homepage)
against the protocol, the XSDs and Google's rules, one diagnostic a line on standard output,
as "sitemap.xml:5:5: error X-06: …" ('sitemap explain X-06' says more). See docs/READING.md.`,
		Example: `  sitemap validate testdata/samples/basic.xml
  sitemap validate --base https://www.example.com/ --strict testdata/samples/basic.xml
  sitemap validate --format jsonl --now 2026-11-22T12:00:00Z testdata/samples/newsold.xml
  sitemap validate https://www.example.com/sitemap.xml.gz
  sitemap validate https://www.example.com/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runValidate(c.Context(), o, s)
		},
	}
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
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "in text output, most diagnostics of one rule shown per document (0: all)")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}

// parseNow reads --now.
func parseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := sitemap.ParseDate(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: want RFC 3339 (2026-11-22T12:00:00Z) or YYYY-MM-DD", s)
	}
	return d.Time, nil
}

func runValidate(ctx context.Context, o *validateOptions, s *streams) error {
	if err := baseNeedsLocal(o.Base, o.Inputs); err != nil {
		return err
	}
	// The progress line (a terminal's standard error only): documents
	// checked, and the bytes of the local files read of their size (of
	// the files opened so far). Lines written meanwhile erase it first.
	var bar *progress.Bar
	var read, size atomic.Int64
	progressOf := func(r, n int64) { read.Add(r); size.Add(n) }
	if s.ErrIsTerminal {
		bar = progress.New(s.Err, progress.Options{Unit: "documents", Of: "bytes",
			Measure: func() (int64, int64) { return read.Load(), size.Load() }})
	} else {
		progressOf = nil
	}
	defer bar.Done()
	rep, to, err := o.treeOptions(s, bar)
	if err != nil {
		return cannotRun("%v", err)
	}
	to.Input.Progress = progressOf
	// An input that cannot be opened is said where it comes, and the
	// others are still checked; the run then exits 2.
	unopened := 0
	to.OnOpenError = func(doc *input.Doc, err error) {
		unopened++
		fmt.Fprintf(bar.Writer(s.Err), "sitemap: %v\n", err)
	}
	sum, runErr := validate.Tree(ctx, o.Inputs, to)
	bar.Done()
	if err := validateRunError(ctx, runErr, rep, unopened); err != nil {
		return err
	}
	if sum.Documents > 1 {
		fmt.Fprintf(s.Err, "%d documents: %s, %s\n", sum.Documents, plural.Of(rep.Errors, "error", "errors"), plural.Of(rep.Warnings, "warning", "warnings"))
	}
	if h := rep.Hint(); h != "" {
		fmt.Fprintln(s.Err, h)
	}
	if unopened > 0 && sum.Documents == 0 {
		return &exitError{Code: exitUsage} // the error above says it all
	}
	if unopened > 0 {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("%s could not be read (the %s above)", plural.Of(unopened, "input", "inputs"), map[bool]string{true: "error", false: "errors"}[unopened == 1])}
	}
	if rep.Errors > 0 || (o.Strict && rep.Warnings > 0) {
		return problemsFound()
	}
	return nil
}

// treeOptions checks the flags and returns the reporter of the run and
// the options of validate.Tree that report through it.
func (o *validateOptions) treeOptions(s *streams, bar *progress.Bar) (*report.Reporter, validate.TreeOptions, error) {
	var to validate.TreeOptions
	rep, err := report.New(bar.Writer(s.Out), o.Format, o.MaxPerRule)
	if err != nil {
		return nil, to, err
	}
	now, err := parseNow(o.Now)
	if err != nil {
		return nil, to, err
	}
	if o.MaxChildren < 0 {
		return nil, to, errors.New("--max-children must not be negative")
	}
	for _, h := range o.TrustedHosts {
		if err := validate.CheckTrustedHost(h); err != nil {
			return nil, to, err
		}
	}
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return nil, to, err
		}
	}
	maxChildren := o.MaxChildren
	if maxChildren == 0 {
		maxChildren = -1 // none: a negative MaxChildren checks no child
	}
	// The diagnostics of a document, and the findings about its children
	// reported against it (VAL-01, VAL-02, I-07), share one cap; its
	// notes come at the end of the document, after its children.
	docs := map[*input.Doc]*report.Document{}
	to = validate.TreeOptions{
		Options: validate.Options{CrossSubmit: o.CrossSubmit, TrustedHosts: o.TrustedHosts, Now: now,
			Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)}},
		Input:      input.Options{Base: o.Base, Stdin: s.In, MaxChildren: maxChildren, Client: o.client},
		NoChildren: o.NoChildren,
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) {
			if docs[doc] == nil {
				docs[doc] = rep.Document(doc.Name)
			}
			docs[doc].Report(d)
		},
		OnDocument: func(res validate.DocResult) error {
			if d := docs[res.Doc]; d != nil {
				d.End()
				delete(docs, res.Doc)
			}
			if rep.Err() != nil {
				return cannotRun("writing results: %v", rep.Err())
			}
			if res.Err == nil {
				// An index's summary comes after its children and counts
				// the findings about them reported against it.
				fmt.Fprintf(bar.Writer(s.Err), "%s: %s\n", check.EscapeControls(res.Doc.Name), res.Summary)
			}
			bar.Add(1)
			return nil
		},
	}
	return rep, to, nil
}

// validateRunError is the error validate.Tree's runErr makes the run
// end with, after closing the report, or nil when the run goes on to its
// summary: the inputs that could not be opened were said as they came.
func validateRunError(ctx context.Context, runErr error, rep *report.Reporter, unopened int) error {
	var oe *input.OpenError
	if unopened > 0 && runErr != nil && ctx.Err() == nil && errors.As(runErr, &oe) {
		runErr = nil // said above; the summary counts what was read
	}
	var ee *exitError
	if runErr != nil && !errors.As(runErr, &ee) && ctx.Err() == nil {
		runErr = cannotRun("%v", runErr)
	}
	if err := rep.Close(); err != nil && runErr == nil {
		runErr = cannotRun("writing results: %v", err)
	}
	if runErr != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return runErr
}
