package sitemap

import (
	"strings"
	"testing"
)

// TestDecodeDateOneDiagnostic: a date that breaks W3C Datetime gets one
// error (M-01), never also the M-04 warning that calls it "valid W3C
// Datetime" (M-04, D-01). M-04 stays for forms W3C allows and the XSD rejects.
func TestDecodeDateOneDiagnostic(t *testing.T) {
	tests := []struct {
		lastmod string
		want    []string // "severity RULE", in order
	}{
		{"2005-01-01T10:00", []string{"error M-01"}},    // minute precision, no TZD: W3C error only
		{"2005-01-01T10:00:00", []string{"error M-01"}}, // no TZD
		{"2005-01-01T10:00Z", []string{"warning M-04"}}, // W3C ok, XSD rejects
		{"2005-01", []string{"warning M-04"}},
		{"2005", []string{"warning M-04"}},
		{"2005-01-01", nil},
	}
	for _, tt := range tests {
		t.Run(tt.lastmod, func(t *testing.T) {
			r := decodeAll(t, []byte(urlsetDoc(`<url><loc>https://e.com/</loc><lastmod>`+tt.lastmod+`</lastmod></url>`)), DecoderOptions{})
			if got, want := strings.Join(r.rules(), ","), strings.Join(tt.want, ","); got != want {
				t.Errorf("diagnostics [%s], want [%s]\n%s", got, want, r.dump())
			}
			for _, d := range r.diags {
				if d.Rule == "M-01" && strings.Contains(d.Message, "is valid") {
					t.Errorf("contradictory message: %s", d.Message)
				}
			}
			if len(r.items) != 1 {
				t.Fatalf("items %d", len(r.items))
			}
		})
	}
	// The sample the reviewer quoted: line 8 has one diagnostic.
	r := decodeFile(t, "testdata/samples/badorder.xml")
	n := 0
	for _, d := range r.diags {
		if d.Line == 8 {
			n++
			if d.Rule != "M-01" {
				t.Errorf("line 8: %s", d)
			}
		}
	}
	if n != 1 {
		t.Errorf("line 8 has %d diagnostics, want 1 (M-01)\n%s", n, r.dump())
	}
}
