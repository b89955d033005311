package sitemap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagnosticsDoNotRepeatTheirRule: a diagnostic prints as
// "file:1:2: error X-01: message"; its message does not end in its own
// rule ID again ("… (X-01)"), which the decoder's UTF-8 messages and a
// loc whose entity reference was dropped ("… was dropped (XML-03)") did. It
// may cite other rules. Every sample and corpus file and a few made to
// trigger the encoding rules are decoded.
func TestDiagnosticsDoNotRepeatTheirRule(t *testing.T) {
	inputs := map[string][]byte{
		"latin1 declared":  []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/caf` + "\xe9" + `</loc></url></urlset>`),
		"bad utf-8 value":  []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/caf` + "\xe9" + `</loc></url></urlset>`),
		"utf-16":           append([]byte{0xff, 0xfe}, []byte("<\x00u\x00>\x00")...),
		"bad utf-8 line":   []byte("https://www.example.com/caf\xe9\n"),
		"undefined entity": []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://x&lol2;/</loc></url><url><loc>https://www.example.com/a&#0;b</loc></url></urlset>`),
	}
	for _, dir := range []string{"testdata/samples", "testdata/corpus"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				inputs[f] = b
			}
		}
	}
	n := 0
	for name, in := range inputs {
		for _, d := range decodeAll(t, in, DecoderOptions{Name: name}).diags {
			n++
			if strings.Contains(d.Message, "("+string(d.Rule)+")") {
				t.Errorf("%s: %s repeats its rule", name, d)
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics at all")
	}
}

// TestLimitMessagesNameTheGoOption: a reader limit's message says what a
// command-line user can do (there is no flag for the limit: fix or
// split the input) and names the option that raises it as a Go option
// (DecoderOptions.MaxDepth); it told everyone to "raise
// DecoderOptions.MaxLineBytes in Go", which a command line cannot do.
func TestLimitMessagesNameTheGoOption(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		o              DecoderOptions
	}{
		{"depth", urlsetHead + "<url><loc>https://e.com/</loc>" + strings.Repeat("<x>", 70), "fix the document's nesting (a missing closing tag?), or, in a Go program, raise DecoderOptions.MaxDepth", DecoderOptions{}},
		{"token", "https://e.com/" + strings.Repeat("a", 200) + "\n", "look for a missing line break or closing tag and fix it, or split the value, or, in a Go program, raise DecoderOptions.MaxLineBytes", DecoderOptions{MaxLineBytes: 64}},
		{"bytes", urlsetHead + strings.Repeat(" ", 300), "split the input into sitemaps of at most 52428800 bytes (S-02), or, in a Go program, raise DecoderOptions.MaxBytes", DecoderOptions{MaxBytes: 200}},
		{"entries", "https://e.com/a\nhttps://e.com/b\n", "split the input into smaller files (a sitemap holds at most 50000 URLs, S-01), or, in a Go program, raise DecoderOptions.MaxEntries", DecoderOptions{MaxEntries: 1}},
	} {
		dec := NewDecoder(strings.NewReader(tc.in), tc.o)
		var err error
		for err == nil {
			_, err = dec.Next()
		}
		if !strings.Contains(err.Error(), "stopped reading: no flag raises this limit; ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want that no flag raises the limit and %q", tc.name, err, tc.want)
		}
	}
}
