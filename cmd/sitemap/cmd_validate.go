package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/validate"
)

// Project rule IDs of the validate command, where SITEMAP-SPEC.md has none.
const (
	ruleChildMissing = "VAL-01" // a child sitemap of an index could not be read
	ruleChildCap     = "VAL-02" // more children than --max-children; the rest not checked
)

// validateOptions are the flags and arguments of `sitemap validate`.
type validateOptions struct {
	Format       string
	Strict       bool
	Base         string
	Now          string
	CrossSubmit  bool
	TrustedHosts []string
	NoChildren   bool
	MaxChildren  int
	MaxPerRule   int
	Timeout      time.Duration
	Inputs       []string

	// client is the HTTP client for URL inputs (tests may set it).
	client *http.Client
}

func newValidateCmd(s *streams) *cobra.Command {
	o := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate [flags] INPUT...",
		Short: "Check sitemaps and sitemap indexes against the protocol, the XSDs and Google's rules",
		Long: `Validate reads each INPUT (a file, "-" for standard input, or an http(s) URL; gzip is
detected from the bytes) and reports every problem like a compiler, one per line on standard
output:

  sitemap.xml:5:5: error X-06: <loc> out of order; children of <url> go loc, lastmod, …

Rule IDs (X-06, L-09, N-06, …) refer to SITEMAP-SPEC.md. The checks cover well-formedness,
everything the XSDs check (cross-checked against xmllint), and what they cannot: absolute,
percent-encoded URLs in the sitemap's scope, the 50,000-URL and 50 MiB limits, lastmod
dates, and the image, video, news and hreflang rules. A summary per document goes to
standard error.

In the text format at most --max-per-rule diagnostics of one rule are shown per document;
one note line at the end of the document counts the rest:

  sitemap.xml: note L-09: and 49980 more L-09 diagnostics in this document (use --max-per-rule 0 to see all)

The exit status and the summaries count every diagnostic, shown or not; json and jsonl
always list every diagnostic.

The children of a sitemap index are checked too (one level, I-07): for a URL they are
fetched, except those on another scheme, host or port than the index (I-05: reported, not
fetched; redirects off the index's site are not followed); for a local file each child loc is mapped to a file beside the index: the part of
the loc under --base's directory, or else the loc's file name. Missing children are errors.

Scope (L-09): a URL input is its own scope. For a local file, --base says where it will be
served (a file URL, or a directory URL ending in "/"); without it the scope check is
skipped and only "one host per sitemap" (L-08) is checked.

Exit status: 0 no errors (with --strict: no warnings either), 1 problems found, 2 could
not run (bad flags, unreadable input, HTTP failure of an INPUT).`,
		Example: `  sitemap validate testdata/samples/basic.xml
  sitemap validate --base https://www.example.com/ --strict testdata/samples/basic.xml
  sitemap validate --format jsonl --now 2026-11-22T12:00:00Z testdata/samples/newsold.xml
  sitemap validate https://www.example.com/sitemap.xml.gz`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			return runValidate(c.Context(), o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "text", "output: text (file:line:col: severity RULE: message), json (one array), jsonl (one object per line)")
	f.BoolVar(&o.Strict, "strict", false, "count warnings as errors for the exit status")
	f.StringVar(&o.Base, "base", "", "`URL` where a local INPUT is served (a directory URL ending in / or the file's URL), for the scope rules L-09/I-06")
	f.StringVar(&o.Now, "now", "", "reference `TIME` for future lastmod (M-07) and news age (N-06), RFC 3339 or YYYY-MM-DD (default: now)")
	f.BoolVar(&o.CrossSubmit, "cross-submit", false, "the sitemap is cross-submitted (O-03): scope errors become warnings")
	f.StringSliceVar(&o.TrustedHosts, "trusted-host", nil, "extra `HOST` allowed in the sitemap, e.g. verified in Search Console (O-06); repeatable")
	f.BoolVar(&o.NoChildren, "no-children", false, "do not check the children of a sitemap index")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to check")
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "with --format text, most diagnostics of one rule shown per document; the rest are counted in one note line (0 = no cap)")
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

