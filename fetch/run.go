package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultShownPerRule is how many diagnostics of one rule [Run] prints
// unless RunOptions.ShownPerRule says otherwise.
const DefaultShownPerRule = 10

// RunOptions are the options of [Run]: the walk's, and what is printed.
type RunOptions struct {
	// Options are the walk's: caps, concurrency, the Getter of a local
	// start, deduplication.
	Options
	// Format is the output: "txt" (the default: one URL a line), "jsonl"
	// (the entry record) or "csv", each URL with the sitemap that listed
	// it (source.Writer); with Tree, "text" (the default; "txt" too) or
	// "json".
	Format string
	// Tree prints the tree of documents with their counts and problems
	// ([Tree]) once the walk is over, instead of the URLs.
	Tree bool
	// TreeURLs lists each sitemap's URLs beneath it in the text tree.
	TreeURLs bool
	// Quiet prints only the errors among the diagnostics; Verbose prints
	// the notes (info) too.
	Quiet, Verbose bool
	// ShownPerRule is how many diagnostics of one rule are printed; the
	// rest are counted in the summary (0: DefaultShownPerRule).
	ShownPerRule int
	// Since, when set, prints only the entries whose lastmod is after it
	// (an entry without lastmod is left out).
	Since time.Time
	// Progress draws a progress line on the diagnostics' writer: URLs
	// read, sitemaps read of those known. For a terminal only.
	Progress bool
}

// Check refuses options that do not go together: a Format the output
// does not have, TreeURLs without Tree or with JSON. [Run] calls it.
func (o RunOptions) Check() error {
	if !o.Tree {
		if o.TreeURLs {
			return errors.New("--urls lists each sitemap's URLs in the --tree; give --tree too (without it every URL is printed once, with its sitemap in --format jsonl's or csv's source)")
		}
		if o.Format != "" {
			_, err := source.NewWriter(io.Discard, source.WriterOptions{Format: o.Format})
			return err
		}
		return nil
	}
	if f := o.Format; f != "" && f != "txt" && f != "text" && f != "json" {
		return fmt.Errorf("--format %q with --tree: want text (the default) or json", f)
	}
	if o.TreeURLs && o.Format == "json" {
		return errors.New("--urls lists URLs in the text tree; for each URL with its sitemap as JSON, use --format jsonl without --tree (its source field)")
	}
	return nil
}

// StartError is the error of a [Run] whose start could not be read at
// all (Summary.StartErr): nothing else was read, or what was is printed.
type StartError struct {
	Start string
	Err   error
}

