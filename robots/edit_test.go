package robots

import (
	"bytes"
	"strings"
	"testing"
)

// editBodies are robots.txt files of every shape the editor meets: empty,
// a byte order mark, no final line ending, CRLF, CR, mixed endings, groups,
// Sitemap lines at the top, in the middle and at the end, blank lines and
// whitespace-only lines at the end, comments.
var editBodies = []string{
	"",
	"\xEF\xBB\xBF",
	"\n",
	"\n\n",
	"  ",
	"\n ",
	"User-agent: *",
	"User-agent: *\n",
	"User-agent: *\nDisallow: /x",
	"User-agent: *\nDisallow: /x\n",
	"User-agent: *\nDisallow: /x\n\n",
	"User-agent: *\nDisallow: /x\n\n\n",
	"User-agent: *\nDisallow: /x\n  \n",
	"User-agent: *\r\nDisallow: /x\r\n",
	"User-agent: *\r\nDisallow: /x",
	"User-agent: *\r\nDisallow: /x\r\n\r\n",
	"User-agent: *\rDisallow: /x\r",
	"User-agent: *\rDisallow: /x",
	"User-agent: *\nDisallow: /x\r",
	"User-agent: *\r\nDisallow: /x\n",
	"User-agent: *\nDisallow: /x\r\n\r",
	"\xEF\xBB\xBFUser-agent: *\r\nDisallow:\r\n",
	"Sitemap: https://a.example/1.xml\nUser-agent: *\nDisallow:\n",
	"User-agent: a\nDisallow: /a\n\nSitemap: https://a.example/1.xml\n\nUser-agent: b\nDisallow: /b\n",
	"User-agent: *\nDisallow:\n\nSitemap: https://a.example/1.xml\n",
	"User-agent: *\nDisallow:\n\nSitemap: https://a.example/1.xml",
	"User-agent: *\nDisallow:\n\nSitemap: https://a.example/1.xml\n\n",
	"User-agent: *\nDisallow:\n\nSitemap: https://a.example/1.xml\r\nSitemap: https://a.example/2.xml\r",
	"Sitemap: https://a.example/1.xml",
	"Sitemap: https://a.example/1.xml\n",
	"User-agent: *\nDisallow:\n# the end\n",
	"User-agent: *\nDisallow:\n# the end",
	"# only a comment",
}

// TestAddRemoveRoundTrip: add then remove gives back the exact original
// bytes, whatever the body (it left an extra blank line).
func TestAddRemoveRoundTrip(t *testing.T) {
	const u = "https://www.example.com/sitemap.xml"
	for _, body := range editBodies {
		out, changed, err := AddSitemap([]byte(body), u)
		if err != nil || !changed {
			t.Fatalf("%q: add: %v %v", body, changed, err)
		}
		if got, _ := ParseBytes(out).Sitemaps(nil); len(got) == 0 || got[len(got)-1] != u {
			t.Errorf("%q: after add, Sitemaps = %q\n%q", body, got, out)
		}
		back, changed, err := RemoveSitemap(out, u)
		if err != nil || !changed {
			t.Fatalf("%q: remove: %v %v", body, changed, err)
		}
		if !bytes.Equal(back, []byte(body)) {
			t.Errorf("add then remove of %q:\nadded   %q\nremoved %q", body, out, back)
		}
	}
}

// TestCheckSitemapURLReadBack: a URL whose line crawlers would read cut
// (RB-10: 16,664 bytes a line) is refused, one that fits is written and
// read back whole; an already percent-encoded line feed is fine, a raw one
// is refused with what to write instead.
func TestCheckSitemapURLReadBack(t *testing.T) {
	prefix := "https://www.example.com/"
	fits := prefix + strings.Repeat("a", maxLineBytes-len("Sitemap: ")-len(prefix))
	for _, u := range []string{fits, "https://www.example.com/a%0Ab.xml", "https://www.example.com/?q=%0D%0A"} {
		out, _, err := AddSitemap(nil, u)
		if err != nil {
			t.Fatalf("%.60q…: %v", u, err)
		}
		if got, _ := ParseBytes(out).Sitemaps(nil); len(got) != 1 || got[0] != u {
			t.Errorf("%.60q… read back as %.60q", u, got)
		}
	}
	long := fits + "b"
	if _, _, err := AddSitemap(nil, long); err == nil || !strings.Contains(err.Error(), "RB-10") {
		t.Errorf("a %d-byte URL: %v", len(long), err)
	}
	if _, _, err := AddSitemap(nil, prefix+strings.Repeat("x", 100000)); err == nil {
		t.Error("a 100,000-byte URL was accepted")
	}
	err := CheckSitemapURL("https://www.example.com/a\nb.xml")
	if err == nil || !strings.Contains(err.Error(), "a line feed at byte 26") || !strings.Contains(err.Error(), "%0A") {
		t.Errorf("raw line feed: %v", err)
	}
}
