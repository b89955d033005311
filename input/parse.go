package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/source"
)

// ParseOptions are the options of [Parse].
type ParseOptions struct {
	// Options are how the inputs are read (Follow reads an index's
	// children); OnDiagnostic, Progress and Decoder.ReuseValues are
	// Parse's own.
	Options
	// Format is the output, one of source.WriterFormats ("jsonl", "csv"
	// or "txt"); several inputs are written as one (every CSV row then
	// has the columns of a URL).
	Format string
	// Quiet prints only the errors among the diagnostics.
	Quiet bool
	// MaxPerRule is how many diagnostics of one rule are printed per
	// document (0: all); one note per document and rule counts the rest
	// at the end.
	MaxPerRule int
	// Progress draws a progress line on the diagnostics' writer: entries
	// read, and bytes of the local files read of their size. For a
	// terminal only.
	Progress bool
}

// ParseSummary is what [Parse] read.
type ParseSummary struct {
	// Entries is how many entries were written; Errors how many error
	// diagnostics the inputs had.
	Entries int64
	Errors  int
}

// ReportedError is an error of [Parse] that a diagnostic printed already
// said (a READ-01, or the FETCH-HTTP of a URL that could not be fetched):
// the run could not go on, and there is nothing more to say.
type ReportedError struct{ Err error }

func (e *ReportedError) Error() string { return e.Err.Error() }
func (e *ReportedError) Unwrap() error { return e.Err }

// Parse is `sitemap parse` as one call: the entries of the inputs (names
// as [Resolve] takes them; a site's homepage or robots.txt URL stands
// for the sitemaps [Discover] finds there) written to out in
// o.Format as they are read, each entry written and dropped (the decoder
// reuses its memory); with o.Follow the URLs of an index's children
// instead of its entries, through the one walk ([WalkDocs]). Diagnostics
// go to diag as they come, at most o.MaxPerRule of one rule per
// document. A site where nothing answered, an input that cannot be
// opened or read, or out failing is an error; the problems found in the
// documents are counted in the summary.
func Parse(ctx context.Context, names []string, o ParseOptions, out, diag io.Writer) (ParseSummary, error) {
	sw, err := source.NewWriter(out, source.WriterOptions{Format: o.Format})
	if err != nil {
		return ParseSummary{}, err
	}
	p := &parser{o: o, cap: report.NewCap(o.MaxPerRule), errw: diag}
	var read, size atomic.Int64
	if o.Progress {
		p.bar = progress.New(diag, progress.Options{Unit: "entries", Of: "bytes",
			Measure: func() (int64, int64) { return read.Load(), size.Load() }})
		p.errw = p.bar.Writer(diag)
		o.Options.Progress = func(r, n int64) { read.Add(r); size.Add(n) }
	}
	defer p.bar.Done()
	in := o.Options
	in.OnDiagnostic = p.diag
	// Each entry is written and dropped: the decoder may reuse the memory
	// of its strings (no fresh memory per entry).
	in.Decoder.ReuseValues = true
	if names, err = DiscoverAll(ctx, names, in); err != nil {
		return p.sum, err
	}
	docs, err := Resolve(names, in)
	if err != nil {
		return p.sum, err
	}
	if len(docs) > 1 {
		sw, _ = source.NewWriter(out, source.WriterOptions{Format: o.Format, Mixed: true})
	}
	p.sw = sw
	if in.Follow {
		err = p.walk(ctx, docs, in)
	} else {
		err = p.read(NewDocReader(ctx, docs, in))
	}
	p.bar.Done()
	p.notes(diag)
	if ferr := sw.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("writing entries: %w", ferr)
	}
	return p.sum, err
}

// DiscoverAll replaces each of names that is a site ([IsSiteStart]) by
// the URLs of the sitemaps [Discover] finds there, its diagnostics to
// o.OnDiagnostic; the others are kept as they are, in order.
func DiscoverAll(ctx context.Context, names []string, o Options) ([]string, error) {
	var out []string
	for _, n := range names {
		if !IsSiteStart(n) {
			out = append(out, n)
			continue
		}
		found, err := Discover(ctx, n, o, o.OnDiagnostic)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// parser is the state of one Parse.
type parser struct {
	o    ParseOptions
	sw   *source.Writer
	errw io.Writer // diag, the progress line erased before each line
	bar  *progress.Bar
	sum  ParseSummary
	// The cap of MaxPerRule, per document and rule (keys
	// "document\x00rule"): memory grows with documents times rules, not
	// with entries.
	cap *report.Cap
	// readShown is set once a READ-01 is printed: the reader failed, and
	// the error that ends the run (a *sitemap.DecodeError of that rule)
	// says it again.
	readShown bool
}

// read writes every entry rd returns.
func (p *parser) read(rd *Reader) error {
	defer rd.Close()
	for {
		// The Reader's own Entry, reused: nothing is copied per entry.
		e, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var de *sitemap.DecodeError
			if p.readShown && errors.As(err, &de) && de.Diagnostic.Rule == sitemap.RuleRead {
				return &ReportedError{err} // its READ-01 line said it
			}
			return err
		}
		if err := p.sw.WriteItem(&e.Item); err != nil {
			return fmt.Errorf("writing entries: %w", err)
		}
		p.sum.Entries++
		p.bar.Add(1)
	}
}

// walk writes the URL entries of docs and of the children of every index
// among them: the one walk of index trees, documents one at a time in
// order.
func (p *parser) walk(ctx context.Context, docs []Doc, in Options) error {
	var werr error // a write error stops the walk
	sum, err := WalkDocs(ctx, docs, in, func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventURL:
			if werr = p.sw.Write(ev.URL); werr != nil {
				return werr
			}
			p.sum.Entries++
			p.bar.Add(1)
		case fetch.EventDiagnostic:
			p.diag(*ev.Diagnostic)
		}
		return nil
	})
	switch {
	case werr != nil:
		return fmt.Errorf("writing entries: %w", werr)
	case err != nil:
		return err
	case sum.StartErr != nil:
		var oe *OpenError
		if !errors.As(sum.StartErr, &oe) && p.sum.Errors > 0 {
			// An http(s) input that could not be fetched: its FETCH-HTTP
			// line said it.
			return &ReportedError{sum.StartErr}
		}
		return sum.StartErr
	}
	return nil
}

func (p *parser) diag(d sitemap.Diagnostic) {
	if d.Rule == sitemap.RuleRead {
		p.readShown = true
	}
	if d.Severity == sitemap.SeverityError {
		p.sum.Errors++
	} else if p.o.Quiet {
		return
	}
	where := d.File
	if where == "" {
		where = d.URL
	}
	if p.cap.Show(where + "\x00" + string(d.Rule)) {
		fmt.Fprintln(p.errw, d.String())
	}
}

// notes writes one line per document and rule whose diagnostics
// MaxPerRule held back (report.Note).
func (p *parser) notes(w io.Writer) {
	for _, h := range p.cap.Held() {
		where, rule, _ := strings.Cut(h.Key, "\x00")
		fmt.Fprintln(w, report.Note(where, rule, h.N))
	}
}