func (e *StartError) Error() string { return e.Start + " could not be read: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// InterruptedError is the error of a [Run] whose context was done: what
// was read before is printed (the URLs, or the tree so far) with the
// summary, and Err is the context's error.
type InterruptedError struct {
	Tree bool
	Err  error
}

func (e *InterruptedError) Error() string {
	what := "the URLs above are"
	if e.Tree {
		what = "the tree above is"
	}
	return "fetch interrupted: " + what + " what was read before the stop"
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// Run is `sitemap fetch` as one call: it walks the tree start names
// ([Walk]) and writes every URL to out as it is read (RunOptions.Format),
// or the [Tree] once the walk is over; diagnostics go to diag as they
// come (at most ShownPerRule of one rule, errors flushed at once), then
// one summary: sitemaps, URLs, duplicates dropped, bytes and time, the
// caps reached and the problems by rule. When the start itself cannot be
// fetched (a sitemap URL answering 404, say) its FETCH-HTTP line is held
// back: alone, the [*StartError] says it once.
//
// The error is a [*StartError], an [*InterruptedError] (the output so
// far printed), a write error of out, or what [Walk] returns; a walk that
// found problems returns nil and counts them in the Summary (Errors,
// Failed).
func Run(ctx context.Context, start string, o RunOptions, out, diag io.Writer) (Summary, error) {
	r, err := newRunner(start, o, out, diag)
	if err != nil {
		return Summary{}, err
	}
	defer r.tree.Close()
	sum, werr := Walk(ctx, start, o.Options, r.event)
	r.bar.Done()
	if r.out != nil {
		if err := r.out.Flush(); err != nil && werr == nil {
			werr = err
		}
	}
	// Interrupted: what was read is kept, the tree so far and the summary
	// are printed, with an error that says the output is partial.
	interrupted := werr != nil && ctx.Err() != nil && (errors.Is(werr, context.Canceled) || errors.Is(werr, context.DeadlineExceeded))
	if werr != nil && !interrupted {
		r.errOut.Flush()
		if sum.Elapsed == 0 && sum.Sitemaps == 0 && !strings.Contains(werr.Error(), "write") {
			return sum, werr
		}
		return sum, fmt.Errorf("writing the output: %w", werr)
	}
	if sum.StartErr != nil && !interrupted && sum.Sitemaps <= 1 && sum.Entries == 0 {
		// The one sitemap asked for could not be fetched, and nothing
		// else was read: one error says it (its diagnostic, the summary
		// and the problem count would say it three more times).
		return sum, &StartError{start, sum.StartErr}
	}
	r.releaseHeld = true
	for i := range r.held {
		r.print(&r.held[i])
	}
	if r.tree != nil {
		write := r.tree.WriteText
		if o.Format == "json" {
			write = r.tree.WriteJSON
		}
		if err := write(out); err != nil {
			return sum, err
		}
	}
	r.summary(sum)
	r.errOut.Flush()
	switch {
	case interrupted:
		return sum, &InterruptedError{Tree: r.tree != nil, Err: werr}
	case sum.StartErr != nil:
		return sum, &StartError{start, sum.StartErr}
	}
	return sum, nil
}

// runner is the state of one Run.
type runner struct {
	start  string
	o      RunOptions
	out    *source.Writer
	tree   *Tree
	shown  *report.Cap // diagnostics printed per rule
	bar    *progress.Bar
	queue  *queue // the sitemaps done of those known, for bar
	errOut *bufio.Writer
	// held are the start sitemap's fetch errors, printed after the walk
	// unless the StartError of a start that could not be read says it.
	held        []sitemap.Diagnostic
	releaseHeld bool
}

func newRunner(start string, o RunOptions, out, diag io.Writer) (*runner, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.ShownPerRule <= 0 {
		o.ShownPerRule = DefaultShownPerRule
	}
	r := &runner{start: start, o: o, shown: report.NewCap(o.ShownPerRule), errOut: bufio.NewWriter(diag)}
	var err error
	if o.Tree {
		if r.tree, err = NewTree(TreeOptions{URLs: o.TreeURLs, TempDir: o.TempDir}); err != nil {
			return nil, err
		}
	} else {
		format := o.Format
		if format == "" {
			format = "txt"
		}
		if r.out, err = source.NewWriter(out, source.WriterOptions{Format: format, Source: true}); err != nil {
			return nil, err
		}
		if err := r.out.WriteHeader(); err != nil {
			return nil, err
		}
	}
	if o.Progress {
		r.bar = progress.New(diag, progress.Options{Unit: "URLs", Of: "sitemaps"})
		r.queue = &queue{}
	}
	return r, nil
}

func (r *runner) event(ev Event) error {
	if r.tree != nil {
		r.tree.Event(ev)
	}
	switch ev.Kind {
	case EventURL:
		r.bar.Add(1)
		if !r.o.Since.IsZero() && (ev.URL.LastMod.IsZero() || !ev.URL.LastMod.Time.After(r.o.Since)) {
			return nil
		}
		if r.out != nil {
			return r.out.Write(ev.URL)
		}
	case EventDiagnostic:
		r.print(ev.Diagnostic)
	case EventNodeStart:
		if r.queue != nil {
			r.bar.SetOf(r.queue.start(ev.Node))
		}
	case EventNodeEnd:
		if r.queue != nil {
			r.bar.SetOf(r.queue.end(ev.Node))
		}
		if r.out != nil {
			// Output streams out sitemap by sitemap, not only when the
			// buffer fills.
			return r.out.Flush()
		}
	}
	return nil
}

// print shows a diagnostic, at most ShownPerRule per rule.
func (r *runner) print(d *sitemap.Diagnostic) {
	switch {
	case d.Severity == sitemap.SeverityInfo && !r.o.Verbose:
		return
	case d.Severity == sitemap.SeverityWarning && r.o.Quiet:
		return
	}
	if d.Severity == sitemap.SeverityError && d.URL == r.start && d.Rule == rules.FetchHTTP && !r.releaseHeld {
		// The start sitemap could not be fetched: said once at the end
		// when nothing else was read (Run), else printed then.
		r.held = append(r.held, *d)
		return
	}
	if !r.shown.Show(string(d.Rule)) {
		return
	}
	r.bar.Clear()
	r.errOut.WriteString(d.String())
	r.errOut.WriteByte('\n')
	if d.Severity == sitemap.SeverityError || r.errOut.Buffered() > 4096 {
		r.errOut.Flush()
	}
}

// summary writes the closing lines of the run.
func (r *runner) summary(sum Summary) {
	w := r.errOut
	fmt.Fprintf(w, "fetch: %s read", plural.Of(sum.Sitemaps, "sitemap", "sitemaps"))
	if sum.Failed > 0 {
		fmt.Fprintf(w, " (%d failed)", sum.Failed)
	}
	w.WriteString(", " + plural.Of(sum.URLs, "URL", "URLs"))
	if sum.Duplicates > 0 {
		fmt.Fprintf(w, " (%s dropped)", plural.Of(sum.Duplicates, "duplicate", "duplicates"))
	}
	if urlnorm.IsHTTP(r.start) {
		fmt.Fprintf(w, ", %s transferred", progress.Bytes(sum.Bytes))
	} // a local run transfers nothing
	fmt.Fprintf(w, " in %s", sum.Elapsed.Round(time.Millisecond))
	if secs := sum.Elapsed.Seconds(); secs > 0 && sum.URLs > 0 {
		fmt.Fprintf(w, " (%s URLs/s)", progress.Group(int64(float64(sum.URLs)/secs)))
	}
	w.WriteString("\n")
	if len(sum.Capped) > 0 {
		fmt.Fprintf(w, "fetch: stopped early by caps: %s\n", strings.Join(sum.Capped, ", "))
	}
	if len(sum.Problems) == 0 {
		return
	}
	ids := make([]string, 0, len(sum.Problems))
	for k := range sum.Problems {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	parts := make([]string, 0, len(ids))
	for _, k := range ids {
		p := fmt.Sprintf("%s %s", k, progress.Group(int64(sum.Problems[k])))
		if r.shown.Count(k) > r.o.ShownPerRule {
			p += fmt.Sprintf(" (%d shown)", r.o.ShownPerRule)
		}
		parts = append(parts, p)
	}
	fmt.Fprintf(w, "fetch: problems by rule: %s; %s, %s, %s\n", strings.Join(parts, ", "),
		plural.Of(sum.Errors, "error", "errors"), plural.Of(sum.Warnings, "warning", "warnings"), plural.Of(sum.Infos, "note", "notes"))
}
