package sitemap

import (
	"fmt"
	"strconv"

	"github.com/sitemapkit/sitemap/internal/check"
)

// Severity ranks a [Diagnostic].
type Severity uint8

// The three severities (docs/CONVENTIONS.md, "Diagnostics"). Each rule of
// the rule book (package rules, docs/RULES.md) names the one it is usually
// reported with.
const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityInfo
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = SeverityError
	case "warning":
		*s = SeverityWarning
	case "info":
		*s = SeverityInfo
	default:
		return fmt.Errorf("unknown severity %q (want error, warning or info)", b)
	}
	return nil
}

// Diagnostic is one problem found in a document by the reader, the
// validator, the fetcher or the crawler (docs/CONVENTIONS.md, "Diagnostics").
// Rule is a rule ID of the rule book: a protocol rule (X-06, L-07) or a
// project rule where the protocol has no number (XML-01, FETCH-HTTP);
// package rules looks it up, `sitemap explain ID` prints it, docs/RULES.md
// lists them all. File or URL says where; Line and Col (1-based, 0 when
// unknown) say where inside text input.
type Diagnostic struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file,omitempty"`
	URL      string   `json:"url,omitempty"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
}

// String formats d the way a compiler would:
//
//	sitemap-3.xml:120:7: error X-06: <lastmod> before <loc>; …
//
// With neither File nor URL it starts at the line ("120:7: error …"), or
// at the severity when there is no line either. It is one line whatever
// the diagnostic holds: control characters in the message or the place (a
// value quoted from a hostile document, a file name with a newline) are
// written as Go escapes (\n, \x1b, \u2028).
func (d Diagnostic) String() string {
	b := make([]byte, 0, 64+len(d.Message))
	where := d.File
	if where == "" {
		where = d.URL
	}
	where = check.EscapeControls(where)
	if where != "" || d.Line > 0 {
		// Without a name (DecoderOptions.Name empty) the line and column
		// still say where: "120:7: error …".
		b = append(b, where...)
		if d.Line > 0 {
			if where != "" {
				b = append(b, ':')
			}
			b = strconv.AppendInt(b, int64(d.Line), 10)
			if d.Col > 0 {
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(d.Col), 10)
			}
		}
		b = append(b, ": "...)
	}
	b = append(b, d.Severity.String()...)
	if d.Rule != "" {
		b = append(b, ' ')
		b = append(b, d.Rule...)
	}
	b = append(b, ": "...)
	b = append(b, check.EscapeControls(d.Message)...)
	return string(b)
}
