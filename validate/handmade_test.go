package validate

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	sitemap "github.com/sitemapkit/sitemap"
)

// handmadeDir holds the review's hostile and awkward files
// (testdata/validate), each with its expected outcome below.
func handmadeDir(t testing.TB) string { return fixtureDir(t, "validate", "validate") }

// TestHandmade runs Document over the handmade files of testdata/validate:
// every listed rule/severity must appear, and the verdict must match.
func TestHandmade(t *testing.T) {
	dir := handmadeDir(t)
	tests := []struct {
		file  string
		rules []string
		valid bool
	}{
		// LG-03: the parser accepts a missing or near-miss namespace with
		// a warning; the validator reports it as an error.
		{"httpsns.xml", []string{"LG-03/error"}, false},
		{"slashns.xml", []string{"LG-03/error"}, false},
		{"nons.xml", []string{"LG-03/error"}, false},
		{"wrongns.xml", []string{"X-03/error"}, false},
		// EX-04: near-miss extension namespaces are errors in the validator.
		{"extnear.xml", []string{"EX-04/error"}, false},
		{"casefreq.xml", []string{"C-04/error"}, false},
		{"dupchild.xml", []string{"X-11/error", "X-11/error", "X-11/error"}, false},
		// untrimmed changefreq/priority are XSD errors, loc and
		// lastmod warnings.
		{"untrim.xml", []string{"X-12/warning", "X-12/warning", "X-12/error", "X-12/error"}, false},
		{"utf16.xml", []string{"X-01/error", "L-07/error"}, false},
		{"latin1.xml", []string{"X-01/error", "L-07/error"}, false},
		{"doctype.xml", []string{"XML-02/warning", "XML-03/error", "X-04/error"}, false},
		{"rel.txt", []string{"T-02/error", "T-02/error", "T-08/warning"}, false},
		{"rss.xml", []string{"R-02/warning", "R-05/error", "R-05/warning"}, false},
		{"atom.xml", []string{"R-03/warning", "R-03/warning"}, true},
		{"hl.xml", []string{"H-06/error", "H-08/error", "H-05/error", "H-04/error"}, false},
		{"newsage.xml", []string{"N-06/warning", "N-01/error", "N-01/error"}, false},
		{"video.xml", []string{"V-01/error", "V-01/error", "V-06/error", "V-06/error", "V-06/error"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			sum, ds := validateFile(t, filepath.Join(dir, tt.file), Options{})
			got := rules(ds)
			for _, r := range tt.rules {
				n, want := 0, 0
				for _, g := range got {
					if g == r {
						n++
					}
				}
				for _, w := range tt.rules {
					if w == r {
						want++
					}
				}
				if n < want {
					t.Errorf("%s appears %d times, want at least %d; got %v", r, n, want, got)
				}
			}
			if sum.Valid(false) != tt.valid {
				t.Errorf("valid = %v, want %v; got %v", sum.Valid(false), tt.valid, got)
			}
			for _, d := range ds {
				if d.Line == 0 && !slices.Contains([]string{"M-06", "P-04", "S-02", "S-03", "S-04"}, d.Rule) {
					t.Errorf("diagnostic without a line: %v", d)
				}
			}
		})
	}
}

// TestDocumentReadErrorNotAFinding: when the reader fails (a directory, a
// dropped connection), Document returns the error and reports no
// diagnostic for it; the findings before the failure are still reported.
func TestDocumentReadErrorNotAFinding(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/a</loc></url><url><loc>https://www.example.com/b</loc>`), iotest.ErrReader(boom))
	var ds []sitemap.Diagnostic
	_, err := Document(context.Background(), r, Options{Name: "x"}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the reader's error", err)
	}
	for _, d := range ds {
		if strings.Contains(d.Message, "disk on fire") {
			t.Errorf("the reader's failure was reported as a finding: %v", d)
		}
	}
	if got := rules(ds); !slices.Contains(got, "L-01/error") {
		t.Errorf("the finding before the failure is lost: %v", got)
	}
}
