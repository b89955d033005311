package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// TestNormalize: each step of Normalize's comment, with what it reports
// changed; every result is normal (idempotent, no change reported).
func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ch       Changes
	}{
		{"https://www.example.com/a", "https://www.example.com/a", 0},
		{"https://www.example.com:8080/a?b=c", "https://www.example.com:8080/a?b=c", 0},
		{"https://www.example.com/café", "https://www.example.com/caf%C3%A9", ChangedEncoded},
		{"https://www.example.com/a b<c>", "https://www.example.com/a%20b%3Cc%3E", ChangedEncoded},
		{"https://www.example.com/100%", "https://www.example.com/100%25", ChangedEncoded},
		{"https://www.example.com/?q=ü&x=1", "https://www.example.com/?q=%C3%BC&x=1", ChangedEncoded},
		{"HTTPS://WWW.EXAMPLE.COM/A", "https://www.example.com/A", ChangedScheme | ChangedHost},
		{"https://www.example.com:443/a", "https://www.example.com/a", ChangedPort},
		{"http://www.example.com:80/a", "http://www.example.com/a", ChangedPort},
		{"http://www.example.com:443/a", "http://www.example.com:443/a", 0},
		{"https://www.example.com:/a", "https://www.example.com/a", ChangedPort},
		{"https://www.example.com:0443/a", "https://www.example.com/a", ChangedPort},
		{"https://www.example.com:08080/a", "https://www.example.com:8080/a", ChangedPort},
		{"https://www.example.com/a#top", "https://www.example.com/a", ChangedFragment},
		{"https://www.example.com/a#b#c d", "https://www.example.com/a", ChangedFragment},
		{"https://www.example.com", "https://www.example.com/", ChangedPath},
		{"https://www.example.com?q=1", "https://www.example.com/?q=1", ChangedPath},
		{" https://www.example.com/a\n", "https://www.example.com/a", ChangedTrim},
		{"https://Bücher.example/ä", "https://xn--bcher-kva.example/%C3%A4", ChangedIDNA | ChangedEncoded},
		{"https://[2001:DB8::1]:443/", "https://[2001:db8::1]/", ChangedHost | ChangedPort},
		{"https://www.example.com./a", "https://www.example.com./a", 0}, // another host: kept
		{"https://www.example.com/p?", "https://www.example.com/p?", 0}, // an empty query is not no query (RFC 3986 §6.2.3)
		{"https://www.example.com/A/B?X=Y", "https://www.example.com/A/B?X=Y", 0},
		{"https://www.example.com/.well-known/x", "https://www.example.com/.well-known/x", 0},
		{"https://www.example.com/a..b/..c/.d/", "https://www.example.com/a..b/..c/.d/", 0},
		{"https://www.example.com/a/?q=/../x", "https://www.example.com/a/?q=/../x", 0}, // dots only in the path
	} {
		got, ch, err := Normalize(c.in)
		if err != nil || got != c.want || ch != c.ch {
			t.Errorf("Normalize(%q) = %q, %v (%b), %v; want %q, %v", c.in, got, ch, ch, err, c.want, c.ch)
		}
		if again, ch2, _ := Normalize(got); again != got || ch2 != 0 {
			t.Errorf("Normalize(%q) = %q, %v: not idempotent", got, again, ch2)
		}
	}
	for _, in := range []string{
		"", "/a", "www.example.com/a", "ftp://www.example.com/", "https://user@www.example.com/",
		"https://www.example.com:99999/", "https://www.example.com:0/", "https://www.exa mple.com/", "https://www.example.com/a\tb",
		"https://www.example.com/\xff", "https:///a", "https://\u00ad/", "mailto:a@b.c", "https://[::1/", "https://[zz]/",
	} {
		got, ch, err := Normalize(in)
		var e *Error
		if err == nil || got != "" || ch != 0 || !errors.As(err, &e) || !errors.Is(err, ErrNotHTTP) || e.Reason == "" {
			t.Errorf("Normalize(%q) = %q, %v, %v; want an *Error", in, got, ch, err)
		}
	}
}

