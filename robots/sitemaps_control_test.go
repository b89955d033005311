package robots

import (
	"strings"
	"testing"
)

// A Sitemap line holding a control character url.Parse lets through (C1,
// U+2028, U+2029) is refused with RB-05, like the ASCII ones url.Parse
// refuses: printed, it would break a line of output or steer a terminal.
func TestSitemapsControlCharacters(t *testing.T) {
	f := ParseBytes([]byte("Sitemap: https://e.com/a\u0085b.xml\nSitemap: https://e.com/\u2028.xml\nSitemap: https://e.com/\u2029\nSitemap: https://e.com/\x1b.xml\nSitemap: https://e.com/ok-\u00e9.xml\n"))
	got, warns := f.Sitemaps(nil)
	if len(got) != 1 || got[0] != "https://e.com/ok-\u00e9.xml" {
		t.Errorf("sitemaps %q", got)
	}
	n := 0
	for _, w := range warns {
		if w.Rule == "RB-05" && (strings.Contains(w.Message, "control character") || strings.Contains(w.Message, "invalid control character")) {
			n++
		}
	}
	if n != 4 {
		t.Errorf("want 4 RB-05 about control characters: %+v", warns)
	}
}
