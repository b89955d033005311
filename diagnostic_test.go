package sitemap

import (
	"strings"
	"testing"
)

// A diagnostic of a document read without a name (DecoderOptions.Name
// empty) keeps its line and column when printed: they were dropped with
// the missing name, and the message said nothing of where.
func TestDiagnosticStringWithoutName(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Rule: "X-06", Severity: SeverityError, Message: "m", Line: 120, Col: 7}, "120:7: error X-06: m"},
		{Diagnostic{Rule: "T-02", Severity: SeverityWarning, Message: "m", Line: 3}, "3: warning T-02: m"},
		{Diagnostic{Rule: "F-04", Severity: SeverityError, Message: "m"}, "error F-04: m"},
		{Diagnostic{Rule: "FETCH-HTTP", Severity: SeverityError, Message: "m", URL: "https://a.example/s.xml"}, "https://a.example/s.xml: error FETCH-HTTP: m"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
	var got []string
	d := NewDecoder(strings.NewReader("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><lastmod>2025-01-01</lastmod><loc>https://a.example/</loc></url>\n</urlset>\n"),
		DecoderOptions{OnDiagnostic: func(d Diagnostic) { got = append(got, d.String()) }})
	for {
		if _, err := d.Next(); err != nil {
			break
		}
	}
	if len(got) == 0 || !strings.HasPrefix(got[0], "2:") {
		t.Errorf("decoder diagnostics without a name: %q", got)
	}
}
