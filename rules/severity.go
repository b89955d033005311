package rules

import (
	"fmt"
	"strconv"
)

// Severity ranks a finding: [Error], [Warning] or [Info]. The book gives
// each rule the severity it is reported with by default ([ID.Severity]);
// a report at another severity says so on purpose. Its text form is the
// word diagnostics print ("error", "warning", "info"), in JSON too.
type Severity uint8

// The three severities. The zero value is Error.
const (
	Error Severity = iota
	Warning
	Info
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts the three
// words String returns and nothing else.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	case "info":
		*s = Info
	default:
		return fmt.Errorf("unknown severity %q (want error, warning or info)", b)
	}
	return nil
}

// Severity returns the severity the book gives the rule id, what a
// finding under it is reported with unless the report says otherwise;
// Error for an ID the book lacks. It does not allocate.
func (id ID) Severity() Severity {
	if r, ok := byID()[id]; ok {
		return r.Severity
	}
	return Error
}