// diagWriter writes diagnostics to standard output in the chosen format.
type diagWriter struct {
	w      io.Writer
	format string
	n      int
	err    error
}

func newDiagWriter(w io.Writer, format string) (*diagWriter, error) {
	switch format {
	case "text", "json", "jsonl":
	default:
		return nil, fmt.Errorf("--format %q: want text, json or jsonl", format)
	}
	return &diagWriter{w: w, format: format}, nil
}

// line writes one line of text as it is (the text format's notes).
func (dw *diagWriter) line(s string) {
	if dw.err != nil {
		return
	}
	_, dw.err = io.WriteString(dw.w, s+"\n")
}

func (dw *diagWriter) write(d sitemap.Diagnostic) {
	if dw.err != nil {
		return
	}
	var b []byte
	switch dw.format {
	case "text":
		b = append([]byte(d.String()), '\n')
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // messages name tags: <loc>, not \u003cloc\u003e
		if err := enc.Encode(d); err != nil {
			dw.err = err
			return
		}
		j := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		switch {
		case dw.format == "jsonl":
			b = append(j, '\n')
		case dw.n == 0:
			b = append([]byte("[\n"), j...)
		default:
			b = append([]byte(",\n"), j...)
		}
	}
	dw.n++
	_, dw.err = dw.w.Write(b)
}

// close ends a JSON array (an empty one when nothing was written).
func (dw *diagWriter) close() error {
	if dw.err == nil && dw.format == "json" {
		if dw.n == 0 {
			_, dw.err = io.WriteString(dw.w, "[]\n")
		} else {
			_, dw.err = io.WriteString(dw.w, "\n]\n")
		}
	}
	return dw.err
}

// validateRun is the state of one `sitemap validate`.
type validateRun struct {
	o      *validateOptions
	s      *streams
	dw     *diagWriter
	now    time.Time
	errors int
	warns  int
	docs   int
}

