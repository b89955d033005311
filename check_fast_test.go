package sitemap

import (
	"errors"
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/check"
)

// fastScopes are the scopes the fast-path tests run under: none, the
// usual ones, and the awkward ones the fast path must leave to the slow
// path (IDN, ports, IPv6, upper case, a scheme net/url would not produce,
// an opaque URL, a host that is not a plain name).
func fastScopes(t testing.TB) []*url.URL {
	t.Helper()
	var out []*url.URL
	out = append(out, nil)
	for _, s := range []string{
		"https://www.example.com/", "https://www.example.com", "http://www.example.com/",
		"https://WWW.Example.COM/sub/sitemap.xml", "https://www.example.com/sub/",
		"https://www.example.com:443/", "http://www.example.com:80/a/", "https://www.example.com:8443/",
		"https://bücher.example/", "https://xn--bcher-kva.example/", "http://[2001:db8::1]:8080/",
		"https://www.example.com/%7Euser/", "https://www.example.com/a%2Fb/c",
	} {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	out = append(out,
		&url.URL{Scheme: "HTTPS", Host: "www.example.com", Path: "/"},
		&url.URL{Scheme: "https", Opaque: "//www.example.com/", Host: "www.example.com"},
		&url.URL{Scheme: "https", Host: "::1", Path: "/"},
		&url.URL{Scheme: "ftp", Host: "www.example.com", Path: "/"},
		&url.URL{Scheme: "https", Path: "/"},
		// U+212A KELVIN SIGN folds to 'k' in strings.EqualFold, not in ASCII.
		&url.URL{Scheme: "https", Host: "\u212a.example", Path: "/"},
	)
	return out
}

// checkFastAgainstSlow fails t when the fast path and the slow path
// disagree on s under scope.
func checkFastAgainstSlow(t testing.TB, s string, scope *url.URL) (fast bool) {
	f := top("loc")
	if p, plain, ok := fastURL(s); ok {
		fast = true
		q, err := checkURL(f, s)
		if err != nil || q != p {
			t.Fatalf("fastURL(%q) = %+v, true; checkURL = %+v, %v", s, p, q, err)
		}
		// appendURL copies a plain loc as it is.
		if esc := string(appendText(nil, s)); plain != (esc == s) {
			t.Fatalf("fastURL(%q) says plain %v; appendText writes %q", s, plain, esc)
		}
		if scope != nil && (EncoderOptions{Scope: scope}).inScopeFast(p) {
			if err := (EncoderOptions{Scope: scope}).checkScope(f, s, p, check.Page); err != nil {
				t.Fatalf("inScopeFast(%q) under %v = true; checkScope = %v", s, scope, err)
			}
		}
	}
	o := EncoderOptions{Scope: scope}
	if got, want := o.checkLoc(f, s, check.Page), o.checkLocSlow(f, s, check.Page); !sameError(got, want) {
		t.Fatalf("checkLoc(%q) under %v = %v; slow path = %v", s, scope, got, want)
	}
	for _, maxLen := range []bool{false, true} {
		if got, want := checkOtherURL(f, s, "H-05", maxLen), checkOtherURLSlow(f, s, "H-05", maxLen); !sameError(got, want) {
			t.Fatalf("checkOtherURL(%q, %v) = %v; slow path = %v", s, maxLen, got, want)
		}
	}
	return fast
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var ea, eb *EntryError
	if errors.As(a, &ea) != errors.As(b, &eb) {
		return false
	}
	if ea != nil {
		return reflect.DeepEqual(*ea, *eb)
	}
	return a.Error() == b.Error()
}

// randomLoc builds a URL-like string from pieces that are mostly valid, so
// that both the fast path and every branch of the slow path are taken.
func randomLoc(r *rand.Rand) string {
	schemes := []string{"https://", "https://", "https://", "http://", "HTTPS://", "Http://", "ftp://", "https:/", "https:", "//", ""}
	hosts := []string{"www.example.com", "www.example.com", "WWW.Example.COM", "example.com", "bücher.example",
		"xn--bcher-kva.example", "a", "", "[2001:db8::1]", "[2001:db8::1]:8080", "www.example.com:443",
		"www.example.com:8443", "www.example.com:", "user@www.example.com", "ex ample.com", "exa%41mple.com", "::1", "a_b~c-d.e"}
	const alphabet = "abcXYZ019-._~!$&'()*+,;=:@/?/%%##AaFf \t\r\n\x00\x7f\"<>[]\\^`{|}"
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteString("https://www.example.com")
	} else {
		b.WriteString(schemes[r.IntN(len(schemes))])
		b.WriteString(hosts[r.IntN(len(hosts))])
	}
	if r.IntN(8) > 0 {
		b.WriteByte('/')
	}
	n := r.IntN(40)
	if r.IntN(50) == 0 {
		n = 2030 + r.IntN(30) // around L-04's 2,048
	}
	if r.IntN(2) == 0 {
		// A clean tail, as most real locs have: the fast path's case.
		for range n {
			switch k := r.IntN(60); {
			case k == 0:
				b.WriteString("%C3%BC")
			case k == 1:
				b.WriteByte('?')
			case k == 2:
				b.WriteByte('#')
			default:
				const clean = "abcdefghijklmnopqrstuvwxyz0123456789-/._~=&"
				b.WriteByte(clean[r.IntN(len(clean))])
			}
		}
		return b.String()
	}
	for range n {
		switch k := r.IntN(40); {
		case k == 0:
			b.WriteString("ü")
		case k == 1:
			b.WriteByte(byte(0x80 + r.IntN(0x80)))
		case k < 28:
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789-/"[r.IntN(38)])
		default:
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
	}
	return b.String()
}

// The fast path agrees with the slow path on 60,000 random URLs under
// every scope, and takes the common case (so this test can fail when the
// fast path stops working, not only when it lies).
func TestCheckFastMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scopes := fastScopes(t)
	n := 60000
	if testing.Short() {
		n = 10000
	}
	fast := 0
	for i := range n {
		if checkFastAgainstSlow(t, randomLoc(r), scopes[i%len(scopes)]) {
			fast++
		}
	}
	if fast < n/10 {
		t.Errorf("the fast path took %d of %d URLs; it should take the common ones", fast, n)
	}
	// The usual shapes take the fast path, in and out of scope.
	for _, s := range []string{
		"https://www.example.com/", "https://www.example.com/products/widget-123?color=blue&size=m",
		"http://www.example.com/%C3%BCmlat.php?q=a%20b#top", "https://www.example.com",
	} {
		if _, _, ok := fastURL(s); !ok {
			t.Errorf("fastURL(%q) = false", s)
		}
	}
	sc, _ := url.Parse("https://www.example.com/")
	p, _, _ := fastURL("https://www.example.com/a?b#c")
	if !(EncoderOptions{Scope: sc}).inScopeFast(p) {
		t.Error("inScopeFast refused an in-scope loc")
	}
}

