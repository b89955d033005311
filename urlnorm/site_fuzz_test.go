package urlnorm_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// origin is the reference for Same: net/url's scheme, host and port, with
// the host compared as the scope rules compare it (urlnorm.Host: lower case,
// punycode, a trailing dot kept) and the port as a number, the scheme's
// default when absent. ok is false for a URL that does not parse or is no
// http(s) URL with a host.
func origin(raw string) (scheme, host string, port int, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "", "", 0, false
	}
	scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Port() != "":
		port, err = strconv.Atoi(u.Port())
		if err != nil {
			return "", "", 0, false
		}
	case scheme == "http":
		port = 80
	case scheme == "https":
		port = 443
	}
	return scheme, urlnorm.Host(u.Hostname()), port, scheme == "http" || scheme == "https"
}

func refSame(a, b string) (same, ok bool) {
	sa, ha, pa, oka := origin(a)
	sb, hb, pb, okb := origin(b)
	return sa == sb && ha == hb && pa == pb, oka && okb
}

// FuzzSame: SameSite is symmetric, holds for a URL and itself, agrees with
// net/url's scheme, host and effective port (see origin) for http(s) URLs,
// and with the scope rule's I-05 (check.Scope.Check of an index child) for
// URLs that check.URL accepts: a child the validator reports as on another
// site is one that input and fetch do not follow, and the other way round.
func FuzzSame(f *testing.F) {
	for _, p := range [][2]string{
		{"https://www.example.com/sitemap.xml", "https://www.example.com/a.xml"},
		{"https://www.example.com/", "https://WWW.Example.COM:443/a.xml"},
		{"https://www.example.com/", "https://www.example.com./a.xml"},
		{"https://www.example.com/", "http://www.example.com/a.xml"},
		{"https://www.example.com/", "https://www.example.com:0443/a.xml"},
		{"https://bücher.example/", "https://xn--bcher-kva.example/a"},
		{"http://[2001:db8::1]:8080/", "http://[2001:DB8::1]:8080/x"},
		{"https://a.example/", "https://a.example@b.example/"},
		{"https://b%C3%BCcher.example/", "https://xn--bcher-kva.example/"},
	} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		same := urlnorm.SameSite(a, b)
		if same != urlnorm.SameSite(b, a) {
			t.Fatalf("SameSite(%q, %q) = %v, not symmetric", a, b, same)
		}
		if want, ok := refSame(a, b); ok && same != want {
			t.Fatalf("SameSite(%q, %q) = %v; net/url's scheme, host and port say %v", a, b, same, want)
		}
		if _, _, _, ok := origin(a); ok && !urlnorm.SameSite(a, a) {
			t.Fatalf("SameSite(%q, itself) = false", a)
		}
		if urlnorm.IsHTTP(a) != (len(a) >= 7 && strings.EqualFold(a[:7], "http://") || len(a) >= 8 && strings.EqualFold(a[:8], "https://")) {
			t.Fatalf("IsHTTP(%q) = %v", a, urlnorm.IsHTTP(a))
		}
		if _, pr := check.URL(a); !pr.OK() {
			return
		}
		pb, pr := check.URL(b)
		if !pr.OK() {
			return
		}
		u, _ := url.Parse(a)
		sc, err := check.NewScope(u)
		if err != nil {
			t.Fatalf("check.URL accepts %q, NewScope fails: %v", a, err)
		}
		pr = sc.Check(pb, check.Child)
		if i05 := pr != nil && pr.Rule == "I-05"; i05 == same {
			t.Fatalf("SameSite(%q, %q) = %v, but the scope rule says I-05 %v: %+v", a, b, same, i05, pr)
		}
	})
}

// TestSamePortNumber: ports compare as numbers, as the scope rule compares
// them. ":0443" was another site for Same (input and fetch did not follow
// the child) but not for check.Scope (the validator reported nothing): the
// child went unread without an error; found by FuzzSame.
func TestSamePortNumber(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://www.example.com/", "https://www.example.com:0443/a.xml", true},
		{"https://www.example.com:00443/", "https://www.example.com:443/a.xml", true},
		{"http://www.example.com:080/", "http://www.example.com/a.xml", true},
		{"https://www.example.com:0/", "https://www.example.com:000/", true},
		{"https://www.example.com:0/", "https://www.example.com/", false},
		{"https://www.example.com:4430/", "https://www.example.com:443/", false},
	} {
		if got := urlnorm.SameSite(tc.a, tc.b); got != tc.same {
			t.Errorf("SameSite(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
	if o := urlnorm.Origin("https://Www.Example.com:0443/x"); o != "https://www.example.com:443" {
		t.Errorf("Origin = %q", o)
	}
}
