// Package report writes diagnostics for people and for programs, the one
// way every command that reads sitemaps does (docs/CONVENTIONS.md,
// "Diagnostics"):
//
//   - [Writer]: text (one [sitemap.Diagnostic.String] a line, as a compiler
//     prints them), json (one array, "[]" when empty) or jsonl (one object
//     a line);
//   - [Cap]: at most N diagnostics shown per key (a rule, or a document
//     and a rule), the rest counted, in memory that grows with the number
//     of keys, never of diagnostics;
//   - [Tally]: the counts by severity and the first rules found, for the
//     closing summary and its "sitemap explain" hint;
//   - [Reporter]: the three together, with one cap per document (what
//     `sitemap validate` prints).
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
)

// Formats are the formats a [Writer] writes.
var Formats = []string{"text", "json", "jsonl"}

// Writer writes diagnostics to an io.Writer in one of [Formats]. The
// first write error is kept (see [Writer.Err]) and every later write is
// skipped.
type Writer struct {
	w      io.Writer
	format string
	n      int
	buf    bytes.Buffer
	err    error
}

// NewWriter returns a Writer of format to w; an unknown format is an
// error naming the known ones.
func NewWriter(w io.Writer, format string) (*Writer, error) {
	if !slices.Contains(Formats, format) {
		return nil, fmt.Errorf("--format %q: want text, json or jsonl", format)
	}
	return &Writer{w: w, format: format}, nil
}

// Format is the format w writes.
func (w *Writer) Format() string { return w.format }

// Line writes s and a newline as they are: a note of the text format.
// In json and jsonl it writes nothing (notes are for people).
func (w *Writer) Line(s string) {
	if w.err != nil || w.format != "text" {
		return
	}
	_, w.err = io.WriteString(w.w, s+"\n")
}

// Write writes one diagnostic. JSON has exactly the fields of
// sitemap.Diagnostic, tags such as <loc> unescaped.
func (w *Writer) Write(d sitemap.Diagnostic) {
	if w.err != nil {
		return
	}
	w.buf.Reset()
	if w.format == "text" {
		w.buf.WriteString(d.String())
		w.buf.WriteByte('\n')
	} else {
		switch {
		case w.format == "json" && w.n == 0:
			w.buf.WriteString("[\n")
		case w.format == "json":
			w.buf.WriteString(",\n")
		}
		enc := json.NewEncoder(&w.buf)
		enc.SetEscapeHTML(false) // messages name tags: <loc>, not \u003cloc\u003e
		if w.err = enc.Encode(d); w.err != nil {
			return
		}
		if w.format == "json" {
			w.buf.Truncate(w.buf.Len() - 1) // the newline comes before the next one
		}
	}
	w.n++
	_, w.err = w.w.Write(w.buf.Bytes())
}

// Err is the first error writing returned, or nil.
func (w *Writer) Err() error { return w.err }

// Close ends a JSON array ("[]" when nothing was written) and returns
// the first error writing returned. It does not close the io.Writer.
func (w *Writer) Close() error {
	if w.err == nil && w.format == "json" {
		if w.n == 0 {
			_, w.err = io.WriteString(w.w, "[]\n")
		} else {
			_, w.err = io.WriteString(w.w, "\n]\n")
		}
	}
	return w.err
}

// Cap shows at most Max diagnostics per key and counts the rest. The nil
// *Cap (see [NewCap]) shows everything.
type Cap struct {
	max   int
	shown map[string]int
	held  map[string]int
	order []string
}

// NewCap returns a cap of max per key, or nil (no cap) when max <= 0.
func NewCap(max int) *Cap {
	if max <= 0 {
		return nil
	}
	return &Cap{max: max, shown: map[string]int{}, held: map[string]int{}}
}

// Show counts one diagnostic under key and reports whether it is shown:
// false past the cap's max for that key.
func (c *Cap) Show(key string) bool {
	if c == nil {
		return true
	}
	if c.shown[key] >= c.max {
		if c.held[key] == 0 {
			c.order = append(c.order, key)
		}
		c.held[key]++
		return false
	}
	c.shown[key]++
	return true
}

// Shown is how many diagnostics of key were shown.
func (c *Cap) Shown(key string) int {
	if c == nil {
		return 0
	}
	return c.shown[key]
}

// Count is how many diagnostics of key were counted, shown or held back.
func (c *Cap) Count(key string) int {
	if c == nil {
		return 0
	}
	return c.shown[key] + c.held[key]
}

// Held is one key with diagnostics held back, and how many.
type Held struct {
	Key string
	N   int
}

