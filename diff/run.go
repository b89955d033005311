package diff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
)

// ShownPerRule is how many error diagnostics of one rule [Run] prints
// for each side (a side of junk is not printed line by line); the rest
// are counted.
const ShownPerRule = 20

// RunOptions are the options of [Run].
type RunOptions struct {
	// Open says how both sides are read; OnDiagnostic is Run's own.
	Open OpenOptions
	// Options are the comparison's.
	Options
	// Format is the output, one of [Formats].
	Format string
}

// SideError is the error of a [Run] that could not compare a side for
// what it holds, a problem found rather than a failure to run: a
// document that is no sitemap (its diagnostic printed above), a child
// sitemap that cannot be read, or no sitemap found at a site.
type SideError struct {
	// Side is "old" or "new"; Name the input.
	Side, Name string
	// Err is what stopped the comparison; Said is set when the line above
	// (its diagnostic) says it.
	Err  error
	Said bool
}

func (e *SideError) Error() string {
	if e.Said {
		return fmt.Sprintf("%s: %s cannot be compared (the error above)", e.Side, e.Name)
	}
	return fmt.Sprintf("%v; nothing compared", e.Err)
}

func (e *SideError) Unwrap() error { return e.Err }

// Run is `sitemap diff` as one call: the entries of old and new (Open)
// compared ([Diff]) and the changes written to out in o.Format as they
// come; on diag, each side's errors as they come (at most ShownPerRule
// of one rule), then the summary line ("sitemap diff: 2 added, …") and
// one line per side whose reading had problems. The error is a
// [*SideError] (a side that cannot be compared), ctx's, or one of the
// run (an input that cannot be opened, out failing).
func Run(ctx context.Context, old, new string, o RunOptions, out, diag io.Writer) (Summary, error) {
	w, err := NewWriter(out, o.Format)
	if err != nil {
		return Summary{}, err
	}
	sides := [2]*side{{name: old, label: "old"}, {name: new, label: "new"}}
	var entries [2]Entries
	for i, sd := range sides {
		sd.cap = report.NewCap(ShownPerRule)
		oo := o.Open
		oo.OnDiagnostic = func(d sitemap.Diagnostic) {
			sd.tally.Add(d)
			if d.Severity == sitemap.SeverityError && sd.cap.Show(string(d.Rule)) {
				sd.lastError = d.String()
				fmt.Fprintln(diag, sd.lastError)
			}
		}
		entries[i] = Open(sd.name, oo)
	}
	sum, err := Diff(ctx, entries[0], entries[1], o.Options, w.Write)
	if ferr := w.Flush(); err == nil && ferr != nil {
		return sum, fmt.Errorf("writing the output: %w", ferr)
	}
	if err != nil {
		return sum, sideError(err, sides)
	}
	fmt.Fprintf(diag, "sitemap diff: %s\n", sum)
	for _, sd := range sides {
		if sd.tally.Errors+sd.tally.Warnings > 0 {
			fmt.Fprintln(diag, sd.summary())
		}
	}
	return sum, nil
}

// side counts what reading one side reported.
type side struct {
	name      string
	label     string // "old" or "new", as Diff's errors start
	tally     report.Tally
	cap       *report.Cap
	lastError string // the last error diagnostic printed
}

// sideError is the error of a run that Diff stopped with err.
func sideError(err error, sides [2]*side) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	for _, sd := range sides {
		if sd.lastError != "" && err.Error() == sd.label+": "+sd.lastError {
			// The diagnostic that stopped the run is on the line above:
			// a finding about the document (empty, binary, not
			// well-formed: F-04, XML-01).
			return &SideError{Side: sd.label, Name: sd.name, Err: err, Said: true}
		}
	}
	// What the inputs list cannot be read whole (a child sitemap missing
	// or failing) or no sitemap was found at a URL.
	var child *input.ChildError
	if errors.As(err, &child) || errors.Is(err, ErrNoSitemap) {
		return &SideError{Err: err}
	}
	return err
}

// summary is the line that counts what reading the side reported.
func (sd *side) summary() string {
	name := check.EscapeControls(sd.name)
	shown := ""
	if n := sd.cap.HeldTotal(); n > 0 {
		shown = fmt.Sprintf(" (%d not shown: at most %d of one rule)", n, ShownPerRule)
	}
	details := fmt.Sprintf("; run 'sitemap validate %s' for details", name)
	if l := strings.TrimSuffix(strings.ToLower(sd.name), ".gz"); strings.HasSuffix(l, ".jsonl") || strings.HasSuffix(l, ".ndjson") {
		details = "" // entry records, which validate does not read: the lines above are all
	}
	return fmt.Sprintf("sitemap diff: reading %s: %s%s, %s%s",
		name, plural.Of(sd.tally.Errors, "error", "errors"), shown, plural.Of(sd.tally.Warnings, "warning", "warnings"), details)
}
