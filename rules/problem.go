package rules

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/ctrl"
)

// Problem is one finding under a rule of the book, whoever found it: the
// decoder and the validator (a sitemap.Diagnostic is a Problem), the
// encoder refusing an entry (sitemap.EntryError), a source reading entry
// records (source.Error), generate, and the value checks they share. It
// is also the error those return for a bad entry or a bad value, so a
// caller asks errors.As for a *Problem and reads its Rule instead of
// matching the message.
//
// Rule, Severity, Message and the place (File or URL, Line, Col: 1-based,
// 0 when unknown) are what a diagnostic prints, as text ([Problem.String])
// or JSON (exactly those fields, empty ones left out). The other fields
// say more about a problem with one entry: Field and Value name the
// offending field and quote its value, Fix says what to do, Suggest is a
// corrected value; Skipped, Dropped and Fixed say what a reader did about
// it. Severity is the book's for the rule ([ID.Severity], [ID.Problem])
// unless the one reporting chose another on purpose.
type Problem struct {
	Rule     ID       `json:"rule"`
	Severity Severity `json:"severity"`
	// Message says what is wrong in words, written to follow Field and
	// Value when they are set (`has a host with non-ASCII characters`).
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	URL     string `json:"url,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`

	// Field is the JSON path of the offending field of an entry (the
	// names of the entry record: "loc", "images[2].loc",
	// "news.publication.language"); "" for the entry as a whole or a
	// problem of the document.
	Field string `json:"-"`
	// Value is the offending value as text ("" when it is empty or there
	// is none to show).
	Value string `json:"-"`
	// Fix says what to do when Message does not (`write it in punycode:
	// "https://xn--bcher-kva.example/"`).
	Fix string `json:"-"`
	// Suggest is a corrected value when one can be told (the punycode or
	// percent-encoded form of a URL, the language of "pt-br"); nothing
	// applies it automatically.
	Suggest string `json:"-"`
	// Skipped is set when the entry (item, line) the problem is about was
	// left out, the rest of the input read on.
	Skipped bool `json:"-"`
	// Dropped names what was left out of an entry that was kept: a field
	// ("lastmod") or an extension block ("videos[1]", "news").
	Dropped string `json:"-"`
	// Fixed is set when a value was read in a corrected form, such as a
	// number written as a JSON string ("0.5").
	Fixed bool `json:"-"`
}

// Problem returns a Problem under the rule id with message and the
// book's severity for id.
func (id ID) Problem(message string) Problem {
	return Problem{Rule: id, Severity: id.Severity(), Message: message}
}

// WithSeverity returns a copy of p reported at sev instead: the one way a
// report overrides the severity the book gives the rule, on purpose (a
// source's warning that costs no entry, a reader's error the validator
// counts as a warning).
func (p Problem) WithSeverity(sev Severity) Problem {
	p.Severity = sev
	return p
}

// OK reports whether there is no problem (p is nil), the answer of a
// check that found its value good.
func (p *Problem) OK() bool { return p == nil }

// maxValue is how long a Value is shown in full; longer ones are cut to
// cutValue bytes and "…".
const maxValue, cutValue = 120, 100

// Text returns what is wrong in one piece, the message of the printed
// forms: the field, the value quoted (shortened past 120 bytes), the
// message and the fix: `loc "/x" is not an absolute URL; write …`; ""
// for a nil p.
func (p *Problem) Text() string {
	if p == nil {
		return ""
	}
	if p.Field == "" && p.Value == "" && p.Fix == "" {
		return p.Message
	}
	var b strings.Builder
	b.WriteString(p.Field)
	if p.Value != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		v := p.Value
		if len(v) > maxValue {
			cut := cutValue
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			v = v[:cut] + "…"
		}
		b.WriteString(strconv.Quote(v))
	}
	if b.Len() > 0 && p.Message != "" {
		b.WriteByte(' ')
	}
	b.WriteString(p.Message)
	if p.Fix != "" {
		b.WriteString("; ")
		b.WriteString(p.Fix)
	}
	return b.String()
}

// Error formats p as an error: its place when it has one, the text and
// the rule in parentheses (left out when the text cites it already, as
// "(L-18)" or "…; L-18)"):
//
//	urls.csv:4:12: priority "high" is not a number between 0.0 and 1.0 (P-01)
//	loc "/x" is not an absolute URL; sitemaps need https://… (L-01)
func (p *Problem) Error() string {
	text := p.Text()
	var b strings.Builder
	b.Grow(len(text) + len(p.File) + len(p.URL) + 24)
	if where := p.where(); where != "" {
		b.WriteString(where)
		b.WriteByte(':')
	}
	if p.Line > 0 {
		b.WriteString(strconv.Itoa(p.Line))
		b.WriteByte(':')
		if p.Col > 0 {
			b.WriteString(strconv.Itoa(p.Col))
			b.WriteByte(':')
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(text)
	if p.Rule != "" && !strings.Contains(text, string(p.Rule)+")") {
		b.WriteString(" (")
		b.WriteString(string(p.Rule))
		b.WriteByte(')')
	}
	return b.String()
}

// where is File, else URL.
func (p *Problem) where() string {
	if p.File != "" {
		return p.File
	}
	return p.URL
}

// String formats p as a diagnostic, the way a compiler would:
//
//	sitemap-3.xml:120:7: error X-06: <lastmod> before <loc>; …
//
// With neither File nor URL it starts at the line ("120:7: error …"), or
// at the severity when there is no line either. It is one line whatever
// the problem holds: control characters in the text or the place (a
// value quoted from a hostile document, a file name with a newline) are
// written as Go escapes (\n, \x1b, \u2028).
func (p Problem) String() string {
	text := p.Text()
	b := make([]byte, 0, 64+len(text))
	where := ctrl.Escape(p.where())
	if where != "" || p.Line > 0 {
		b = append(b, where...)
		if p.Line > 0 {
			if where != "" {
				b = append(b, ':')
			}
			b = strconv.AppendInt(b, int64(p.Line), 10)
			if p.Col > 0 {
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(p.Col), 10)
			}
		}
		b = append(b, ": "...)
	}
	b = append(b, p.Severity.String()...)
	if p.Rule != "" {
		b = append(b, ' ')
		b = append(b, p.Rule...)
	}
	b = append(b, ": "...)
	b = append(b, ctrl.Escape(text)...)
	return string(b)
}

// diagnostic is the JSON form of a Problem.
type diagnostic struct {
	Rule     ID       `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file,omitempty"`
	URL      string   `json:"url,omitempty"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
}

// MarshalJSON writes the fields rule, severity, message (the whole
// [Problem.Text]), file, url, line and col, the empty ones left out. It
// does not escape <, > and & itself: an encoder that does (json.Marshal,
// an Encoder by default) escapes them, one told not to
// (SetEscapeHTML(false)) writes them plain.
func (p Problem) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(diagnostic{p.Rule, p.Severity, p.Text(), p.File, p.URL, p.Line, p.Col}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