// Held lists the keys with diagnostics held back, in the order they first
// reached the cap.
func (c *Cap) Held() []Held {
	if c == nil {
		return nil
	}
	out := make([]Held, len(c.order))
	for i, k := range c.order {
		out[i] = Held{k, c.held[k]}
	}
	return out
}

// HeldTotal is how many diagnostics were held back, all keys together.
func (c *Cap) HeldTotal() int {
	n := 0
	for _, h := range c.Held() {
		n += h.N
	}
	return n
}

// Note is the text line that says, at the end of the document name, how
// many diagnostics of rule a cap held back:
//
//	NAME: note RULE: and N more RULE diagnostics in this document (use --max-per-rule 0 to see all)
func Note(name, rule string, n int) string {
	what := rule + " diagnostics"
	if rule == "" {
		what = "diagnostics without a rule"
	}
	return fmt.Sprintf("%s: note %s: and %d more %s in this document (use --max-per-rule 0 to see all)",
		check.EscapeControls(name), rule, n, what)
}

// MaxExplain is how many rules a [Tally] keeps for its hint.
const MaxExplain = 5

// Tally counts diagnostics by severity and keeps the first [MaxExplain]
// rules of errors and warnings, in the order first seen.
type Tally struct {
	Errors, Warnings, Infos int
	Rules                   []string
}

// Add counts d.
func (t *Tally) Add(d sitemap.Diagnostic) {
	switch d.Severity {
	case sitemap.SeverityError:
		t.Errors++
	case sitemap.SeverityWarning:
		t.Warnings++
	default:
		t.Infos++
		return
	}
	if d.Rule != "" && len(t.Rules) < MaxExplain && !slices.Contains(t.Rules, string(d.Rule)) {
		t.Rules = append(t.Rules, string(d.Rule))
	}
}

// Hint is the closing line that names the rules to look up, or "" when
// no error or warning had a rule.
func (t *Tally) Hint() string {
	if len(t.Rules) == 0 {
		return ""
	}
	return "what a rule requires and how to fix it: sitemap explain " + strings.Join(t.Rules, " ")
}

// Reporter writes the diagnostics of documents through a [Writer],
// counted in a [Tally], with a [Cap] of MaxPerRule per rule and document
// in the text format (json and jsonl are for programs: all is written).
// Diagnostics held back count like shown ones.
type Reporter struct {
	*Writer
	Tally
	max int
}

// New returns a Reporter writing format to w, with at most maxPerRule
// diagnostics of one rule shown per document (0: all).
func New(w io.Writer, format string, maxPerRule int) (*Reporter, error) {
	dw, err := NewWriter(w, format)
	if err != nil {
		return nil, err
	}
	if maxPerRule < 0 {
		return nil, fmt.Errorf("--max-per-rule must not be negative (0 shows every diagnostic)")
	}
	return &Reporter{Writer: dw, max: maxPerRule}, nil
}

// Document is the report of one document, its cap its own.
type Document struct {
	r    *Reporter
	name string
	cap  *Cap
}

// Document starts the report of the document name (as its diagnostics
// name it).
func (r *Reporter) Document(name string) *Document {
	doc := &Document{r: r, name: name}
	if r.format == "text" {
		doc.cap = NewCap(r.max)
	}
	return doc
}

// Report counts d and writes it unless the document's cap holds it back.
func (doc *Document) Report(d sitemap.Diagnostic) {
	doc.r.Add(d)
	if doc.cap.Show(string(d.Rule)) {
		doc.r.Write(d)
	}
}

// End writes one [Note] per rule with diagnostics held back.
func (doc *Document) End() {
	for _, h := range doc.cap.Held() {
		doc.r.Line(Note(doc.name, h.Key, h.N))
	}
	if doc.cap != nil {
		doc.cap = NewCap(doc.r.max) // a document reported on after End starts again
	}
}

// Printer writes every diagnostic as text as it comes, without a cap,
// and counts what it writes (Tally): what `sitemap graph` and `sitemap
// html` print of the sitemaps they read. With Quiet only the errors are
// written and counted.
type Printer struct {
	*Reporter
	Quiet bool
}

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer, quiet bool) *Printer {
	rep, _ := New(w, "text", 0) // text without a cap: never an error
	return &Printer{rep, quiet}
}

// Print writes and counts d, unless Quiet holds back a warning or note.
func (p *Printer) Print(d sitemap.Diagnostic) {
	if d.Severity == sitemap.SeverityError || !p.Quiet {
		p.Add(d)
		p.Write(d)
	}
}
