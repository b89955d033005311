package validate

import (
	"bytes"
	"compress/gzip"
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
)

// fixtureDir returns the module's fixture directory testdata/<repo>; a
// missing one fails the test (the fixtures are part of the repository).
func fixtureDir(t testing.TB, repo string) string {
	t.Helper()
	d := filepath.Join("..", "testdata", repo)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Fatalf("no fixtures in %s: %v", d, err)
	}
	return d
}

func samplesDir(t testing.TB) string { return fixtureDir(t, "samples") }

func corpusDir(t testing.TB) string {
	return fixtureDir(t, "corpus/crawler-commons")
}

// validateFile runs Document over a file and returns the summary and the
// diagnostics.
func validateFile(t *testing.T, path string, o Options) (Summary, []sitemap.Diagnostic) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if o.Name == "" {
		o.Name = filepath.Base(path)
	}
	if o.Now.IsZero() {
		o.Now = testNow
	}
	var ds []sitemap.Diagnostic
	sum, err := Document(context.Background(), f, o, func(d sitemap.Diagnostic) { ds = append(ds, d) })
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sum, ds
}

// TestSamples checks testdata/samples against the rule IDs they
// show.
func TestSamples(t *testing.T) {
	dir := samplesDir(t)
	tests := []struct {
		file  string
		rules []string // rule/severity that must appear
		valid bool     // no error
	}{
		{"basic.xml", nil, true},
		{"basic.xml.gz", nil, true},
		{"index.xml", nil, true},
		{"ext.xml", []string{"N-06/warning"}, true},
		{"empty.xml", []string{"X-07/error"}, false},
		{"bad.xml", []string{"X-06/error", "M-01/error", "C-01/error", "P-01/error", "L-01/error"}, false},
		{"badorder.xml", []string{"X-06/error", "M-01/error", "M-04/warning"}, false},
		{"ns084.xml", []string{"LG-02/warning"}, true},
		{"newsold.xml", []string{"N-03/error", "N-06/warning"}, false},
		{"novideoloc.xml", []string{"V-01/error"}, false},
		{"unknownns.xml", []string{"EX-03/info"}, true},
		{"vorder.xml", []string{"V-03/error"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			sum, ds := validateFile(t, filepath.Join(dir, tt.file), Options{})
			got := ruleList(ds)
			for _, r := range tt.rules {
				if !slices.Contains(got, r) {
					t.Errorf("missing %s; got %v", r, got)
				}
			}
			if sum.Valid(false) != tt.valid {
				t.Errorf("valid = %v, want %v; diagnostics %v", sum.Valid(false), tt.valid, got)
			}
			if !sum.Complete {
				t.Errorf("not read to the end")
			}
			for _, d := range ds {
				if d.File != tt.file || d.URL != "" {
					t.Errorf("diagnostic without the file name: %+v", d)
				}
			}
		})
	}
}

func TestSampleCounts(t *testing.T) {
	dir := samplesDir(t)
	sum, _ := validateFile(t, filepath.Join(dir, "index.xml"), Options{URL: "https://www.example.com/sitemap.xml"})
	if sum.Format != sitemap.FormatIndex || sum.IndexEntries != 2 || sum.URLs != 0 ||
		!slices.Equal(sum.Children, []string{"https://www.example.com/sitemap1.xml.gz", "https://www.example.com/sitemap2.xml.gz"}) {
		t.Errorf("index.xml: %+v", sum)
	}
	sum, _ = validateFile(t, filepath.Join(dir, "basic.xml.gz"), Options{})
	raw, _ := os.ReadFile(filepath.Join(dir, "basic.xml"))
	if sum.Format != sitemap.FormatURLSet || sum.URLs != 3 || !sum.Compressed || sum.Bytes != int64(len(raw)) {
		t.Errorf("basic.xml.gz: %+v (want %d uncompressed bytes)", sum, len(raw))
	}
}

