package sitemap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDecodeStringsStayValid: the locs and extension values of every
// entry (cut from shared chunks, textArena) keep their text after many more
// entries are read, short and long ones alike.
func TestDecodeStringsStayValid(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	want := make([]string, 3000)
	for i := range want {
		want[i] = fmt.Sprintf("https://www.example.com/%d/%s", i, strings.Repeat("p", i%1500))
		fmt.Fprintf(&b, "<url><loc>%s</loc><image:image><image:loc>%s.jpg</image:loc></image:image></url>\n", want[i], want[i])
	}
	b.WriteString("</urlset>\n")
	r := decodeAll(t, []byte(b.String()), DecoderOptions{})
	if r.err != nil || len(r.items) != len(want) {
		t.Fatalf("read %d entries, err %v", len(r.items), r.err)
	}
	for i, it := range r.items {
		if it.URL.Loc != want[i] || len(it.URL.Images) != 1 || it.URL.Images[0].Loc != want[i]+".jpg" {
			t.Fatalf("entry %d: loc %.60q image %v, want %.60q", i, it.URL.Loc, it.URL.Images, want[i])
		}
	}
}

// TestDecodeReuseValues: with ReuseValues, each entry read (and used before
// the next call to Next) is the entry the default mode returns, for every
// sample and corpus file; and a plain urlset then reads without an
// allocation per entry.
func TestDecodeReuseValues(t *testing.T) {
	var files []string
	for _, pat := range []string{"testdata/samples/*", "testdata/corpus/*", "testdata/golden/*.xml"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files to read", len(files))
	}
	read := func(data []byte, reuse bool) []string {
		d := NewDecoder(bytes.NewReader(data), DecoderOptions{ReuseValues: reuse})
		var out []string
		for {
			it, err := d.Next()
			if err != nil {
				return append(out, err.Error())
			}
			// Marshalled at once: the strings are valid until the next Next.
			j, merr := json.Marshal(it)
			if merr != nil {
				t.Fatal(merr)
			}
			out = append(out, string(j))
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		want, got := read(data, false), read(data, true)
		if !slices.Equal(want, got) {
			t.Errorf("%s: ReuseValues read %d entries, want %d; first: %.200q vs %.200q", f, len(got), len(want), got[0], want[0])
		}
	}

	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "<url><loc>https://www.example.com/page-%d.html</loc><lastmod>2024-01-02</lastmod></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	data := []byte(b.String())
	allocs := func(reuse bool) float64 {
		return testing.AllocsPerRun(5, func() {
			d := NewDecoder(bytes.NewReader(data), DecoderOptions{ReuseValues: reuse})
			for {
				if _, err := d.Next(); err != nil {
					return
				}
			}
		})
	}
	// The default mode cuts its strings from a fresh 4 KiB chunk every
	// ~80 entries; reusing, one chunk serves the whole document.
	def, reuse := allocs(false), allocs(true)
	if def < reuse+15 {
		t.Errorf("2,000 entries: %.0f allocations reusing values, %.0f by default; want at least 15 fewer", reuse, def)
	}
}
