package validate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Summary is what [Document] found.
type Summary struct {
	// Format is the document's format (urlset, sitemapindex, text, …).
	Format sitemap.Format
	// URLs and IndexEntries count the entries read.
	URLs, IndexEntries int
	// Errors, Warnings and Infos count the diagnostics reported, from the
	// decoder and the checker together.
	Errors, Warnings, Infos int
	// Bytes is the uncompressed size read (S-02).
	Bytes int64
	// Compressed reports whether the document was gzip-compressed.
	Compressed bool
	// Children are the locs of an index's <sitemap> entries, in document
	// order (at most one per entry; nil for a urlset).
	Children []string
	// ChildAt is where each of Children is in the index (its <loc> tag,
	// or the <sitemap> tag when the loc has no position), so that a
	// finding about a child (unreadable, itself an index) points at it.
	ChildAt []Pos
	// Complete is false when the decoder stopped before the end of the
	// document (not a sitemap, truncated, corrupt gzip, a cap): the entries
	// before that point were still checked.
	Complete bool
}

// count adds d to the counts by severity.
func (s *Summary) count(d sitemap.Diagnostic) {
	switch d.Severity {
	case sitemap.SeverityError:
		s.Errors++
	case sitemap.SeverityWarning:
		s.Warnings++
	default:
		s.Infos++
	}
}

// Pos is a 1-based line and column in a document (0 when unknown).
type Pos struct{ Line, Col int }

// Valid reports whether the document has no error (and, when strict, no
// warning either).
func (s Summary) Valid(strict bool) bool {
	return s.Errors == 0 && (!strict || s.Warnings == 0)
}

// String is the one-line summary of the document for people, as
// `sitemap validate` prints it after the document's name:
//
//	urlset, 2 URLs, 412 bytes (gzip): 1 error, 0 warnings, 1 note
//
// "not read to the end" follows the bytes when Complete is false; notes
// are named only when there are some.
func (s Summary) String() string {
	var b strings.Builder
	b.WriteString(s.Format.String())
	if s.Format == sitemap.FormatIndex {
		b.WriteString(", " + plural.Of(s.IndexEntries, "sitemap", "sitemaps"))
	} else {
		b.WriteString(", " + plural.Of(s.URLs, "URL", "URLs"))
	}
	fmt.Fprintf(&b, ", %d bytes", s.Bytes)
	if s.Compressed {
		b.WriteString(" (gzip)")
	}
	if !s.Complete {
		b.WriteString(", not read to the end")
	}
	fmt.Fprintf(&b, ": %s, %s", plural.Of(s.Errors, "error", "errors"), plural.Of(s.Warnings, "warning", "warnings"))
	if s.Infos > 0 {
		b.WriteString(", " + plural.Of(s.Infos, "note", "notes"))
	}
	return b.String()
}

// Document validates one sitemap document read from r: it runs the
// decoder (well-formedness, structure and value forms, reported as the
// decoder sees them) and a [Checker] over every entry, then the whole-
// document rules. Every diagnostic goes to report (which may be nil), in
// the order of the document: those of one entry (the decoder's and the
// Checker's) in line and column order, the whole-document ones last.
//
// A document the decoder cannot read to the end (not a sitemap, truncated,
// corrupt gzip, a cap reached) is a finding, not a failure: its diagnostic
// is reported and Summary.Complete is false. Document returns an error only
// when it could not run: invalid options, a failing reader (I/O error), or
// ctx done, seen between reads of r: a Read that waits on input that may
// never come (a terminal, a silent pipe or socket) is waited for, so give
// such a reader one that returns when ctx is done (an HTTP body of a
// request made with ctx is one; [Tree] reads standard input so).
//
// Memory is bounded by the decoder's caps and the Checker's per-document
// memory (see [Checker]).
func Document(ctx context.Context, r io.Reader, o Options, report func(sitemap.Diagnostic)) (Summary, error) {
	x, err := newDocReader(ctx, r, o, report)
	if err != nil {
		return x.sum, err
	}
	for {
		if _, err := x.Next(); err != nil {
			break
		}
	}
	if x.failed != nil {
		return x.sum, x.failed
	}
	return x.sum, ctx.Err()
}