// TestNormalizeRFC3986 is RFC 3986 §6.2.2: case normalisation (§6.2.2.1:
// scheme and host lower case, hex digits of escapes upper case),
// percent-encoding normalisation (§6.2.2.2: escapes of unreserved
// characters decoded) and path segment normalisation (RFC 3986 §6.2.2.3,
// dot segments removed by RFC 3986 §5.2.4), with the RFC's own example, and §6.2.3's
// default port and empty path.
func TestNormalizeRFC3986(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// §6.2.2's example: three spellings of one URI.
		{"http://example.com/%7Esmith/home.html", "http://example.com/~smith/home.html"},
		{"http://EXAMPLE.com/%7esmith/home.html", "http://example.com/~smith/home.html"},
		{"HTTP://example.COM/~smith/home.html", "http://example.com/~smith/home.html"},
		// RFC 3986 §6.2.2.1: "%3a" and "%3A" are one escape; a reserved character stays escaped.
		{"https://example.com/a%3ab", "https://example.com/a%3Ab"},
		{"https://example.com/a%2fb", "https://example.com/a%2Fb"},
		{"https://example.com/a%2Fb", "https://example.com/a%2Fb"},
		{"https://example.com/?q=a%26b", "https://example.com/?q=a%26b"},
		{"https://example.com/?q=a%2cb", "https://example.com/?q=a%2Cb"},
		// RFC 3986 §6.2.2.2: ALPHA, DIGIT, '-', '.', '_', '~' escaped are decoded, in the path and the query.
		{"https://example.com/%41%62%63%2D%2E%5F%7E%30", "https://example.com/Abc-._~0"},
		{"https://example.com/?%6b=%76", "https://example.com/?k=v"},
		{"https://example.com/%c3%a9", "https://example.com/%C3%A9"},
		{"https://example.com/%25", "https://example.com/%25"},
		{"https://example.com/%2541", "https://example.com/%2541"}, // "%25" then "41": decoded once only
		// RFC 3986 §6.2.2.3 with the algorithm of RFC 3986 §5.2.4, and its examples.
		{"https://example.com/a/b/c/./../../g", "https://example.com/a/g"},
		{"https://example.com/mid/content=5/../6", "https://example.com/mid/6"},
		// RFC 3986 §5.4.1 and RFC 3986 §5.4.2: the results of the reference resolution examples, written absolute.
		{"http://a/b/c/./g", "http://a/b/c/g"},
		{"http://a/b/c/g/.", "http://a/b/c/g/"},
		{"http://a/b/c/g/..", "http://a/b/c/"},
		{"http://a/b/c/..", "http://a/b/"},
		{"http://a/b/c/../..", "http://a/"},
		{"http://a/b/c/../../..", "http://a/"},
		{"http://a/../g", "http://a/g"},
		{"http://a/../../g", "http://a/g"},
		{"http://a/./g", "http://a/g"},
		{"http://a/b/c/g.", "http://a/b/c/g."},
		{"http://a/b/c/.g", "http://a/b/c/.g"},
		{"http://a/b/c/g..", "http://a/b/c/g.."},
		{"http://a/b/c/..g", "http://a/b/c/..g"},
		{"http://a/b/c/./../g", "http://a/b/g"},
		{"http://a/b/c/./g/.", "http://a/b/c/g/"},
		{"http://a/b/c/g/./h", "http://a/b/c/g/h"},
		{"http://a/b/c/g/../h", "http://a/b/c/h"},
		{"http://a/b/c/g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"http://a/b/c/g;x=1/../y", "http://a/b/c/y"},
		{"http://a/b/c/g?y/./x", "http://a/b/c/g?y/./x"},
		{"http://a/b/c/g?y/../x", "http://a/b/c/g?y/../x"},
		{"http://a/b/c/g#s/./x", "http://a/b/c/g"},
		{"http://a/.", "http://a/"},
		{"http://a/..", "http://a/"},
		{"http://a//..", "http://a/"},
		{"http://a/b//../c", "http://a/b/c"},
		// Dots escaped are dots (decoded first, then removed).
		{"https://example.com/a/%2e%2E/b", "https://example.com/b"},
		{"https://example.com/a/%2e/b", "https://example.com/a/b"},
		// RFC 3986 §6.2.3: the default port and an empty path.
		{"http://example.com", "http://example.com/"},
		{"http://example.com:/", "http://example.com/"},
		{"http://example.com:80/", "http://example.com/"},
		{"https://example.com:443", "https://example.com/"},
	} {
		got, _, err := Normalize(c.in)
		if err != nil || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if again, ch, _ := Normalize(got); again != got || ch != 0 {
			t.Errorf("Normalize(%q) = %q, %v: not idempotent", got, again, ch)
		}
	}
}