func runValidate(ctx context.Context, o *validateOptions, s *streams) error {
	dw, err := newDiagWriter(s.Out, o.Format)
	if err != nil {
		return cannotRun("%v", err)
	}
	now, err := parseNow(o.Now)
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.MaxChildren < 0 {
		return cannotRun("--max-children must not be negative")
	}
	if o.MaxPerRule < 0 {
		return cannotRun("--max-per-rule must not be negative (0 shows every diagnostic)")
	}
	if o.client == nil {
		o.client = &http.Client{Timeout: o.Timeout}
	}
	inputs, err := docInputs(o.Inputs, o.Base)
	if err != nil {
		return err
	}
	r := &validateRun{o: o, s: s, dw: dw, now: now}
	doc := func(in docInput) error { return r.document(ctx, in, nil, true, nil) }
	if err := readInputs(ctx, inputs, doc, dw.close, "results"); err != nil {
		return err
	}
	if r.docs > 1 {
		fmt.Fprintf(s.Err, "%d documents: %s, %s\n", r.docs, plural(r.errors, "error"), plural(r.warns, "warning"))
	}
	if r.errors > 0 || (o.Strict && r.warns > 0) {
		return problemsFound()
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ruleCap is the text format's cap on the diagnostics of one document
// (--max-per-rule): it counts, per rule, the diagnostics shown and those
// held back. Its memory grows with the number of rules, not of entries.
type ruleCap struct {
	name  string         // the document, as its diagnostics name it
	shown map[string]int // per rule
	held  map[string]int // per rule, past the cap
	order []string       // rules past the cap, in the order they got there
}

// newCap returns the cap of the document name, or nil when nothing is
// capped (json/jsonl, or --max-per-rule 0).
func (r *validateRun) newCap(name string) *ruleCap {
	if r.dw.format != "text" || r.o.MaxPerRule == 0 {
		return nil
	}
	return &ruleCap{name: name, shown: map[string]int{}, held: map[string]int{}}
}

// report counts one diagnostic of the document capped by c (nil: no cap)
// and writes it, unless c holds it back. Held-back diagnostics count
// towards the severities and so the exit status exactly like shown ones.
func (r *validateRun) report(c *ruleCap, d sitemap.Diagnostic) {
	switch d.Severity {
	case sitemap.SeverityError:
		r.errors++
	case sitemap.SeverityWarning:
		r.warns++
	}
	if c != nil {
		if c.shown[d.Rule] >= r.o.MaxPerRule {
			if c.held[d.Rule] == 0 {
				c.order = append(c.order, d.Rule)
			}
			c.held[d.Rule]++
			return
		}
		c.shown[d.Rule]++
	}
	r.dw.write(d)
}

// endCap writes, at the end of the document capped by c, one note per
// rule with diagnostics held back.
func (r *validateRun) endCap(c *ruleCap) {
	if c == nil {
		return
	}
	for _, rule := range c.order {
		what := rule + " diagnostics"
		if rule == "" {
			what = "diagnostics without a rule"
		}
		r.dw.line(fmt.Sprintf("%s: note %s: and %d more %s in this document (use --max-per-rule 0 to see all)",
			c.name, rule, c.held[rule], what))
	}
	c.order = nil
}

// document validates one document and, when it is an index and top is
// set, its children. It returns an error only when the run cannot go on
// (a top-level INPUT unreadable, output unwritable, ctx done); a child that
// cannot be read is reported as a diagnostic (VAL-01) against parent.
//
// across is shared by the children of one index (L-17 across an index);
// nil for a top-level INPUT.
func (r *validateRun) document(ctx context.Context, in docInput, parent func(sitemap.Diagnostic), top bool, across *validate.IndexLocs) error {
	rc, err := open(ctx, r.o.client, in, r.s.In)
	if err != nil {
		if top {
			return cannotRun("%s: %v", in.name, unwrapPath(err))
		}
		parent(sitemap.Diagnostic{Rule: ruleChildMissing, Severity: sitemap.SeverityError,
			Message: childUnreadable(in, err)})
		return nil
	}
	vo := validate.Options{
		Name: in.name, URL: in.url, CrossSubmit: r.o.CrossSubmit,
		TrustedHosts: r.o.TrustedHosts, Now: r.now, AcrossIndex: across,
	}
	// The document's diagnostics, and the findings about its children
	// reported against it (VAL-01, VAL-02, I-07), share one cap; its notes
	// come at the end of the document, after its children.
	cp := r.newCap(in.name)
	sum, err := validate.Document(ctx, rc, vo, func(d sitemap.Diagnostic) { r.report(cp, d) })
	rc.Close()
	r.docs++
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if top {
			return cannotRun("%s: %v", in.name, decodeCause(err))
		}
		r.endCap(cp)
		parent(sitemap.Diagnostic{Rule: ruleChildMissing, Severity: sitemap.SeverityError,
			Message: childUnreadable(in, err)})
		return nil
	}
	if r.dw.err != nil {
		return cannotRun("writing results: %v", r.dw.err)
	}
	if top && sum.Format == sitemap.FormatIndex && !r.o.NoChildren {
		if err := r.children(ctx, in, &sum, cp); err != nil {
			return err
		}
	}
	r.endCap(cp)
	// An index's summary comes after its children and counts the findings
	// about them reported against it (VAL-01, VAL-02, I-07).
	fmt.Fprintf(r.s.Err, "%s: %s\n", in.name, describe(sum))
	if !top && sum.Format == sitemap.FormatIndex {
		parent(sitemap.Diagnostic{Rule: "I-07", Severity: sitemap.SeverityError,
			Message: fmt.Sprintf("child %s is itself a sitemap index; indexes cannot be nested (not followed)", in.url)})
	}
	return nil
}

// children checks the children of the index in (one level, I-07). The
// findings about a child as a whole go against the index, under its cap
// cp, at the child's <sitemap> entry, and count in sum.
func (r *validateRun) children(ctx context.Context, in docInput, sum *validate.Summary, cp *ruleCap) error {
	across := validate.NewIndexLocs()
	for i, loc := range sum.Children {
		// Findings about a child point at its <sitemap> entry.
		var pos validate.Pos
		if i < len(sum.ChildAt) {
			pos = sum.ChildAt[i]
		}
		here := func(d sitemap.Diagnostic) {
			d.Line, d.Col = pos.Line, pos.Col
			switch d.Severity {
			case sitemap.SeverityError:
				sum.Errors++
			case sitemap.SeverityWarning:
				sum.Warnings++
			default:
				sum.Infos++
			}
			r.report(cp, at(in.name, d))
		}
		if i == r.o.MaxChildren {
			here(sitemap.Diagnostic{Rule: ruleChildCap, Severity: sitemap.SeverityWarning,
				Message: fmt.Sprintf("the index lists %d sitemaps; only the first %d were checked (raise --max-children)", len(sum.Children), r.o.MaxChildren)})
			break
		}
		child, err := childInput(in, loc)
		if err != nil {
			here(sitemap.Diagnostic{Rule: ruleChildMissing, Severity: sitemap.SeverityError,
				Message: fmt.Sprintf("child sitemap %q not checked: %v", loc, err)})
			continue
		}
		if child.path == "" {
			// I-05: an index fetched over HTTP names sitemaps on its own
			// site only; a child on another scheme, host or port is
			// reported (the checker's I-05, an error or, cross-submitted
			// or trusted, a warning) but never fetched. Local children
			// (mapped to files) are not fetched at all.
			if !sameOrigin(in.name, loc) {
				here(sitemap.Diagnostic{Rule: "I-05", Severity: sitemap.SeverityInfo,
					Message: fmt.Sprintf("child sitemap %s is on another site than the index (%s); not fetched", loc, originOf(mustURL(in.name)))})
				continue
			}
			child.origin = in.name
		}
		if err := r.document(ctx, child, here, false, across); err != nil {
			return err
		}
	}
	return nil
}

// mustURL parses an http(s) INPUT already known to be a URL.
func mustURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return &url.URL{}
	}
	return u
}