// docReader is [Document] as the entries a walk reads (fetch.Items): the
// decoder and a Checker over every entry, the index entries handed on
// (the URL entries are checked and dropped), the whole-document rules at
// the end. Its Summary is complete once Next returned an error.
type docReader struct {
	ctx    context.Context
	c      *Checker
	dec    *sitemap.Decoder
	report func(sitemap.Diagnostic)
	sum    Summary
	// The diagnostics of one entry are held until the Checker has seen
	// it (the decoder reports a bad <lastmod> before the Checker can
	// report the <loc> above it), then reported in line order.
	// At most maxHeld are held (an entry with more is reported as found),
	// and none of a text sitemap, whose entries are lines.
	held      []sitemap.Diagnostic
	capped    bool // the decoder reached its byte cap (LIM-01)
	maxErrors int
	n         int
	it        sitemap.Item
	end       error // what Next returns once the document ended
	failed    error // the reader failed, or ctx is done: no finding
}

// newDocReader starts reading r; the error is [NewChecker]'s.
func newDocReader(ctx context.Context, r io.Reader, o Options, report func(sitemap.Diagnostic)) (*docReader, error) {
	x := &docReader{ctx: ctx, report: report}
	c, err := NewChecker(o, x.count)
	if err != nil {
		x.end, x.failed = err, err
		return x, err
	}
	x.c = c
	do := o.Decoder
	do.Name = c.name
	if do.BaseURL == "" {
		do.BaseURL = o.URL
	}
	do.Context = ctx // stops the decoder within a read, entries or not
	x.maxErrors = do.MaxErrors
	if x.maxErrors == 0 {
		x.maxErrors = sitemap.DefaultDecodeMaxErrors
	}
	do.OnDiagnostic = func(d sitemap.Diagnostic) {
		// When the reader itself fails, the decoder reports that as
		// RuleRead; it is no finding about the document (Document returns
		// it as its error), so it is not reported.
		if d.Rule == sitemap.RuleRead {
			return
		}
		if d.Rule == sitemap.RuleMaxBytes {
			x.capped = true // read no further than the byte cap
		}
		x.count(validatorSeverity(d))
	}
	// Each entry is checked once and dropped: the Checker copies the few
	// strings it keeps, so the decoder may reuse its memory.
	do.ReuseValues = true
	x.dec = sitemap.NewDecoder(r, do)
	return x, nil
}

