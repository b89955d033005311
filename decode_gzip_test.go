package sitemap

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestDecodeNestedGzip: a gzip inside a gzip is read (GZ-02 warning),
// bounded by the same cap as the output (LIM-01), also in its middle
// layer; three layers are not read (F-04).
func TestDecodeNestedGzip(t *testing.T) {
	doc := []byte(urlsetDoc(`<url><loc>https://e.com/a</loc></url><url><loc>https://e.com/b</loc></url>`))
	once := gzipBytes(t, doc)
	twice := gzipBytes(t, once)
	thrice := gzipBytes(t, twice)
	// Empty gzip members inflate to nothing: 100,000 of them (~2 MB) in
	// the middle layer, squeezed by the outer gzip.
	empty := gzipBytes(t, nil)
	middle := append(bytes.Repeat(empty, 100_000), once...)

	t.Run("gzip once: no GZ-02", func(t *testing.T) {
		r := decodeAll(t, once, DecoderOptions{})
		if r.err != nil || len(r.items) != 2 || r.has(RuleGzipNested) {
			t.Fatalf("err %v items %d\n%s", r.err, len(r.items), r.dump())
		}
	})
	t.Run("gzip twice is read with GZ-02", func(t *testing.T) {
		var diags []Diagnostic
		dec := NewDecoder(bytes.NewReader(twice), DecoderOptions{OnDiagnostic: func(d Diagnostic) { diags = append(diags, d) }})
		n := 0
		for {
			it, err := dec.Next()
			if err != nil {
				if err != io.EOF {
					t.Fatalf("err %v", err)
				}
				break
			}
			if it.URL.Loc == "" {
				t.Errorf("item %+v", it)
			}
			n++
		}
		if n != 2 || !dec.Compressed() || dec.Bytes() != int64(len(doc)) {
			t.Errorf("items %d compressed %v bytes %d (want %d)", n, dec.Compressed(), dec.Bytes(), len(doc))
		}
		if len(diags) != 1 || diags[0].Rule != RuleGzipNested || diags[0].Severity != SeverityWarning || !strings.Contains(diags[0].Message, "twice") {
			t.Errorf("diagnostics %v", diags)
		}
	})
	t.Run("gzip three times is not read", func(t *testing.T) {
		r := decodeAll(t, thrice, DecoderOptions{})
		if !errors.Is(r.err, ErrNotSitemap) || len(r.items) != 0 || !r.has("F-04") {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
	})
	t.Run("middle layer capped", func(t *testing.T) {
		r := decodeAll(t, gzipBytes(t, middle), DecoderOptions{MaxBytes: 1 << 20})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxBytes) || len(r.items) != 0 {
			t.Fatalf("err %v items %d\n%s", r.err, len(r.items), r.dump())
		}
		// Under the cap the same input reads to the end.
		r = decodeAll(t, gzipBytes(t, middle), DecoderOptions{MaxBytes: 4 << 20})
		if r.err != nil || len(r.items) != 2 {
			t.Fatalf("under the cap: err %v items %d\n%s", r.err, len(r.items), r.dump())
		}
	})
	t.Run("corrupt inner gzip", func(t *testing.T) {
		bad := append([]byte{}, once...)
		bad[3] = 0xE0 // reserved flag bits: a header error
		r := decodeAll(t, gzipBytes(t, bad), DecoderOptions{})
		if !errors.Is(r.err, ErrGzip) || !r.has(RuleGzip) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
		// Cut inside the inner deflate data: entries before the cut, GZ-01.
		r = decodeAll(t, gzipBytes(t, once[:len(once)-12]), DecoderOptions{})
		if !errors.Is(r.err, ErrGzip) || !r.has(RuleGzip) {
			t.Fatalf("truncated inner: err %v\n%s", r.err, r.dump())
		}
	})
}