// TestNormalizeIDNA: a host with non-ASCII characters is looked up as a
// browser does (UTS #46 mapping, then punycode); one IDNA refuses has no
// normal form.
func TestNormalizeIDNA(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://bücher.example/", "https://xn--bcher-kva.example/"},
		{"https://BÜCHER.example/", "https://xn--bcher-kva.example/"},
		{"https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"},
		{"https://XN--BCHER-KVA.example/", "https://xn--bcher-kva.example/"},
		{"https://straße.example/", "https://xn--strae-oqa.example/"}, // IDNA 2008: ß is kept
		{"https://例え.テスト/", "https://xn--r8jz45g.xn--zckzah/"},
		{"https://ｅｘａｍｐｌｅ.com/", "https://example.com/"}, // full-width letters map to ASCII
		{"https://bücher.example:443/ä?ö#ü", "https://xn--bcher-kva.example/%C3%A4?%C3%B6"},
	} {
		got, _, err := Normalize(c.in)
		if err != nil || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"https://\u00ad/", "https://a\u200db.example/x", "https://xn--a.example\u00e9\u0301\u0000/"} {
		if got, _, err := Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q; want an error", in, got)
		}
	}
}

// issueURLs are the eight URLs of issue 21: three URLs, spelt eight ways.
var issueURLs = []string{
	"https://example.com/~user",
	"https://example.com/%7euser",
	"https://example.com/%7Euser",
	"https://example.com/a/../b/c",
	"https://example.com/b/c",
	"https://example.com/caf%c3%a9",
	"https://example.com/caf%C3%A9",
	"HTTPS://EXAMPLE.COM:443/b/./c",
}

func TestIssueURLs(t *testing.T) {
	got := map[string][]string{}
	for _, s := range issueURLs {
		n, _, err := Normalize(s)
		if err != nil {
			t.Fatalf("Normalize(%q): %v", s, err)
		}
		got[n] = append(got[n], s)
	}
	want := []string{"https://example.com/~user", "https://example.com/b/c", "https://example.com/caf%C3%A9"}
	if len(got) != len(want) {
		t.Fatalf("eight URLs give %d normal forms, want 3: %q", len(got), got)
	}
	for _, w := range want {
		if len(got[w]) == 0 {
			t.Errorf("no URL normalised to %q: %q", w, got)
		}
	}
	// The crawler's normal form is the same one.
	for _, s := range issueURLs {
		n, _, _ := Normalize(s)
		if c, err := (Normalizer{}).Normalize(s); err != nil || c != n {
			t.Errorf("Normalizer{}.Normalize(%q) = %q, %v; Normalize gives %q", s, c, err, n)
		}
	}
}

func TestNormalizeFastPathAllocs(t *testing.T) {
	for _, s := range []string{
		"https://www.example.com/products/shoes/red?size=42&colour=red",
		"https://www.example.com:8443/caf%C3%A9/.well-known/a..b?q=%2F",
	} {
		if !normalFast(s) {
			t.Errorf("normalFast(%q) = false", s)
		}
		if n := testing.AllocsPerRun(100, func() {
			if got, _, _ := Normalize(s); got != s {
				t.Fatal("changed")
			}
		}); n != 0 {
			t.Errorf("Normalize of the normal URL %q allocates %v times", s, n)
		}
	}
}