func TestScopeFromOptions(t *testing.T) {
	dir := samplesDir(t)
	// basic.xml lists www.example.com: served elsewhere, every URL is out
	// of scope (L-09); cross-submitted, the same are warnings.
	_, ds := validateFile(t, filepath.Join(dir, "basic.xml"), Options{URL: "https://example.org/sitemap.xml"})
	if got := ruleList(ds); !same(got, []string{"L-09/error", "L-09/error", "L-09/error"}) {
		t.Errorf("L-09: %v", got)
	}
	_, ds = validateFile(t, filepath.Join(dir, "basic.xml"), Options{URL: "https://example.org/sitemap.xml", CrossSubmit: true})
	if got := ruleList(ds); !same(got, []string{"L-09/warning", "L-09/warning", "L-09/warning"}) {
		t.Errorf("L-09 cross-submit: %v", got)
	}
}

func TestDocumentStrings(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
		complete  bool
	}{
		{"text sitemap", "https://www.example.com/a\nhttps://www.example.com/a b\n", []string{"L-07/error"}, true},
		{"duplicate", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url><url><loc>https://www.example.com/a</loc></url></urlset>`,
			[]string{"L-17/warning"}, true},
		{"not a sitemap", "<html><body>hi</body></html>", nil, false},
		{"truncated", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url><url><loc>/b</loc>`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ds []sitemap.Diagnostic
			sum, err := Document(context.Background(), strings.NewReader(tt.doc), Options{Name: "doc", Now: testNow}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
			if err != nil {
				t.Fatal(err)
			}
			got := ruleList(ds)
			for _, r := range tt.want {
				if !slices.Contains(got, r) {
					t.Errorf("missing %s in %v", r, got)
				}
			}
			if sum.Complete != tt.complete {
				t.Errorf("complete = %v, want %v (%v)", sum.Complete, tt.complete, got)
			}
			if !tt.complete && sum.Errors == 0 {
				t.Errorf("an unreadable document has no error: %v", got)
			}
		})
	}
}

func TestDocumentSizeS02(t *testing.T) {
	// A urlset just over 52,428,800 bytes, padded with white space between
	// entries; compressed, so the test stays small. S-02 counts the
	// uncompressed bytes.
	var raw bytes.Buffer
	raw.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url>`)
	pad := bytes.Repeat([]byte(" "), 1<<20)
	for raw.Len() < sitemap.MaxBytes {
		raw.Write(pad)
	}
	raw.WriteString(`</urlset>`)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw.Bytes())
	zw.Close()
	var ds []sitemap.Diagnostic
	sum, err := Document(context.Background(), &gz, Options{Name: "big.xml.gz"}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ruleList(ds), "S-02/error") || sum.Bytes != int64(raw.Len()) {
		t.Errorf("S-02: %v, bytes %d of %d", ruleList(ds), sum.Bytes, raw.Len())
	}
}

func TestDocumentReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url>`), iotest.ErrReader(boom))
	_, err := Document(context.Background(), r, Options{Name: "x"}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the reader's error", err)
	}
}

func TestDocumentCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Document(ctx, strings.NewReader("https://www.example.com/\n"), Options{}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestDocumentBadScope(t *testing.T) {
	if _, err := Document(context.Background(), strings.NewReader(""), Options{URL: "not a url"}, nil); err == nil {
		t.Fatal("bad scope URL accepted")
	}
}

// TestDocumentSizeS02Capped: a document the decoder stops reading at its
// byte cap (LIM-01) is over the limit by at least that much: S-02 says
// "more than", not that the sitemap "is" the cap's size.
func TestDocumentSizeS02Capped(t *testing.T) {
	var raw bytes.Buffer
	raw.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url>`)
	raw.Write(bytes.Repeat([]byte("\n"), sitemap.MaxBytes+(1<<20)))
	raw.WriteString(`</urlset>`)
	var ds []sitemap.Diagnostic
	o := Options{Name: "big.xml", Decoder: sitemap.DecoderOptions{MaxBytes: sitemap.MaxBytes + 1000}}
	sum, err := Document(context.Background(), &raw, o, func(d sitemap.Diagnostic) { ds = append(ds, d) })
	if err != nil {
		t.Fatal(err)
	}
	var s02 string
	for _, d := range ds {
		if d.Rule == "S-02" {
			s02 = d.Message
		}
	}
	if sum.Complete || !strings.HasPrefix(s02, "the sitemap holds more than 52429800 bytes uncompressed (read no further)") {
		t.Errorf("complete %v, S-02 %q; want more than 52429800 bytes", sum.Complete, s02)
	}
}
