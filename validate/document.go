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
	var sum Summary
	// The diagnostics of one entry are held until the Checker has seen
	// it (the decoder reports a bad <lastmod> before the Checker can
	// report the <loc> above it), then reported in line order.
	// At most maxHeld are held (an entry with more is reported as found),
	// and none of a text sitemap, whose entries are lines.
	var (
		held []sitemap.Diagnostic
		dec  *sitemap.Decoder
	)
	flush := func() {
		if len(held) > 1 && inLines(held) {
			slices.SortStableFunc(held, func(a, b sitemap.Diagnostic) int {
				return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
			})
		}
		for i := range held {
			report(held[i])
		}
		clear(held)
		held = held[:0]
	}
	count := func(d sitemap.Diagnostic) {
		sum.count(d)
		if report == nil {
			return
		}
		if len(held) == maxHeld || dec == nil || dec.Format() == sitemap.FormatText {
			flush()
			report(d)
			return
		}
		held = append(held, d)
	}
	defer flush()
	c, err := NewChecker(o, count)
	if err != nil {
		return sum, err
	}
	do := o.Decoder
	do.Name = c.name
	if do.BaseURL == "" {
		do.BaseURL = o.URL
	}
	do.Context = ctx // stops the decoder within a read, entries or not
	capped := false
	maxErrors := do.MaxErrors
	if maxErrors == 0 {
		maxErrors = sitemap.DefaultDecodeMaxErrors
	}
	do.OnDiagnostic = func(d sitemap.Diagnostic) {
		// When the reader itself fails, the decoder reports that as
		// RuleRead; it is no finding about the document (Document returns
		// it as its error), so it is not reported.
		if d.Rule == sitemap.RuleRead {
			return
		}
		if d.Rule == sitemap.RuleMaxBytes {
			capped = true // read no further than the byte cap
		}
		count(validatorSeverity(d))
	}
	// Each entry is checked once and dropped: the Checker copies the few
	// strings it keeps, so the decoder may reuse its memory.
	do.ReuseValues = true
	dec = sitemap.NewDecoder(r, do)
	var readErr error
	for n := 0; ; n++ {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return sum, err
			}
		}
		it, err := dec.Next()
		if err != nil {
			flush()
			if errors.Is(err, io.EOF) {
				sum.Complete = true
			} else if ioFailure(err) {
				readErr = err
			}
			break
		}
		if n == 0 {
			c.text = dec.Format() == sitemap.FormatText
		}
		c.Item(&it)
		flush()
		if it.Kind == sitemap.ItemIndex && len(sum.Children) < maxTracked {
			sum.Children = append(sum.Children, strings.Clone(it.Index.Loc))
			line, col := it.LocPos() // the child's URL
			sum.ChildAt = append(sum.ChildAt, Pos{Line: line, Col: col})
		}
		if maxErrors > 0 && sum.Errors >= maxErrors {
			// The decoder's and the checker's errors together reached the
			// bound (the decoder stops by itself on its own errors alone):
			// the document is abandoned as the decoder abandons it.
			d := sitemap.Diagnostic{Rule: sitemap.RuleMaxErrors, Severity: sitemap.SeverityError, Line: it.Line, Col: it.Col,
				Message: fmt.Sprintf("%d errors in this document; stopped reading it (is it a sitemap at all? Fix the first errors, or raise the bound (--max-errors; MaxErrors in Go) to read further)", sum.Errors)}
			if urlnorm.IsHTTP(c.name) {
				d.URL = c.name
			} else {
				d.File = c.name
			}
			count(d)
			break
		}
	}
	sum.Format = dec.Format()
	sum.Bytes = dec.Bytes()
	sum.Compressed = dec.Compressed()
	if readErr == nil {
		c.partial = capped
		c.Size(sum.Bytes)
		c.Finish()
	}
	sum.URLs, sum.IndexEntries = c.URLs(), c.IndexEntries()
	if readErr != nil {
		return sum, readErr
	}
	return sum, ctx.Err()
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