func TestChangesString(t *testing.T) {
	if got := (ChangedEncoded | ChangedFragment | ChangedDots).String(); got != "percent-encoded, fragment removed, dot segments removed" {
		t.Errorf("got %q", got)
	}
}

// TestNormalizer covers each addition of the Normalizer (the crawler's).
func TestNormalizer(t *testing.T) {
	tests := []struct {
		in, want string
		n        Normalizer
	}{
		{in: "HTTP://WWW.Example.COM/a", want: "http://www.example.com/a"},
		{in: "https://example.com", want: "https://example.com/"},
		{in: "https://example.com:443/x", want: "https://example.com/x"},
		{in: "http://example.com:8080/x", want: "http://example.com:8080/x"},
		{in: "https://example.com:80/x", want: "https://example.com:80/x"},
		{in: "https://example.com/a#frag", want: "https://example.com/a"},
		{in: "https://example.com/a/./b/../c", want: "https://example.com/a/c"},
		{in: "https://example.com/a/b/..", want: "https://example.com/a/"},
		{in: "https://example.com/../../x", want: "https://example.com/x"},
		{in: "https://example.com/%7euser/%41", want: "https://example.com/~user/A"},
		{in: "https://example.com/a%2fb", want: "https://example.com/a%2Fb"},
		{in: "https://example.com/a b", want: "https://example.com/a%20b"},
		{in: "https://example.com/ümlat.php", want: "https://example.com/%C3%BCmlat.php"},
		{in: "https://example.com/100%", want: "https://example.com/100%25"},
		{in: "https://bücher.example/", want: "https://xn--bcher-kva.example/"},
		{in: "https://example.com/p?b=2&a=1", want: "https://example.com/p?b=2&a=1"},
		{in: "https://example.com/p?", want: "https://example.com/p"},
		{in: "https://example.com/p?q=a%2cb", want: "https://example.com/p?q=a%2Cb"},
		{in: "https://example.com/p?q=\xe9", want: "https://example.com/p?q=%E9"}, // not UTF-8: encoded, not refused
		{in: "https://user:pw@example.com/p", want: "https://example.com/p"},
		{in: "https://example.com./p", want: "https://example.com/p"},
		{in: "https://example.com/p?x=1&utm=2", want: "https://example.com/p", n: Normalizer{Query: QueryStrip}},
		{in: "https://example.com/p?id=1&utm_source=x&page=2", want: "https://example.com/p?id=1&page=2", n: Normalizer{Query: QueryAllow, Allow: []string{"page", "id"}}},
		{in: "https://example.com/p?utm_source=x", want: "https://example.com/p", n: Normalizer{Query: QueryAllow, Allow: []string{"id"}}},
		{in: "https://example.com/p?%69d=1", want: "https://example.com/p?id=1", n: Normalizer{Query: QueryAllow, Allow: []string{"id"}}},
		{in: "https://[::1]:443/", want: "https://[::1]/"},
	}
	for _, tt := range tests {
		got, err := tt.n.Normalize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if again, err := tt.n.Normalize(got); err != nil || again != got {
			t.Errorf("Normalize(%q) = %q, %v; not idempotent", got, again, err)
		}
	}
	for _, in := range []string{"mailto:a@example.com", "/relative", "ftp://example.com/", "javascript:void(0)", "https:///x", "http://%zz/", "https://.../"} {
		if got, err := (Normalizer{}).Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q; want an error", in, got)
		}
	}
}