// FuzzCheckFast: on any input, under any scope, the fast path accepts
// only what the slow path accepts, with the same parts, and the checks
// give exactly the slow path's results.
func FuzzCheckFast(f *testing.F) {
	for i, s := range []string{
		"https://www.example.com/", "https://www.example.com/a?x=1&y=2#f", "http://example.com",
		"https://www.example.com/100%sure", "https://www.example.com/a#b#c", "https://www.example.com:443/",
		"https://WWW.EXAMPLE.COM/a", "https://bücher.example/", "https://xn--bcher-kva.example/x",
		"http://[2001:db8::1]:8080/x", "https://user@www.example.com/", "https:///x", "https://a/%zz",
		"https://www.example.com/\x00", " https://www.example.com/", "https://www.example.com/a b",
		"https://www.example.com/sub/x", "https://www.example.com/%7Euser/x", "https://a_b~c.example/", "https://k.example/",
		"https://www.example.com/it's?a=1&b=2", "https://www.example.com/a?b?c&d#e?f&g'", "https://www.example.com/abcdefgh?ijklmnop&qrstuvwx#yz",
	} {
		f.Add(s, uint8(i))
	}
	scopes := fastScopes(f)
	f.Fuzz(func(t *testing.T, s string, k uint8) {
		checkFastAgainstSlow(t, s, scopes[int(k)%len(scopes)])
	})
}

// BenchmarkCheckLoc compares checkLoc (fast path) with checkLocSlow on a
// typical loc, with and without a scope; run them in the same process to
// compare on a loaded machine.
func BenchmarkCheckLoc(b *testing.B) {
	sc, _ := url.Parse("https://www.example.com/")
	const s = "https://www.example.com/products/widget-123?color=blue&size=m"
	for _, bc := range []struct {
		name string
		o    EncoderOptions
		fn   func(EncoderOptions, field, string, check.Kind) error
		s    string
	}{
		{"fast-path-only", EncoderOptions{}, EncoderOptions.checkLoc, "https://www.example.com/section-7/page-123456.html"},
		{"fast", EncoderOptions{}, EncoderOptions.checkLoc, s},
		{"slow", EncoderOptions{}, EncoderOptions.checkLocSlow, s},
		{"fast-scope", EncoderOptions{Scope: sc}, EncoderOptions.checkLoc, s},
		{"slow-scope", EncoderOptions{Scope: sc}, EncoderOptions.checkLocSlow, s},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := top("loc")
			for b.Loop() {
				if err := bc.fn(bc.o, f, bc.s, check.Page); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
