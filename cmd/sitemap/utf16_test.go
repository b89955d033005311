package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16LE is s in UTF-16LE with its BOM, as Windows tools save "Unicode"
// text.
func utf16LE(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// A CSV, JSONL or URL list saved as UTF-16 is read as what it is, after
// conversion: a UTF-16 CSV was taken for a text sitemap and published
// "https://www.example.com/a,2024-01-01" as a URL. A UTF-16 sitemap is
// still read as a sitemap.
func TestGenerateUTF16Inputs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, in, want string }{
		{"u.csv", "loc,lastmod\r\nhttps://www.example.com/a,2024-01-01\r\n", "<url><loc>https://www.example.com/a</loc><lastmod>2024-01-01</lastmod></url>"},
		{"u.jsonl", `{"loc":"https://www.example.com/a","lastmod":"2024-01-01"}` + "\n", "<url><loc>https://www.example.com/a</loc><lastmod>2024-01-01</lastmod></url>"},
		{"u.txt", "https://www.example.com/a\r\n", "<url><loc>https://www.example.com/a</loc></url>"},
		{"u.xml", `<?xml version="1.0" encoding="UTF-16"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>2024-01-01</lastmod></url></urlset>`, "<url><loc>https://www.example.com/a</loc><lastmod>2024-01-01</lastmod></url>"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, utf16LE(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, stdin := range []bool{false, true} {
			args := []string{"generate", "--base-url", "https://www.example.com/", "--out", "-", p}
			in := ""
			if stdin {
				args[len(args)-1] = "-"
				in = string(utf16LE(c.in))
				if c.name != "u.xml" {
					args = append(args[:1], append([]string{"--input-format", strings.TrimPrefix(filepath.Ext(c.name), ".")}, args[1:]...)...)
					if c.name == "u.txt" {
						args[2] = "text"
					}
				}
			}
			code, out, errb := runCLI(t, in, args...)
			if code != exitOK || !strings.Contains(out, c.want) || !strings.Contains(errb, "UTF-16") {
				t.Errorf("%s (stdin %v): exit %d\n%s\n%s", c.name, stdin, code, out, errb)
			}
		}
	}
}

// submit reads a UTF-16 CSV as a CSV too: it sent "https://www.example.com/a,2024-01-01".
func TestSubmitUTF16CSV(t *testing.T) {
	p := filepath.Join(t.TempDir(), "changed.csv")
	os.WriteFile(p, utf16LE("loc,lastmod\r\nhttps://www.example.com/a,2024-01-01\r\n"), 0o644)
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", p)
	if code != exitOK || !strings.Contains(out, `"urlList":["https://www.example.com/a"]`) {
		t.Errorf("exit %d\n%s\n%s", code, out, errb)
	}
}
