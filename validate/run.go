package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
)

// RunOptions are the options of [Run].
type RunOptions struct {
	// TreeOptions are the checks and how inputs are read; OnDiagnostic,
	// OnDocument, OnOpenError and Input.Progress are Run's own.
	TreeOptions
	// Format is the diagnostics' format: "text", "json" (one array) or
	// "jsonl" (report.New).
	Format string
	// MaxPerRule is, in text, how many diagnostics of one rule are shown
	// per document (0: all); a note counts the rest.
	MaxPerRule int
	// Progress draws a progress line on the second writer: documents
	// checked, and bytes of the local files read of their size. For a
	// terminal only.
	Progress bool
}

// RunSummary is what [Run] found.
type RunSummary struct {
	TreeSummary
	// Reported counts the diagnostics written, by severity (the findings
	// about an index's children counted against the index).
	Reported report.Tally
	// Unopened is how many inputs could not be opened (each said on the
	// second writer as it came; the others were checked).
	Unopened int
}

// Run is `sitemap validate` as one call: the documents names resolve to
// checked as [Tree] checks them, their diagnostics written to out in
// o.Format (report.Reporter: one cap per document, an index's notes
// after its children), and on diag, for people, one summary line per
// document as it is checked ("sitemap.xml: 3 URLs, 1 error"), an input
// that cannot be opened ("sitemap: NAME: no such file", the others still
// checked), then, for several documents, one line of totals and the
// `sitemap explain` hint. The error is one of the run (a name that cannot
// be resolved, out failing, ctx.Err()); the findings are in the summary.
func Run(ctx context.Context, names []string, o RunOptions, out, diag io.Writer) (RunSummary, error) {
	var sum RunSummary
	var bar *progress.Bar
	var read, size atomic.Int64
	if o.Progress {
		bar = progress.New(diag, progress.Options{Unit: "documents", Of: "bytes",
			Measure: func() (int64, int64) { return read.Load(), size.Load() }})
		o.Input.Progress = func(r, n int64) { read.Add(r); size.Add(n) }
	}
	defer bar.Done()
	rep, err := report.New(bar.Writer(out), o.Format, o.MaxPerRule)
	if err != nil {
		return sum, err
	}
	errw := bar.Writer(diag)
	// The diagnostics of a document, and the findings about its children
	// reported against it (VAL-01, VAL-02, I-07), share one cap; its
	// notes come at the end of the document, after its children.
	docs := map[*input.Doc]*report.Document{}
	o.OnDiagnostic = func(doc *input.Doc, d sitemap.Diagnostic) {
		if docs[doc] == nil {
			docs[doc] = rep.Document(doc.Name)
		}
		docs[doc].Report(d)
	}
	o.OnDocument = func(res DocResult) error {
		if d := docs[res.Doc]; d != nil {
			d.End()
			delete(docs, res.Doc)
		}
		if rep.Err() != nil {
			return fmt.Errorf("writing results: %w", rep.Err())
		}
		if res.Err == nil {
			// An index's summary comes after its children and counts the
			// findings about them reported against it.
			fmt.Fprintf(errw, "%s: %s\n", check.EscapeControls(res.Doc.Name), res.Summary)
		}
		bar.Add(1)
		return nil
	}
	o.OnOpenError = func(doc *input.Doc, err error) {
		sum.Unopened++
		fmt.Fprintf(errw, "sitemap: %v\n", err)
	}
	sum.TreeSummary, err = Tree(ctx, names, o.TreeOptions)
	bar.Done()
	var oe *input.OpenError
	if sum.Unopened > 0 && err != nil && ctx.Err() == nil && errors.As(err, &oe) {
		err = nil // said above; the summary counts what was read
	}
	if cerr := rep.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("writing results: %w", cerr)
	}
	sum.Reported = rep.Tally
	if err != nil {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		return sum, err
	}
	if sum.Documents > 1 {
		fmt.Fprintf(diag, "%d documents: %s, %s\n", sum.Documents, plural.Of(rep.Errors, "error", "errors"), plural.Of(rep.Warnings, "warning", "warnings"))
	}
	if h := rep.Hint(); h != "" {
		fmt.Fprintln(diag, h)
	}
	return sum, nil
}