func TestResolve(t *testing.T) {
	base, _ := url.Parse("https://example.com/dir/page.html")
	tests := []struct{ ref, want string }{
		{"other", "https://example.com/dir/other"},
		{"../up", "https://example.com/up"},
		{"/abs?x=1#f", "https://example.com/abs?x=1"},
		{"//cdn.example.com/i.png", "https://cdn.example.com/i.png"},
		{"?q=1", "https://example.com/dir/page.html?q=1"},
		{"%7Euser/caf%c3%a9", "https://example.com/dir/~user/caf%C3%A9"},
		{" x y ", "https://example.com/dir/x%20y"},
	}
	for _, tt := range tests {
		got, err := (Normalizer{}).Resolve(base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, bad := range []string{"allow=", "drop", "allow= , "} {
		if _, err := ParseQuery(bad); err == nil {
			t.Errorf("ParseQuery(%q): want error", bad)
		}
	}
	n, err := ParseQuery("allow=a, b")
	if err != nil || n.Query != QueryAllow || len(n.Allow) != 2 || n.Allow[1] != "b" {
		t.Errorf("ParseQuery(allow=a, b) = %+v, %v", n, err)
	}
	if n, err := ParseQuery("strip"); err != nil || n.Query != QueryStrip {
		t.Errorf("ParseQuery(strip) = %+v, %v", n, err)
	}
}

// FuzzNormalize: Normalize never panics, is idempotent, agrees with its
// slow path, reports a change exactly when its result differs, and its
// result has no escape to normalise and no dot segment; the Normalizer
// is idempotent too.
func FuzzNormalize(f *testing.F) {
	for _, s := range append([]string{
		"https://www.example.com/a", "HTTPS://WWW.EXAMPLE.COM:443/a#top", "https://www.example.com/café",
		"https://Bücher.example/ä b", "https://[2001:DB8::1]:80/", "http://a.b:80", "https://a.b:/?q=<>",
		" https://www.example.com/100% ", "https://user@a.b/", "https://a.b/\xff", "https://a.b/\x01",
		"https://a.b:0443/", "https://www.example.com./x", "https://\u00ad/", "https://a.b?x#y#z",
		"https://example.com/a/b/../../../c/./d/..", "https://a.b/%2e%2E/%2e/x", "http://a//..//./",
		"https://a.b/%7e%41%c3%a9?%7e=%2f", "https://example.com/a/../b?x=%zz#f",
	}, issueURLs...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ch, err := Normalize(s)
		sn, sch, serr := normalizeSlow(s, false)
		if normalFast(s) && (sn != s || sch != 0 || serr != nil) {
			t.Fatalf("fast path takes %q as normal, slow path gives %q, %v, %v", s, sn, sch, serr)
		}
		if n != sn || ch != sch || (err == nil) != (serr == nil) {
			t.Fatalf("Normalize(%q) = %q, %v, %v; slow %q, %v, %v", s, n, ch, err, sn, sch, serr)
		}
		if err == nil {
			if (ch == 0) != (n == s) {
				t.Fatalf("Normalize(%q) = %q with changes %v", s, n, ch)
			}
			again, ach, aerr := Normalize(n)
			if again != n || ach != 0 || aerr != nil {
				t.Fatalf("Normalize(%q) = %q, but Normalize(%q) = %q, %v, %v", s, n, n, again, ach, aerr)
			}
			if !normalFast(n) && !strings.Contains(n, "://[") { // (IPv6 hosts take the slow path)
				t.Fatalf("Normalize(%q) = %q, which the fast path does not take as normal", s, n)
			}
			if strings.Contains(n, "#") {
				t.Fatalf("Normalize(%q) = %q keeps a fragment", s, n)
			}
		} else if n != "" || ch != 0 {
			t.Fatalf("Normalize(%q) = %q, %v, %v", s, n, ch, err)
		}
		for _, nz := range []Normalizer{{}, {Query: QueryStrip}, {Query: QueryAllow, Allow: []string{"a"}}} {
			c, err := nz.Normalize(s)
			if err != nil {
				continue
			}
			if again, err := nz.Normalize(c); err != nil || again != c {
				t.Fatalf("%+v.Normalize(%q) = %q, then %q, %v: not idempotent", nz, s, c, again, err)
			}
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"normal", "https://www.example.com/products/shoes/red-running-shoe-4711?size=42&colour=red"},
		{"port", "https://www.example.com:8443/products/shoes/red-running-shoe-4711"},
		{"upper", "HTTPS://WWW.EXAMPLE.COM/products/shoes/red-running-shoe-4711"},
		{"nonascii", "https://www.example.com/produkte/schuhe/rote-laufschuhe-größe-42"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				Normalize(c.s)
			}
		})
	}
}
