package robots

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// FuzzParse checks that any input parses without panicking, that Sitemaps
// is deterministic, that the matcher agrees with itself (File and Group), and
// that AddSitemap keeps every original byte in place and makes the URL
// appear in Sitemaps; RemoveSitemap then gives the original bytes back.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"User-agent: *\nDisallow: /\n",
		"\xEF\xBB\xBFUser-agent: a\r\nAllow: /x$\r\nDisallow: /*.gif$\r\nSitemap: https://e.com/s.xml\r\n",
		"\xFF\xFEU\x00:\x00 \x00*\x00\n\x00",
		"user agent foo\ndisalow /x\nsite-map: /rel.xml\nCrawl-delay: 2\n",
		"Sitemap: https://e.com/a.xml\rSitemap: https://e.com/a.xml\r",
		"User-agent: *\nAllow: /index.html\nDisallow: /*\n# c\n",
	}
	for _, s := range append(seeds, editBodies...) {
		f.Add([]byte(s), "/x/y.gif")
	}
	if files, _ := filepath.Glob("testdata/crawler-commons/*.txt"); len(files) > 0 {
		for _, name := range files[:4] {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b, "/private/")
			}
		}
	}
	base, _ := url.Parse("https://www.example.com/robots.txt")
	const added = "https://fuzz.example/sitemap.xml"
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		file := ParseBytes(data)
		s1, w1 := file.Sitemaps(base)
		s2, w2 := ParseBytes(data).Sitemaps(base)
		if !reflect.DeepEqual(s1, s2) || !reflect.DeepEqual(w1, w2) {
			t.Fatalf("Sitemaps not deterministic: %q vs %q", s1, s2)
		}
		for _, ua := range []string{"a", "foo", "Googlebot", ""} {
			g := file.Group(ua)
			if file.Allowed(ua, path) != g.Allowed(path) {
				t.Fatalf("File.Allowed and Group.Allowed disagree for %q %q", ua, path)
			}
		}
		out, changed, err := AddSitemap(data, added)
		if err != nil {
			return // UTF-16 or over the size limit: refused, nothing to check
		}
		if !changed {
			if !bytes.Equal(out, data) {
				t.Fatal("unchanged result differs from input")
			}
			got, _ := file.Sitemaps(nil)
			if !slices.Contains(got, added) {
				t.Fatalf("AddSitemap said the URL exists but Sitemaps = %q", got)
			}
			return
		}
		// out must be data with one contiguous insertion.
		if len(out) <= len(data) {
			t.Fatalf("result shorter than input")
		}
		p := 0
		for p < len(data) && out[p] == data[p] {
			p++
		}
		if !bytes.Equal(out[len(out)-(len(data)-p):], data[p:]) {
			t.Fatalf("original bytes not preserved:\nin  %q\nout %q", data, out)
		}
		got, _ := ParseBytes(out).Sitemaps(nil)
		if !slices.Contains(got, added) {
			t.Fatalf("added URL missing: %q\nout %q", got, out)
		}
		back, changed, err := RemoveSitemap(out, added)
		if err != nil || !changed {
			t.Fatalf("RemoveSitemap: %v %v", changed, err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("add then remove did not give the file back:\nin      %q\nadded   %q\nremoved %q", data, out, back)
		}
	})
}
