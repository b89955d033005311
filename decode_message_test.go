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
			if strings.Contains(d.Message, "("+d.Rule+")") {
				t.Errorf("%s: %s repeats its rule", name, d)
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics at all")
	}
}
