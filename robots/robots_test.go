package robots

import (
	"bytes"
	"errors"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"golang.org/x/text/encoding/unicode"
)

// googleMatches is a direct transcription of Google's
// RobotsMatchStrategy::Matches (robots.cc), used as the reference for the
// hand-written matcher.
func googleMatches(path, pattern string) bool {
	pos := make([]int, len(path)+1)
	numpos := 1
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i+1 == len(pattern) {
			return pos[numpos-1] == len(path)
		}
		if c == '*' {
			numpos = len(path) - pos[0] + 1
			for j := 1; j < numpos; j++ {
				pos[j] = pos[j-1] + 1
			}
			continue
		}
		n := 0
		for j := 0; j < numpos; j++ {
			if pos[j] < len(path) && path[pos[j]] == c {
				pos[n] = pos[j] + 1
				n++
			}
		}
		numpos = n
		if numpos == 0 {
			return false
		}
	}
	return true
}

func TestMatchAgainstGoogle(t *testing.T) {
	patterns := []string{"", "/", "$", "/$", "*", "/*", "*$", "/fish", "/fish*", "/fish/", "/*.php", "/*.php$",
		"/fish*.php", "*.gif$", "/a*b*c", "/a*b*c$", "/a$b", "/**a", "/a**", "/foo/*/bar$", "/$$", "*/x*y*$"}
	paths := []string{"/", "/fish", "/fish.html", "/fish/salmon.php", "/Fish.PHP", "/filename.php",
		"/filename.php?x", "/a.gif", "/a.gif?x", "/abc", "/aXbYc", "/aXbYcZ", "/a$b", "/a$bc", "/foo/x/bar",
		"/foo/x/y/bar", "/foo//bar", "/xy", "/x/y/z/y", "/aa", ""}
	for _, p := range patterns {
		r := compileRule(false, p, 0)
		for _, s := range paths {
			if got, want := r.Match(s), googleMatches(s, p); got != want {
				t.Errorf("Match(%q, %q) = %v, Google's algorithm says %v", p, s, got, want)
			}
		}
	}
}

