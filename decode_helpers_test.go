package sitemap

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
)

// decodeResult is everything one decode produced.
type decodeResult struct {
	items  []Item
	diags  []Diagnostic
	err    error // the error that ended Next (nil at a clean io.EOF)
	format Format
}

func (r decodeResult) rules() []string {
	var out []string
	for _, d := range r.diags {
		out = append(out, d.Severity.String()+" "+string(d.Rule))
	}
	return out
}

// has reports whether a diagnostic with rule (and severity, if sev >= 0) exists.
func (r decodeResult) has(rule rules.ID) bool {
	for _, d := range r.diags {
		if d.Rule == rule {
			return true
		}
	}
	return false
}

func (r decodeResult) count(rule rules.ID) int {
	n := 0
	for _, d := range r.diags {
		if d.Rule == rule {
			n++
		}
	}
	return n
}

func (r decodeResult) dump() string {
	var b strings.Builder
	for _, d := range r.diags {
		fmt.Fprintln(&b, d.String())
	}
	return b.String()
}

func decodeAll(t testing.TB, data []byte, o DecoderOptions) decodeResult {
	t.Helper()
	var r decodeResult
	prev := o.OnDiagnostic
	o.OnDiagnostic = func(d Diagnostic) {
		r.diags = append(r.diags, d)
		if prev != nil {
			prev(d)
		}
	}
	dec := NewDecoder(bytes.NewReader(data), o)
	for {
		it, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
			break
		}
		r.items = append(r.items, it)
		if len(r.items) > 10_000_000 {
			t.Fatal("runaway decoder")
		}
	}
	r.format = dec.Format()
	return r
}

func decodeFile(t testing.TB, path string) decodeResult {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeAll(t, data, DecoderOptions{Name: path})
}

// gzipBytes compresses b (one gzip member).
func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
