package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/progress"
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
	dw     *diagWriter
	errors int
	warns  int
	// explain holds the first few rules with errors or warnings, in the
	// order first seen, for the closing 'sitemap explain' hint.
	explain []string
}

// maxExplain is how many rule IDs the closing hint names.
const maxExplain = 5

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
	errw := bar.Writer(s.Err)
	dw, err := newDiagWriter(bar.Writer(s.Out), o.Format)
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
	for _, h := range o.TrustedHosts {
		if err := trustedHost(h); err != nil {
			return cannotRun("%v", err)
		}
	}
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return cannotRun("%v", err)
		}
	}
	r := &validateRun{o: o, dw: dw}
	// The diagnostics of a document, and the findings about its children
	// reported against it (VAL-01, VAL-02, I-07), share one cap; its
	// notes come at the end of the document, after its children.
	caps := map[*input.Doc]*ruleCap{}
	capOf := func(doc *input.Doc) *ruleCap {
		c, ok := caps[doc]
		if !ok {
			c = r.newCap(doc.Name)
			caps[doc] = c
		}
		return c
	}
	maxChildren := o.MaxChildren
	if maxChildren == 0 {
		maxChildren = -1 // none: a negative MaxChildren checks no child
	}
	to := validate.TreeOptions{
		Options: validate.Options{CrossSubmit: o.CrossSubmit, TrustedHosts: o.TrustedHosts, Now: now,
			Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)}},
		Input: input.Options{Base: o.Base, Stdin: s.In, MaxChildren: maxChildren,
			Client: o.client},
		NoChildren:   o.NoChildren,
		OnDiagnostic: func(doc *input.Doc, d sitemap.Diagnostic) { r.report(capOf(doc), d) },
		OnDocument: func(res validate.DocResult) error {
			r.endCap(caps[res.Doc])
			delete(caps, res.Doc)
			if r.dw.err != nil {
				return cannotRun("writing results: %v", r.dw.err)
			}
			if res.Err == nil {
				// An index's summary comes after its children and counts
				// the findings about them reported against it.
				fmt.Fprintf(errw, "%s: %s\n", check.EscapeControls(res.Doc.Name), describe(res.Summary))
			}
			bar.Add(1)
			return nil
		},
	}
	to.Input.Progress = progressOf
	// An input that cannot be opened is said where it comes, and the
	// others are still checked; the run then exits 2.
	unopened := 0
	to.OnOpenError = func(doc *input.Doc, err error) {
		unopened++
		fmt.Fprintf(errw, "sitemap: %v\n", err)
	}
	sum, runErr := validate.Tree(ctx, o.Inputs, to)
	bar.Done()
	if unopened > 0 && runErr != nil && ctx.Err() == nil {
		var oe *input.OpenError
		if errors.As(runErr, &oe) {
			// Said above; the summary below counts what was read.
			runErr = nil
		}
	}
	if runErr != nil {
		var ee *exitError
		if !errors.As(runErr, &ee) && ctx.Err() == nil {
			runErr = cannotRun("%v", runErr)
		}
	}
	if err := dw.close(); err != nil && runErr == nil {
		runErr = cannotRun("writing results: %v", err)
	}
	if runErr != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return runErr
	}
	if sum.Documents > 1 {
		fmt.Fprintf(s.Err, "%d documents: %s, %s\n", sum.Documents, plural(r.errors, "error"), plural(r.warns, "warning"))
	}
	if len(r.explain) > 0 {
		fmt.Fprintf(s.Err, "what a rule requires and how to fix it: sitemap explain %s\n", strings.Join(r.explain, " "))
	}
	if unopened > 0 && sum.Documents == 0 {
		return &exitError{Code: exitUsage} // the error above says it all
	}
	if unopened > 0 {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("%s could not be read (the %s above)", plural(unopened, "input"), map[bool]string{true: "error", false: "errors"}[unopened == 1])}
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
	if d.Severity != sitemap.SeverityInfo && d.Rule != "" && len(r.explain) < maxExplain && !slices.Contains(r.explain, string(d.Rule)) {
		r.explain = append(r.explain, string(d.Rule))
	}
	if c != nil {
		if c.shown[string(d.Rule)] >= r.o.MaxPerRule {
			if c.held[string(d.Rule)] == 0 {
				c.order = append(c.order, string(d.Rule))
			}
			c.held[string(d.Rule)]++
			return
		}
		c.shown[string(d.Rule)]++
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

// trustedHost checks a --trusted-host value: a host name or IP address,
// compared with a loc's host. A URL, a port or a path never matches one,
// so it is refused rather than ignored.
func trustedHost(h string) error {
	if net.ParseIP(h) != nil || strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") && net.ParseIP(h[1:len(h)-1]) != nil {
		return nil
	}
	if h != "" && !strings.ContainsAny(h, "/:@?#% \t\r\n") {
		return nil
	}
	msg := fmt.Sprintf("--trusted-host %q is not a host name; give the host alone, such as cdn.example.net", h)
	u, err := url.Parse(h)
	if err != nil || u.Host == "" {
		u, err = url.Parse("//" + h)
	}
	if err == nil && u.Hostname() != "" && u.Hostname() != h {
		msg = fmt.Sprintf("--trusted-host %q is not a host name; give the host alone: %s", h, u.Hostname())
	}
	return errors.New(msg)
}
