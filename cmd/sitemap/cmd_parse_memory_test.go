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

// TestParseMemoryFlat: `sitemap parse` writes each entry and drops it, so
// what it allocates does not grow with the number of URLs (the decoder
// reuses the memory of an entry's strings): fresh memory costs a fresh
// process a page fault per 4 KiB. Counted in allocations, not time.
func TestParseMemoryFlat(t *testing.T) {
	dir := t.TempDir()
	allocs := func(urls int) float64 {
		var buf bytes.Buffer
		buf.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
		for i := range urls {
			fmt.Fprintf(&buf, "<url><loc>https://www.example.com/page-%d.html</loc><lastmod>2024-%02d-%02d</lastmod></url>\n", i, i%12+1, i%28+1)
		}
		buf.WriteString("</urlset>\n")
		path := filepath.Join(dir, fmt.Sprintf("sitemap-%d.xml", urls))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"txt", "jsonl"} {
			s := &streams{In: bytes.NewReader(nil), Out: io.Discard, Err: io.Discard}
			if code := execute(context.Background(), s, []string{"parse", "--format", format, path}); code != exitOK {
				t.Fatalf("parse --format %s: exit status %d", format, code)
			}
		}
		return testing.AllocsPerRun(3, func() {
			s := &streams{In: bytes.NewReader(nil), Out: io.Discard, Err: io.Discard}
			execute(context.Background(), s, []string{"parse", "--format", "txt", path})
		})
	}
	small, large := allocs(1000), allocs(20000)
	// 19,000 more URLs; one allocation per entry, or per chunk of a few
	// dozen locs, would be hundreds more.
	if large > small+20 {
		t.Errorf("parse allocates %.0f times for 1,000 URLs and %.0f for 20,000: it keeps memory per entry", small, large)
	}
}