func TestPathOf(t *testing.T) {
	// Google's GetPathParamsQuery cases (robots_test.cc), plus %xx upper-casing.
	tests := []struct{ in, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://x/#frag/x", "/"},
		{"http://x/a%2fb%e3", "/a%2Fb%E3"},
	}
	for _, tt := range tests {
		if got := PathOf(tt.in); got != tt.want {
			t.Errorf("PathOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapePattern(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/foo/bar", "/foo/bar"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84"},
		{"/a%aa%Bb", "/a%AA%BB"},
		{"/a%zz", "/a%zz"},
		{"/a%a", "/a%a"},
	}
	for _, tt := range tests {
		if got := escapePattern(tt.in); got != tt.want {
			t.Errorf("escapePattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if !Match("/foo/ツ", "/foo/%E3%83%84") || Match("/foo/ツ", "/foo/ツ") {
		t.Error("Match does not percent-encode the pattern (RFC 9309 §2.2.2)")
	}
}

func TestScanner(t *testing.T) {
	tests := []struct {
		name, src string
		agent     string
		path      string
		allowed   bool
	}{
		{"LF", "User-agent: a\nDisallow: /x\n", "a", "/x", false},
		{"CR", "User-agent: a\rDisallow: /x\r", "a", "/x", false},
		{"CRLF", "User-agent: a\r\nDisallow: /x\r\n", "a", "/x", false},
		{"no final EOL", "User-agent: a\nDisallow: /x", "a", "/x", false},
		{"BOM", "\xEF\xBB\xBFUser-agent: a\nDisallow: /x\n", "a", "/x", false},
		{"comment", "User-agent: a # me\nDisallow: /x#y\n", "a", "/xz", false},
		{"comment line", "# User-agent: a\nUser-agent: b\nDisallow: /x\n", "a", "/x", true},
		{"key case", "USER-AGENT: a\nDISALLOW: /x\n", "a", "/x", false},
		{"typo user agent", "user agent: a\ndisallow: /x\n", "a", "/x", false},
		{"typo disalow", "User-agent: a\ndisalow: /x\n", "a", "/x", false},
		{"typo diasllow", "User-agent: a\ndiasllow: /x\n", "a", "/x", false},
		{"typo disallaw", "User-agent: a\ndisallaw: /x\n", "a", "/x", false},
		{"whitespace separator", "User-agent a\nDisallow /x\n", "a", "/x", false},
		{"three tokens rejected", "User-agent: a\nDisallow /x y\n", "a", "/x", true},
		{"rule before agent", "Disallow: /x\nUser-agent: a\n", "a", "/x", true},
		{"sitemap keeps group (RB-01)", "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /x\n", "a", "/x", false},
		{"crawl-delay keeps group (RB-01)", "User-agent: a\nCrawl-delay: 3\nUser-agent: b\nDisallow: /x\n", "a", "/x", false},
		{"rule ends group", "User-agent: a\nDisallow: /y\nUser-agent: b\nDisallow: /x\n", "a", "/x", true},
		{"global with suffix", "User-agent: * extra\nDisallow: /x\n", "z", "/x", false},
		{"product token", "User-agent: Googlebot/2.1\nDisallow: /x\n", "googlebot", "/x", false},
		{"robots.txt allowed", "User-agent: *\nDisallow: /\n", "z", "/robots.txt", true},
		{"empty disallow", "User-agent: *\nDisallow:\n", "z", "/x", true},
		{"specific group without match", "User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /y\n", "a", "/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseBytes([]byte(tt.src))
			if got := f.Allowed(tt.agent, tt.path); got != tt.allowed {
				t.Errorf("Allowed(%q, %q) = %v, want %v; warnings %v", tt.agent, tt.path, got, tt.allowed, f.Warnings())
			}
		})
	}
}

func TestSitemapsRB12(t *testing.T) {
	base, _ := url.Parse("https://www.example.com/robots.txt")
	src := "Sitemap: https://www.example.com/a.xml\n" +
		"User-agent: *\nDisallow: /private\n" +
		"SITEMAP: https://www.example.com/a.xml\n" + // duplicate, key case ignored
		"site-map: https://cdn.example.net/b.xml\n" + // RB-08: other host is fine; RB-09 spelling
		"sitemaps: /c.xml\n" + // relative: resolved with a warning
		"Sitemap: https://www.example.com/d.xml#frag\n" + // '#' starts a comment (RB-10)
		"Sitemap: ftp://www.example.com/e.xml\n" + // not http(s)
		"Sitemap:\n" +
		"Sitemap https://www.example.com/f.xml\n" // split at the first ':' (RB-10): key "Sitemap https", value "//www…"
	f := ParseBytes([]byte(src))
	got, warns := f.Sitemaps(base)
	want := []string{
		"https://www.example.com/a.xml",
		"https://cdn.example.net/b.xml",
		"https://www.example.com/c.xml",
		"https://www.example.com/d.xml",
		"https://www.example.com/f.xml",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sitemaps = %q\nwant %q", got, want)
	}
	wantWarn := []struct {
		line int
		rule string
	}{{4, "RB-12"}, {6, "RB-12"}, {8, "RB-05"}, {9, "RB-05"}}
	for _, w := range wantWarn {
		if !slices.ContainsFunc(warns, func(x Warning) bool { return x.Line == w.line && string(x.Rule) == w.rule }) {
			t.Errorf("missing warning line %d %s in %v", w.line, w.rule, warns)
		}
	}
	// Without a base a relative value is dropped, with a warning.
	got2, _ := f.Sitemaps(nil)
	if slices.Contains(got2, "https://www.example.com/c.xml") || len(got2) != 3 {
		t.Errorf("Sitemaps(nil) = %q", got2)
	}
	// Sitemap lines did not disturb the group (RB-01).
	if f.Allowed("x", "/private") {
		t.Error("group broken by Sitemap lines")
	}
}

func TestLimitRB03(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("User-agent: *\n")
	for b.Len() < DefaultMaxBytes-30 {
		b.WriteString("Disallow: /padding/padding\n")
	}
	// This line straddles the limit: it must be dropped, not read as "/".
	b.WriteString("Disallow: /" + strings.Repeat("z", 60) + "\n")
	b.WriteString("Sitemap: https://e.com/late.xml\n")
	f, err := Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Truncated() || !slices.ContainsFunc(f.Warnings(), func(w Warning) bool { return w.Rule == "RB-03" }) {
		t.Error("no truncation reported")
	}
	if len(f.SitemapLines()) != 0 {
		t.Error("line after the limit read")
	}
	if !f.Allowed("x", "/other") {
		t.Error("cut-off line read as a rule")
	}
	// A larger limit reads it all; a smaller one is raised to the minimum.
	f2, _ := Parse(bytes.NewReader(b.Bytes()), WithMaxBytes(2*DefaultMaxBytes))
	if f2.Truncated() || len(f2.SitemapLines()) != 1 {
		t.Error("WithMaxBytes(2×) did not read the whole file")
	}
	f3 := ParseBytes(b.Bytes(), WithMaxBytes(10))
	if !f3.Truncated() || f3.Allowed("x", "/padding/padding") {
		t.Error("WithMaxBytes below the RFC minimum was not raised to 512,000")
	}
	if _, err := Parse(iotest.ErrReader(errors.New("boom"))); err == nil {
		t.Error("read error not returned")
	}
}

func TestUTF16(t *testing.T) {
	src := "User-agent: *\r\nDisallow: /é\r\nSitemap: https://e.com/s.xml\r\n"
	for _, e := range []unicode.Endianness{unicode.LittleEndian, unicode.BigEndian} {
		enc, err := unicode.UTF16(e, unicode.UseBOM).NewEncoder().Bytes([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		f := ParseBytes(enc)
		if s := f.SitemapLines(); len(s) != 1 || s[0].Value != "https://e.com/s.xml" || s[0].Line != 3 {
			t.Errorf("endianness %v: sitemaps %v", e, s)
		}
		if f.Allowed("x", "/%C3%A9") {
			t.Errorf("endianness %v: UTF-8 rule not matched after conversion", e)
		}
		if _, _, err := AddSitemap(enc, "https://e.com/t.xml"); !errors.Is(err, ErrUTF16) {
			t.Errorf("AddSitemap on UTF-16: %v", err)
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	f := ParseBytes([]byte("User-agent: a\nCrawl-delay: 2.5\nDisallow:\nUser-agent: b\nCrawl-delay: x\nDisallow:\nUser-agent: c\nCrawl-delay: 1e12\nCrawl-delay: -1\n"))
	if d, ok := f.CrawlDelay("a"); !ok || d != 2500*time.Millisecond {
		t.Errorf("a: %v %v", d, ok)
	}
	if d, ok := f.CrawlDelay("c"); !ok || d != 24*time.Hour {
		t.Errorf("c (clamped): %v %v", d, ok)
	}
	if _, ok := f.CrawlDelay("zz"); ok {
		t.Error("crawler without a group has a delay")
	}
	n := 0
	for _, w := range f.Warnings() {
		if w.Line >= 5 {
			n++
		}
	}
	if n != 3 { // "x", clamped 1e12, "-1"
		t.Errorf("want 3 crawl-delay warnings, got %v", f.Warnings())
	}
}

func TestAddSitemap(t *testing.T) {
	const u = "https://www.example.com/sitemap.xml"
	tests := []struct {
		name, src, want string
		changed         bool
	}{
		{"empty", "", "Sitemap: " + u + "\n", true},
		{"after groups with blank line (RB-13)", "User-agent: *\nDisallow: /x\n", "User-agent: *\nDisallow: /x\n\nSitemap: " + u + "\n", true},
		// The blank lines at the end stay at the end, so that remove gives
		// the file back.
		{"already blank-separated", "User-agent: *\nDisallow:\n\n", "User-agent: *\nDisallow:\n\nSitemap: " + u + "\n\n", true},
		// A file without a final line ending gets a line without one.
		{"no final newline", "User-agent: *\nDisallow:", "User-agent: *\nDisallow:\n\nSitemap: " + u, true},
		{"CRLF kept", "User-agent: *\r\nDisallow:\r\n", "User-agent: *\r\nDisallow:\r\n\r\nSitemap: " + u + "\r\n", true},
		{"CR kept", "User-agent: *\rDisallow:\r", "User-agent: *\rDisallow:\r\rSitemap: " + u + "\r", true},
		{"extends sitemap block", "User-agent: *\nDisallow:\n\nSitemap: https://a.com/1.xml\n\n", "User-agent: *\nDisallow:\n\nSitemap: https://a.com/1.xml\nSitemap: " + u + "\n\n", true},
		{"extends block without final EOL", "Sitemap: https://a.com/1.xml", "Sitemap: https://a.com/1.xml\nSitemap: " + u, true},
		{"BOM only", "\xEF\xBB\xBF", "\xEF\xBB\xBFSitemap: " + u + "\n", true},
		{"exists", "sitemap: " + u + "\nUser-agent: *\n", "sitemap: " + u + "\nUser-agent: *\n", false},
		{"exists with comment", "SITEMAP:" + u + " # main\n", "SITEMAP:" + u + " # main\n", false},
		{"other URL case differs", "Sitemap: https://www.example.com/Sitemap.xml\n", "Sitemap: https://www.example.com/Sitemap.xml\nSitemap: " + u + "\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed, err := AddSitemap([]byte(tt.src), u)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want || changed != tt.changed {
				t.Errorf("got %q, %v\nwant %q, %v", out, changed, tt.want, tt.changed)
			}
			got, _ := ParseBytes(out).Sitemaps(nil)
			if !slices.Contains(got, u) {
				t.Errorf("result does not list %s: %q", u, got)
			}
		})
	}
	for _, bad := range []string{"", "/relative.xml", "ftp://e.com/s.xml", "https://e.com/a b.xml", "https://e.com/s.xml#x", "https://e.com/\n", "https:///nohost"} {
		if _, _, err := AddSitemap(nil, bad); err == nil {
			t.Errorf("AddSitemap accepted %q", bad)
		}
	}
	big := bytes.Repeat([]byte("# padding padding padding padding\n"), DefaultMaxBytes/34+1)
	if _, _, err := AddSitemap(big, u); err == nil {
		t.Error("AddSitemap wrote a line past the 512,000-byte limit (RB-04)")
	}
}

func TestRemoveSitemap(t *testing.T) {
	const u = "https://www.example.com/sitemap.xml"
	tests := []struct {
		name, src, want string
		changed         bool
	}{
		{"middle", "User-agent: *\nSitemap: " + u + "\nDisallow: /x\n", "User-agent: *\nDisallow: /x\n", true},
		{"last without EOL", "User-agent: *\r\nsitemap:  " + u, "User-agent: *\r\n", true},
		{"BOM line", "\xEF\xBB\xBFSitemap: " + u + "\r\nUser-agent: *\r\n", "\xEF\xBB\xBFUser-agent: *\r\n", true},
		{"all duplicates", "Sitemap: " + u + "\nSite-map: " + u + " # again\nSitemap: https://a.com/x\n", "Sitemap: https://a.com/x\n", true},
		{"other URL kept", "Sitemap: " + u + "x\n", "Sitemap: " + u + "x\n", false},
		{"not a sitemap line", "Disallow: " + u + "\n", "Disallow: " + u + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed, err := RemoveSitemap([]byte(tt.src), u)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want || changed != tt.changed {
				t.Errorf("got %q, %v\nwant %q, %v", out, changed, tt.want, tt.changed)
			}
		})
	}
}

func TestWarningString(t *testing.T) {
	// A warning prints as a diagnostic, its place given by the caller.
	if s := warning(3, "RB-12", "m").String(); s != "3: warning RB-12: m" {
		t.Error(s)
	}
	w := warning(0, "RB-03", "m")
	w.URL = "https://e.com/robots.txt"
	if s := w.String(); s != "https://e.com/robots.txt: warning RB-03: m" {
		t.Error(s)
	}
	if ProductToken(" Googlebot/2.1 (+http://www.google.com/bot.html)") != "Googlebot" {
		t.Error("ProductToken")
	}
}

func TestLimitUTF16(t *testing.T) {
	var src strings.Builder
	src.WriteString("User-agent: *\n")
	for src.Len() < DefaultMaxBytes/2+100 {
		src.WriteString("Disallow: /p\n")
	}
	src.WriteString("Disallow: /late\n")
	for _, e := range []unicode.Endianness{unicode.LittleEndian, unicode.BigEndian} {
		enc, err := unicode.UTF16(e, unicode.UseBOM).NewEncoder().Bytes([]byte(src.String()))
		if err != nil {
			t.Fatal(err)
		}
		f := ParseBytes(enc)
		if !f.Truncated() || !f.Allowed("x", "/late") {
			t.Errorf("%v: not truncated at the limit (RB-03)", e)
		}
		if f.Allowed("x", "/p") {
			t.Errorf("%v: rules before the limit lost", e)
		}
		for _, w := range f.Warnings() {
			if strings.Contains(w.Message, "no \"key: value\"") {
				t.Errorf("%v: cut produced a garbage line: %v", e, w)
			}
		}
	}
}
