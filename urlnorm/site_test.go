package urlnorm

import (
	"net/url"
	"testing"
)

func TestDisplay(t *testing.T) {
	for raw, want := range map[string]string{
		"https://www.example.com/sitemap.xml": "https://www.example.com",
		"https://WWW.Example.com:443/s.xml":   "https://www.example.com",
		"http://www.example.com:80/s.xml":     "http://www.example.com",
		"http://127.0.0.1:8080/s.xml":         "http://127.0.0.1:8080",
		"https://www.example.com:80/s.xml":    "https://www.example.com:80",
		"http://www.example.com:443/s.xml":    "http://www.example.com:443",
		"https://www.example.com./s.xml":      "https://www.example.com.",
		"https://bücher.example/":             "https://xn--bcher-kva.example",
		"http://[2001:DB8::1]:8080/":          "http://[2001:db8::1]:8080",
		"ftp://www.example.com/":              "",
		"https:///a":                          "",
	} {
		if got := Display(raw); got != want {
			t.Errorf("Display(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestSite: the site of a URL is its scheme, host after IDNA and in
// lower case, and effective port; no www or subdomain rule: another
// name is another site.
func TestSite(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://www.example.com/a", "https://WWW.EXAMPLE.COM:443/b", true},
		{"https://bücher.example/a", "https://xn--bcher-kva.example/b", true},
		{"https://BÜCHER.example/a", "https://xn--bcher-kva.example:443/b", true},
		{"https://www.example.com/", "http://www.example.com/", false},
		{"https://www.example.com/", "https://example.com/", false},
		{"https://www.example.com/", "https://www.example.com:8443/", false},
		{"https://www.example.com/", "https://www.example.com./", false},
		{"https://www.example.com/", "mailto:a@www.example.com", false},
		{"https://user@www.example.com/", "https://www.example.com/", true},
	} {
		if got := SameSite(c.a, c.b); got != c.same {
			t.Errorf("SameSite(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
	u, _ := url.Parse("https://Bücher.example:0443/x")
	s, ok := SiteOf(u)
	if want := (Site{"https", "xn--bcher-kva.example", 443}); !ok || s != want {
		t.Errorf("SiteOf = %+v, %v; want %+v", s, ok, want)
	}
	if got := s.String(); got != "https://xn--bcher-kva.example:443" {
		t.Errorf("String = %q", got)
	}
	if got := s.HostPort(true); got != "xn--bcher-kva.example" {
		t.Errorf("HostPort(true) = %q", got)
	}
	if got := (Site{"http", "::1", 8080}).HostPort(true); got != "[::1]:8080" {
		t.Errorf("HostPort of IPv6 = %q", got)
	}
}

func TestHost(t *testing.T) {
	for in, want := range map[string]string{
		"www.example.com": "www.example.com", "WWW.Example.COM": "www.example.com",
		"Bücher.example": "xn--bcher-kva.example", "example.com.": "example.com.", "": "",
	} {
		if got := Host(in); got != want {
			t.Errorf("Host(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Host("www.example.com") }); n != 0 {
		t.Errorf("Host of a lower-case ASCII name allocates %v times", n)
	}
}

// TestSameSiteInput: the cases input's reading of index children met.
func TestSameSiteInput(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"https://example.com/a/index.xml", "https://example.com/b/s.xml", true}, // I-06 only
		{"https://example.com/index.xml", "https://EXAMPLE.com:443/s.xml", true},
		{"http://example.com/index.xml", "http://example.com:80/s.xml", true},
		{"https://example.com./index.xml", "https://example.com/s.xml", false}, // another host, as for L-09 and I-05
		{"https://xn--bcher-kva.example/index.xml", "https://BÜCHER.example/s.xml", true},
		{"https://example.com/index.xml", "http://example.com/s.xml", false},
		{"https://example.com/index.xml", "https://example.com:8443/s.xml", false},
		{"https://example.com/index.xml", "https://www.example.com/s.xml", false},
		{"https://example.com/index.xml", "https://example.com.evil.net/s.xml", false},
		{"https://example.com/index.xml", "https://user@evil.net/s.xml", false},
	} {
		if got := SameSite(tt.a, tt.b); got != tt.want {
			t.Errorf("SameSite(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for s, want := range map[string]bool{"http://x": true, "HTTPS://x": true, "https:/x": false, "ftp://x": false, "http": false, "": false} {
		if IsHTTP(s) != want {
			t.Errorf("IsHTTP(%q) = %v", s, !want)
		}
	}
}

func TestOnHost(t *testing.T) {
	for _, c := range []struct {
		u, host string
		on      bool
	}{
		{"https://www.example.com/a", "www.example.com", true},
		{"https://WWW.Example.com:8443/a", "www.example.com", true}, // no port: any port
		{"https://www.example.com/a", "WWW.EXAMPLE.COM", true},
		{"https://xn--bcher-kva.example/a", "bücher.example", true},
		{"https://bücher.example/a", "XN--BCHER-KVA.example", true},
		{"https://www.example.com/a", "www.example.com:443", true},
		{"https://www.example.com:0443/a", "www.example.com:443", true},
		{"https://www.example.com:8443/a", "www.example.com:443", false},
		{"http://[2001:db8::1]:8080/a", "[2001:DB8::1]:8080", true},
		{"https://example.com/a", "www.example.com", false},
		{"https://www.example.com./a", "www.example.com", false},
		{"ftp://www.example.com/a", "www.example.com", false},
		{"https://www.example.com/a", "", false},
		{"https://www.example.com/a", "www.example.com:http", false},
	} {
		u, err := url.Parse(c.u)
		if err != nil {
			t.Fatal(err)
		}
		if got := OnHost(u, c.host); got != c.on {
			t.Errorf("OnHost(%q, %q) = %v, want %v", c.u, c.host, got, c.on)
		}
	}
}
