package validate

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// handmadeDir holds the review's hostile and awkward files
// (testdata/validate), each with its expected outcome below.
func handmadeDir(t testing.TB) string { return fixtureDir(t, "validate") }

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
		{"video.xml", []string{"V-01/error", "V-01/error", "V-01/error", "V-01/error", "V-01/error", "V-06/error"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			sum, ds := validateFile(t, filepath.Join(dir, tt.file), Options{})
			got := ruleList(ds)
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
				if d.Line == 0 && !slices.Contains([]rules.ID{"M-06", "P-04", "S-02", "S-03", "S-04"}, d.Rule) {
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
		if strings.Contains(d.Message, "disk on fire") || d.Rule == sitemap.RuleRead {
			t.Errorf("the reader's failure was reported as a finding: %v", d)
		}
	}
	if got := ruleList(ds); !slices.Contains(got, "L-01/error") {
		t.Errorf("the finding before the failure is lost: %v", got)
	}
	// A directory opened as a file: the error, and no finding at all.
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	ds = nil
	_, err = Document(context.Background(), dir, Options{Name: "dir"}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
	if err == nil || !strings.Contains(err.Error(), "cannot read: ") || !strings.Contains(err.Error(), "is a directory") || len(ds) != 0 {
		t.Errorf("directory: err %v, diagnostics %v", err, ds)
	}
}

// TestWhichVideo: with several videos (or images) in one <url>, whose
// position is the <url> tag, each message names which one it is about.
func TestWhichVideo(t *testing.T) {
	_, ds := validateFile(t, filepath.Join(handmadeDir(t), "video.xml"), Options{})
	var msgs []string
	for _, d := range ds {
		if strings.HasPrefix(string(d.Rule), "V-") && d.Line == 3 {
			msgs = append(msgs, d.Message)
		}
	}
	want := []string{
		"<video:video> #1 has neither <video:content_loc> nor <video:player_loc>",
		"<video:video> #2 has no <video:thumbnail_loc>",
		`<video:video> #2: <video:content_loc> "https://www.example.com/v1" is the page's own loc`,
	}
	for _, w := range want {
		found := false
		for _, m := range msgs {
			found = found || strings.HasPrefix(m, w)
		}
		if !found {
			t.Errorf("no message starting %q in\n%s", w, strings.Join(msgs, "\n"))
		}
	}
	ds = run(t, Options{}, sitemap.URL{Loc: "https://www.example.com/a", Images: []sitemap.Image{{Loc: "https://www.example.com/1.jpg"}, {Loc: "/2.jpg"}}})
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, "<image:image> #2: <image:loc> \"/2.jpg\"") {
		t.Errorf("image: %v", ds)
	}
	ds = run(t, Options{}, sitemap.URL{Loc: "https://www.example.com/a", Images: []sitemap.Image{{Loc: "/1.jpg"}}})
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, "<image:loc> \"/1.jpg\"") {
		t.Errorf("one image: %v", ds)
	}
}

// TestAcrossIndex is L-17 "across an index": the child sitemaps of one
// index share an IndexLocs; a page listed by two of them is a warning
// naming the other sitemap.
func TestAcrossIndex(t *testing.T) {
	x := NewIndexLocs()
	check := func(name string, locs ...string) []sitemap.Diagnostic {
		var got []sitemap.Diagnostic
		c, err := NewChecker(Options{Name: name, Now: testNow, AcrossIndex: x}, func(d sitemap.Diagnostic) { got = append(got, d) })
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range locs {
			c.URL(&sitemap.URL{Loc: l}, i+3, 3)
		}
		c.Finish()
		return got
	}
	if ds := check("sitemap-1.xml", "https://www.example.com/a", "https://www.example.com/b"); len(ds) != 0 {
		t.Fatalf("first child: %v", ds)
	}
	ds := check("sitemap-2.xml", "https://www.example.com/c", "https://www.example.com/b", "https://www.example.com/c")
	if got := ruleList(ds); !same(got, []string{"L-17/warning", "L-17/warning"}) {
		t.Fatalf("second child: %v", ds)
	}
	if ds[0].Line != 4 || !strings.Contains(ds[0].Message, "also listed in sitemap-1.xml") {
		t.Errorf("across: %v", ds[0])
	}
	if ds[1].Line != 5 || strings.Contains(ds[1].Message, "also listed") {
		t.Errorf("within: %v", ds[1])
	}
	// Without AcrossIndex, documents are independent.
	if got := run(t, Options{}, loc("https://www.example.com/a")); len(got) != 0 {
		t.Errorf("independent: %v", got)
	}
}

// TestIndexScopeWording: an index's I-06 message speaks of the index's
// directory, not a sitemap's.
func TestIndexScopeWording(t *testing.T) {
	var got []sitemap.Diagnostic
	c, err := NewChecker(Options{Name: "index.xml", URL: "https://www.example.com/maps/index.xml", Now: testNow}, func(d sitemap.Diagnostic) { got = append(got, d) })
	if err != nil {
		t.Fatal(err)
	}
	c.Index(&sitemap.IndexEntry{Loc: "https://www.example.com/other/a.xml"}, 3, 1)
	if len(got) != 1 || got[0].Rule != "I-06" || !strings.Contains(got[0].Message, "not under the index's directory /maps/") {
		t.Errorf("%v", got)
	}
}
