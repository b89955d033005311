package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchSitemap writes a 50,000-URL urlset in the compact layout (one
// <url> per line, loc and a day lastmod: about 4.5 MB) to a file in dir.
func benchSitemap(b *testing.B) (path string, size int64) {
	b.Helper()
	var buf bytes.Buffer
	buf.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for i := range 50000 {
		fmt.Fprintf(&buf, "<url><loc>https://www.example.com/page-%d.html</loc><lastmod>2024-%02d-%02d</lastmod></url>\n", i, i%12+1, i%28+1)
	}
	buf.WriteString("</urlset>\n")
	path = filepath.Join(b.TempDir(), "sitemap.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(buf.Len())
}

// benchCommand runs the CLI in-process (execute: flag parsing, opening the
// file, decoding, writing to a discarded stdout) on the 50,000-URL file
// and reports MB/s of input. This is the whole command minus the process
// start-up, which `sitemap version` measures (docs/PERFORMANCE.md).
func benchCommand(b *testing.B, args ...string) {
	path, size := benchSitemap(b)
	args = append(args, path)
	s := &streams{In: bytes.NewReader(nil), Out: io.Discard, Err: io.Discard}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if code := execute(context.Background(), s, args); code != exitOK {
			b.Fatalf("sitemap %v: exit status %d", args, code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/50000, "ns/URL")
}

// BenchmarkCommandParseTxt: `sitemap parse --format txt` of a 50,000-URL
// sitemap, in-process.
//
//	go test -run '^$' -bench Command -cpu 1 ./cmd/sitemap/
func BenchmarkCommandParseTxt(b *testing.B) { benchCommand(b, "parse", "--format", "txt") }

// BenchmarkCommandParseJSONL: `sitemap parse` (JSONL records).
func BenchmarkCommandParseJSONL(b *testing.B) { benchCommand(b, "parse", "--format", "jsonl") }

// BenchmarkCommandValidate: `sitemap validate` (every check; the file is
// clean, so little is written).
func BenchmarkCommandValidate(b *testing.B) { benchCommand(b, "validate") }
