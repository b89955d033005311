package sitemap

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// TestDecodeReadFailure: a reader that fails is READ-01 "cannot read:
// <cause>", not a syntax error (XML-01), and the error wraps the cause.
func TestDecodeReadFailure(t *testing.T) {
	boom := errors.New("disk on fire")
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	tests := []struct {
		name  string
		r     io.Reader
		items int
		cause error
	}{
		{"mid-stream", io.MultiReader(strings.NewReader(urlsetHead+`<url><loc>https://e.com/a</loc></url>`), iotest.ErrReader(boom)), 1, boom},
		{"at once", iotest.ErrReader(boom), 0, boom},
		{"text mid-stream", io.MultiReader(strings.NewReader("https://e.com/a\nhttps://e.com/b\n"), iotest.ErrReader(boom)), 2, boom},
		{"gzip mid-stream", io.MultiReader(strings.NewReader(string(gzipBytes(t, []byte(urlsetHead+`<url><loc>https://e.com/a</loc></url>`+strings.Repeat(" ", 1<<16)+urlsetTail))[:60])), iotest.ErrReader(boom)), 0, boom},
		{"a directory", dir, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var diags []Diagnostic
			dec := NewDecoder(tt.r, DecoderOptions{Name: "in", OnDiagnostic: func(d Diagnostic) { diags = append(diags, d) }})
			items := 0
			var err error
			for {
				if _, err = dec.Next(); err != nil {
					break
				}
				items++
			}
			if items != tt.items {
				t.Errorf("items %d, want %d", items, tt.items)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err %v is not a *DecodeError", err)
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("err %v does not wrap the cause", err)
			}
			for _, s := range []error{ErrNotSitemap, ErrLimit, ErrTruncated, ErrGzip} {
				if errors.Is(err, s) {
					t.Errorf("err %v is %v", err, s)
				}
			}
			if de.Diagnostic.Rule != RuleRead || !strings.HasPrefix(de.Diagnostic.Message, "cannot read: ") {
				t.Errorf("diagnostic %s, want %s cannot read: …", de.Diagnostic, RuleRead)
			}
			if tt.cause == nil && !strings.Contains(de.Diagnostic.Message, "is a directory") {
				t.Errorf("message %q does not give the cause", de.Diagnostic.Message)
			}
			if len(diags) == 0 || diags[len(diags)-1] != de.Diagnostic {
				t.Errorf("the failure was not reported last: %v", diags)
			}
			for _, d := range diags {
				if d.Rule == RuleXMLSyntax {
					t.Errorf("a read failure reported as a syntax error: %s", d)
				}
			}
		})
	}
}

// TestDecodeTruncatedRootLine: a document that ends inside its root
// element names the line the root opened on, however far the input went
// and however the reads fell. The scanner had discarded that offset by the
// end, and Pos answered with the last line ("opened at line 4" for a root
// on line 2); the line is now taken when the root opens.
func TestDecodeTruncatedRootLine(t *testing.T) {
	in := urlsetHead + "<url><loc>https://e.com/a</loc></url>\n<url><loc>https://e.com/b</loc></url>\n"
	for _, tc := range []struct {
		name string
		r    io.Reader
	}{
		{"whole", strings.NewReader(in)},
		{"one byte at a time", iotest.OneByteReader(strings.NewReader(in))},
		{"EOF with the data", iotest.DataErrReader(strings.NewReader(in))},
	} {
		var msgs []string
		dec := NewDecoder(tc.r, DecoderOptions{MaxLineBytes: 128, OnDiagnostic: func(d Diagnostic) { msgs = append(msgs, d.Message) }})
		var err error
		for err == nil {
			_, err = dec.Next()
		}
		if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "ends inside <urlset> (opened at line 2)") {
			t.Errorf("%s: %v (diagnostics %q); want the root's line 2", tc.name, err, msgs)
		}
	}
}

// TestDecodeTruncatedInsideElement: a document that ends inside an
// element below the root names that element and the root's line as the
// root's ("ends inside <loc> (opened at line 2)" put the root's line on
// the <loc>, opened on line 4), and counts "1 entry", not "1 entries".
func TestDecodeTruncatedInsideElement(t *testing.T) {
	in := urlsetHead + "<url><loc>https://e.com/a</loc></url>\n<url>\n<loc>https://e.com/b"
	var err error
	dec := NewDecoder(strings.NewReader(in), DecoderOptions{})
	for err == nil {
		_, err = dec.Next()
	}
	const want = "the document ends inside <loc>, in the <urlset> opened at line 2, after 1 entry; it is truncated"
	var de *DecodeError
	if !errors.Is(err, ErrTruncated) || !errors.As(err, &de) || de.Diagnostic.Message != want {
		t.Errorf("%v; want %q", err, want)
	}
}
