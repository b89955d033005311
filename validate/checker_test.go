package validate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

var testNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// run checks urls with o and returns the diagnostics.
func run(t *testing.T, o Options, urls ...sitemap.URL) []sitemap.Diagnostic {
	t.Helper()
	if o.Now.IsZero() {
		o.Now = testNow
	}
	if o.Name == "" {
		o.Name = "sitemap.xml"
	}
	var got []sitemap.Diagnostic
	c, err := NewChecker(o, func(d sitemap.Diagnostic) { got = append(got, d) })
	if err != nil {
		t.Fatal(err)
	}
	for i := range urls {
		c.URL(&urls[i], i+2, 3)
	}
	c.Finish()
	return got
}

// ruleList renders diagnostics as "RULE/severity" strings, sorted by order.
func ruleList(ds []sitemap.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Rule)+"/"+d.Severity.String())
	}
	return out
}

func same(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func loc(s string) sitemap.URL { return sitemap.URL{Loc: s} }

func TestLocRules(t *testing.T) {
	long := func(n int) string {
		return "https://www.example.com/" + strings.Repeat("a", n-len("https://www.example.com/"))
	}
	tests := []struct {
		name string
		loc  string
		want []string
	}{
		{"ok", "https://www.example.com/a?x=1&y=2", nil},
		{"L-01 relative", "/relative/path", []string{"L-01/error"}},
		{"L-01 no scheme", "www.example.com/page", []string{"L-01/error"}},
		{"L-16 mailto", "mailto:someone@example.com", []string{"L-16/error"}},
		{"L-16 ftp", "ftp://ftp.example.com/file", []string{"L-16/error"}},
		{"L-06 2049", long(2049), []string{"L-06/error"}},
		{"L-06 2048 warning", long(2048), []string{"L-06/warning"}},
		{"L-06 2047 ok", long(2047), nil},
		{"L-06 short", "http://a.b/", []string{"L-06/error"}},
		{"L-07 space", "https://www.example.com/a b", []string{"L-07/error"}},
		{"L-07 umlaut", "https://www.example.com/ümlat.php", []string{"L-07/error"}},
		{"L-07 bad escape", "https://www.example.com/100%", []string{"L-07/error"}},
		{"L-07 bad hex", "https://www.example.com/%zz", []string{"L-07/error"}},
		{"L-07 brace", "https://www.example.com/{x}", []string{"L-07/error"}},
		{"L-07 ok escapes", "https://www.example.com/%C3%BCmlat.php?q=a%20b", nil},
		{"L-01 no host", "https:///path/only", []string{"L-01/error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ruleList(run(t, Options{}, loc(tt.loc)))
			if !same(got, tt.want) {
				t.Errorf("loc %q: got %v, want %v", tt.loc, got, tt.want)
			}
		})
	}
}

func TestScopeRules(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		loc  string
		want []string
	}{
		{"in scope", Options{URL: "https://www.example.com/sitemap.xml"}, "https://www.example.com/a", nil},
		{"root without slash", Options{URL: "https://www.example.com/sitemap.xml"}, "https://www.example.com", []string{"L-18/info"}},
		{"L-09 other host", Options{URL: "https://www.example.com/sitemap.xml"}, "https://example.com/a", []string{"L-09/error"}},
		{"L-09 scheme", Options{URL: "http://example.com/catalog/sitemap.xml"}, "https://example.com/catalog/a", []string{"L-09/error"}},
		{"L-09 directory", Options{URL: "http://example.com/catalog/sitemap.xml"}, "http://example.com/images/a", []string{"L-09/error"}},
		{"L-09 under directory", Options{URL: "http://example.com/catalog/sitemap.xml"}, "http://example.com/catalog/x/y", nil},
		{"L-09 port", Options{URL: "http://www.example.com:100/sitemap.xml"}, "http://www.example.com/a", []string{"L-09/error"}},
		{"L-15 same port explicit", Options{URL: "http://www.example.com:100/sitemap.xml"}, "http://www.example.com:100/a", nil},
		{"L-15 default port", Options{URL: "https://www.example.com/sitemap.xml"}, "https://www.example.com:443/a", []string{"L-18/info"}},
		{"L-15 host case", Options{URL: "https://WWW.Example.com/sitemap.xml"}, "https://www.example.COM/a", []string{"L-18/info"}},
		{"L-15 IDNA", Options{URL: "https://bücher.example/sitemap.xml"}, "https://xn--bcher-kva.example/a", nil},
		{"L-15 cross-submit", Options{URL: "https://sitemaps.example.net/s.xml", CrossSubmit: true}, "https://www.example.com/a", []string{"L-09/warning"}},
		{"O-06 trusted host", Options{URL: "https://www.example.com/s.xml", TrustedHosts: []string{"shop.example.com"}}, "https://shop.example.com/a", []string{"L-09/warning"}},
		{"O-06 untrusted host", Options{URL: "https://www.example.com/s.xml", TrustedHosts: []string{"shop.example.com"}}, "https://blog.example.com/a", []string{"L-09/error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ruleList(run(t, tt.o, loc(tt.loc)))
			if !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBadScopeURL(t *testing.T) {
	if _, err := NewChecker(Options{URL: "/sitemap.xml"}, nil); err == nil {
		t.Fatal("relative scope URL accepted")
	}
}

func TestSameHostL08(t *testing.T) {
	got := ruleList(run(t, Options{}, loc("https://www.example.com/a"), loc("https://example.com/b"), loc("https://www.example.com/c")))
	if !same(got, []string{"L-08/error"}) {
		t.Errorf("L-08: got %v", got)
	}
	got = ruleList(run(t, Options{TrustedHosts: []string{"example.com"}}, loc("https://www.example.com/a"), loc("https://example.com/b")))
	if !same(got, []string{"L-08/warning"}) {
		t.Errorf("L-08 trusted: got %v", got)
	}
	// Cross-submission keeps one host per sitemap (O-04).
	got = ruleList(run(t, Options{URL: "https://host.example.net/s.xml", CrossSubmit: true}, loc("https://www.example.com/a"), loc("https://example.org/b")))
	if !same(got, []string{"L-09/warning", "L-09/warning", "L-08/error"}) {
		t.Errorf("L-08 cross-submit: got %v", got)
	}
}

func TestDuplicateL17(t *testing.T) {
	ds := run(t, Options{}, loc("https://www.example.com/a"), loc("https://www.example.com/b"), loc("https://www.example.com/a"))
	if got := ruleList(ds); !same(got, []string{"L-17/warning"}) {
		t.Fatalf("got %v", got)
	}
	if ds[0].Line != 4 || ds[0].File != "sitemap.xml" {
		t.Errorf("position: %+v", ds[0])
	}
}

// The four spellings of one URL from issue 9 are one URL listed four
// times (L-17 compares normal forms), and each spelling that is not the
// normal form says so in a note (L-18), a fragment included. A URL the
// checks refuse gets no L-18 on top of its error.
func TestDuplicateNormalForms(t *testing.T) {
	ds := run(t, Options{},
		loc("https://www.example.com/a"), loc("https://www.example.com:443/a"),
		loc("HTTPS://WWW.EXAMPLE.COM/a"), loc("https://www.example.com/a#top"),
		loc("https://www.example.com/b#x"))
	want := []string{"L-18/info", "L-17/warning", "L-18/info", "L-17/warning", "L-18/info", "L-17/warning", "L-18/info"}
	if got := ruleList(ds); !same(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if !strings.Contains(ds[1].Message, `(as "https://www.example.com/a", its normal form)`) || ds[1].Line != 3 {
		t.Errorf("L-17 of the second spelling: %+v", ds[1])
	}
	if !strings.Contains(ds[6].Message, `"https://www.example.com/b"`) || !strings.Contains(ds[6].Message, "fragment") {
		t.Errorf("L-18 of a fragment: %+v", ds[6])
	}
	if got := ruleList(run(t, Options{}, loc("https://www.example.com/a b"))); !same(got, []string{"L-07/error"}) {
		t.Errorf("a refused URL: got %v, want its L-07 alone", got)
	}
}

func TestDiagnosticURLField(t *testing.T) {
	ds := run(t, Options{Name: "https://www.example.com/sitemap.xml"}, loc("/x-relative-path"))
	if len(ds) != 1 || ds[0].URL != "https://www.example.com/sitemap.xml" || ds[0].File != "" {
		t.Fatalf("got %+v", ds)
	}
	if s := ds[0].String(); !strings.HasPrefix(s, "https://www.example.com/sitemap.xml:2:3: error L-01: ") {
		t.Errorf("String() = %q", s)
	}
}

func day(s string) sitemap.Date {
	d, err := sitemap.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestLastmodRules(t *testing.T) {
	u := func(lm string) sitemap.URL {
		return sitemap.URL{Loc: "https://www.example.com/" + lm, LastMod: day(lm)}
	}
	tests := []struct {
		lm   string
		want []string
	}{
		{"2026-11-22", nil},
		{"2026-11-23T11:00:00Z", nil},                      // within the 1-day skew
		{"2026-11-23T13:00:00Z", []string{"M-07/warning"}}, // beyond it
		{"2030-01-01", []string{"M-07/warning"}},
		{"1989-12-31", []string{"M-07/warning"}},
		{"1990-01-01", nil},
	}
	for _, tt := range tests {
		if got := ruleList(run(t, Options{}, u(tt.lm))); !same(got, tt.want) {
			t.Errorf("M-07 %s: got %v, want %v", tt.lm, got, tt.want)
		}
	}
}

func TestLastmodChurnM06(t *testing.T) {
	mk := func(n, sameDay int, news bool) []sitemap.URL {
		var us []sitemap.URL
		for i := 0; i < n; i++ {
			lm := day("2026-11-20")
			if i >= sameDay {
				lm = day(fmt.Sprintf("2026-10-%02d", 1+i%28))
			}
			u := sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/p%d", i), LastMod: lm}
			if news {
				u.News = &sitemap.News{Publication: sitemap.Publication{Name: "X", Language: "en"}, PublicationDate: day("2026-11-22"), Title: "T"}
			}
			us = append(us, u)
		}
		return us
	}
	tests := []struct {
		name    string
		n, same int
		news    bool
		want    []string
	}{
		{"all same day", 30, 30, false, []string{"M-06/warning"}},
		{"28 of 30", 30, 28, false, []string{"M-06/warning"}},
		{"27 of 30 is 90%, not over", 30, 27, false, nil},
		{"small sitemap", 19, 19, false, nil},
		{"news sitemap", 30, 30, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ruleList(run(t, Options{}, mk(tt.n, tt.same, tt.news)...)); !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPriorityP04(t *testing.T) {
	p := func(loc string, v *float64) sitemap.URL {
		return sitemap.URL{Loc: "https://www.example.com/" + loc, Priority: v}
	}
	if got := ruleList(run(t, Options{}, p("a", sitemap.Float64(0.5)), p("b", sitemap.Float64(0.5)))); !same(got, []string{"P-04/warning"}) {
		t.Errorf("same priority: %v", got)
	}
	if got := ruleList(run(t, Options{}, p("a", sitemap.Float64(0.5)), p("b", sitemap.Float64(0.8)))); got != nil {
		t.Errorf("varied priority: %v", got)
	}
	if got := ruleList(run(t, Options{}, p("a", sitemap.Float64(0.5)), p("b", nil))); got != nil {
		t.Errorf("partial priority: %v", got)
	}
	if got := ruleList(run(t, Options{}, p("a", sitemap.Float64(0.5)))); got != nil {
		t.Errorf("one URL: %v", got)
	}
}

func TestCountLimitS01(t *testing.T) {
	var got []sitemap.Diagnostic
	c, _ := NewChecker(Options{Name: "big.xml", Now: testNow}, func(d sitemap.Diagnostic) { got = append(got, d) })
	for i := 0; i < sitemap.MaxURLs+2; i++ {
		c.URL(&sitemap.URL{Loc: "https://www.example.com/p" + fmt.Sprint(i)}, i+3, 1)
	}
	c.Finish()
	if r := ruleList(got); !same(r, []string{"S-01/error"}) || got[0].Line != sitemap.MaxURLs+3 {
		t.Fatalf("got %v %+v", r, got)
	}
}

func TestSizeS02S03(t *testing.T) {
	var got []sitemap.Diagnostic
	c, _ := NewChecker(Options{Name: "s.xml"}, func(d sitemap.Diagnostic) { got = append(got, d) })
	c.URL(&sitemap.URL{Loc: "https://www.example.com/"}, 1, 1)
	c.Size(sitemap.MaxBytes)
	c.Size(sitemap.MaxBytes + 1)
	c.Size(sitemap.MaxBytes + 2)
	if r := ruleList(got); !same(r, []string{"S-02/error"}) {
		t.Fatalf("S-02: %v", r)
	}
	got = nil
	c, _ = NewChecker(Options{Name: "i.xml"}, func(d sitemap.Diagnostic) { got = append(got, d) })
	c.Index(&sitemap.IndexEntry{Loc: "https://www.example.com/s1.xml"}, 1, 1)
	c.Size(sitemap.MaxBytes + 1)
	if r := ruleList(got); !same(r, []string{"S-03/error"}) {
		t.Fatalf("S-03: %v", r)
	}
}

func TestIndexEntryRules(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		x    sitemap.IndexEntry
		want []string
	}{
		{"ok", Options{URL: "https://www.example.com/sitemap.xml"}, sitemap.IndexEntry{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: day("2026-11-01")}, nil},
		{"relative", Options{}, sitemap.IndexEntry{Loc: "sitemap-1.xml"}, []string{"L-01/error"}},
		{"I-05 other site", Options{URL: "https://www.example.com/sitemap.xml"}, sitemap.IndexEntry{Loc: "https://cdn.example.net/sitemap-1.xml"}, []string{"I-05/error"}},
		{"I-06 directory", Options{URL: "https://example.com/public/sitemap_index.xml"}, sitemap.IndexEntry{Loc: "https://example.com/other/sitemap-1.xml"}, []string{"I-06/error"}},
		{"M-07 future", Options{}, sitemap.IndexEntry{Loc: "https://www.example.com/s.xml", LastMod: day("2027-01-01")}, []string{"M-07/warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Now = testNow
			var got []sitemap.Diagnostic
			c, err := NewChecker(tt.o, func(d sitemap.Diagnostic) { got = append(got, d) })
			if err != nil {
				t.Fatal(err)
			}
			c.Index(&tt.x, 2, 3)
			c.Index(&tt.x, 3, 3) // a repeat: L-17
			c.Finish()
			want := append(append(append([]string{}, tt.want...), tt.want...), "L-17/warning")
			if r := ruleList(got); !same(r, want) {
				t.Errorf("got %v, want %v", r, want)
			}
		})
	}
}