func (x *docReader) flush() {
	held := x.held
	if len(held) > 1 && inLines(held) {
		slices.SortStableFunc(held, func(a, b sitemap.Diagnostic) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
	}
	for i := range held {
		x.report(held[i])
	}
	clear(held)
	x.held = held[:0]
}

func (x *docReader) count(d sitemap.Diagnostic) {
	x.sum.count(d)
	if x.report == nil {
		return
	}
	if len(x.held) == maxHeld || x.dec == nil || x.dec.Format() == sitemap.FormatText {
		x.flush()
		x.report(d)
		return
	}
	x.held = append(x.held, d)
}

// Format names the document's format as the walk does ("" unknown).
func (x *docReader) Format() string {
	if x.dec == nil || x.dec.Format() == sitemap.FormatUnknown {
		return ""
	}
	return x.dec.Format().String()
}

// Next checks the entries up to the next index entry and returns it
// (valid until the next call). At the end of the document it runs the
// whole-document rules and returns io.EOF; a document the decoder stops
// at, the decoder's error (a finding, reported); a failing reader or ctx
// done, that error (x.failed), without the whole-document rules.
func (x *docReader) Next() (*sitemap.Item, error) {
	for x.end == nil {
		if x.n&255 == 0 {
			if err := x.ctx.Err(); err != nil {
				return nil, x.stop(err)
			}
		}
		it, err := x.dec.Next()
		if err != nil {
			x.flush()
			if errors.Is(err, io.EOF) {
				x.sum.Complete = true
			} else if ioFailure(err) {
				return nil, x.stop(err)
			}
			return nil, x.finish(err)
		}
		if x.n == 0 {
			x.c.text = x.dec.Format() == sitemap.FormatText
		}
		x.n++
		x.c.Item(&it)
		x.flush()
		if it.Kind == sitemap.ItemIndex && len(x.sum.Children) < maxTracked {
			x.sum.Children = append(x.sum.Children, strings.Clone(it.Index.Loc))
			line, col := it.LocPos() // the child's URL
			x.sum.ChildAt = append(x.sum.ChildAt, Pos{Line: line, Col: col})
		}
		if x.maxErrors > 0 && x.sum.Errors >= x.maxErrors {
			// The decoder's and the checker's errors together reached the
			// bound (the decoder stops by itself on its own errors alone):
			// the document is abandoned as the decoder abandons it.
			what := "errors"
			if x.sum.Errors == 1 {
				what = "error"
			}
			d := sitemap.Diagnostic{Rule: sitemap.RuleMaxErrors, Severity: sitemap.SeverityError, Line: it.Line, Col: it.Col,
				Message: fmt.Sprintf("%d %s in this document; stopped reading it (is it a sitemap at all? Fix the first errors, or raise the bound (--max-errors; MaxErrors in Go) to read further)", x.sum.Errors, what)}
			if urlnorm.IsHTTP(x.c.name) {
				d.URL = x.c.name
			} else {
				d.File = x.c.name
			}
			x.count(d)
			return nil, x.finish(&sitemap.DecodeError{Diagnostic: d})
		}
		if it.Kind == sitemap.ItemIndex {
			x.it = it
			return &x.it, nil
		}
	}
	return nil, x.end
}

// finish ends a document read to its end or to the decoder's stop: the
// whole-document rules run, and Next returns end from now on.
func (x *docReader) finish(end error) error {
	x.summarize()
	x.c.partial = x.capped
	x.c.Size(x.sum.Bytes)
	x.c.Finish()
	x.flush()
	x.sum.URLs, x.sum.IndexEntries = x.c.URLs(), x.c.IndexEntries()
	x.c, x.end = nil, end // the Checker's memory goes with the document
	return end
}

// stop ends a document that could not be read (err): no whole-document
// rules.
func (x *docReader) stop(err error) error {
	x.summarize()
	x.sum.URLs, x.sum.IndexEntries = x.c.URLs(), x.c.IndexEntries()
	x.c, x.end, x.failed = nil, err, err
	return err
}

func (x *docReader) summarize() {
	x.sum.Format = x.dec.Format()
	x.sum.Bytes = x.dec.Bytes()
	x.sum.Compressed = x.dec.Compressed()
}

// ioFailure reports whether a decoder error is a failure of the reader
// itself (could not run) rather than a finding about the document: the
// decoder reports those as sitemap.RuleRead, wrapping the reader's error.
func ioFailure(err error) bool {
	var de *sitemap.DecodeError
	if errors.As(err, &de) {
		return de.Diagnostic.Rule == sitemap.RuleRead
	}
	return true
}

// validatorSeverity applies the validator's verdict to a decoder
// diagnostic. The decoder reads a missing or near-miss sitemap namespace
// (LG-03), a near-miss extension namespace (EX-04) and text where only
// elements belong (XML-04) with a warning, as a parser should; the
// validator reports them as errors, as the XSD does.
func validatorSeverity(d sitemap.Diagnostic) sitemap.Diagnostic {
	switch d.Rule {
	case rules.LG03, rules.EX04, rules.XML04:
		if d.Severity == sitemap.SeverityWarning {
			d.Severity = sitemap.SeverityError
		}
	}
	return d
}

// maxHeld is how many diagnostics of one entry Document holds to report
// them in line order.
const maxHeld = 32

// inLines reports whether every diagnostic of ds has a line: only then
// are they put in line order (one without a line, about the whole
// document, keeps its place).
func inLines(ds []sitemap.Diagnostic) bool {
	for i := range ds {
		if ds[i].Line == 0 {
			return false
		}
	}
	return true
}