// childUnreadable is the VAL-01 message for a child that could not be
// read: for a local file, which file was looked for and how children map
// to files.
func childUnreadable(in docInput, err error) string {
	if in.path != "" && errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("child sitemap %s not found: no file %s (a child is looked for beside the index, by its path under --base or else by its file name; --no-children skips children)", in.url, in.path)
	}
	return fmt.Sprintf("child sitemap %s cannot be read: %v", in.url, decodeCause(unwrapPath(err)))
}

// decodeCause returns the cause of a decoder error without the
// diagnostic text that wraps it (which repeats the document's name).
func decodeCause(err error) error {
	var de *sitemap.DecodeError
	if errors.As(err, &de) && de.Err != nil {
		return de.Err
	}
	return err
}

// at places d in the document name: its URL field for an http(s) name,
// else its File field.
func at(name string, d sitemap.Diagnostic) sitemap.Diagnostic {
	if isURL(name) {
		d.URL = name
	} else {
		d.File = name
	}
	return d
}

// readFailed reports whether a Decoder error is a failure of the reader
// itself rather than a finding about the document.
func readFailed(err error) bool {
	for _, e := range []error{sitemap.ErrNotSitemap, sitemap.ErrLimit, sitemap.ErrTruncated, sitemap.ErrGzip} {
		if errors.Is(err, e) {
			return false
		}
	}
	return true
}

// describe is the one-line summary of a document for standard error.
func describe(s validate.Summary) string {
	var b strings.Builder
	b.WriteString(s.Format.String())
	switch {
	case s.Format == sitemap.FormatIndex:
		fmt.Fprintf(&b, ", %s", plural(s.IndexEntries, "sitemap"))
	default:
		fmt.Fprintf(&b, ", %s", plural(s.URLs, "URL"))
	}
	fmt.Fprintf(&b, ", %d bytes", s.Bytes)
	if s.Compressed {
		b.WriteString(" (gzip)")
	}
	if !s.Complete {
		b.WriteString(", not read to the end")
	}
	fmt.Fprintf(&b, ": %s, %s", plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	if s.Infos > 0 {
		fmt.Fprintf(&b, ", %s", plural(s.Infos, "note"))
	}
	return b.String()
}
