package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/urlnorm"
)

// portOf is the port of a test server's URL.
func portOf(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Port()
}

// TestScopeSameSiteWalk: with a same-site Scope a walk stays on its start's
// site (here 127.0.0.1 on one port): a redirect of the start to the other
// port, an index child there (even with AllowOffSite) and a robots.txt
// Sitemap: line naming it are refused before anything is requested there,
// each a FETCH-SCOPE error; Allow lets the other port in. Without a Scope
// the walk reads them all.
func TestScopeSameSiteWalk(t *testing.T) {
	a, b := newSite(t), newSite(t)
	a.handle("/hop.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/s.xml", http.StatusFound)
	})
	a.serve("/index.xml", "application/xml", index(a.URL+"/s1.xml", b.URL+"/s.xml"))
	a.serve("/s1.xml", "application/xml", urlset(a.URL+"/p1"))
	a.serve("/robots.txt", "text/plain", []byte("User-agent: *\nSitemap: "+b.URL+"/s.xml\nSitemap: "+a.URL+"/s1.xml\n"))
	b.serve("/s.xml", "application/xml", urlset(b.URL+"/p2"))

	same := fastOpts()
	same.Attempts = 1
	same.Scope = Scope{SameSite: true}
	offSite := same
	offSite.AllowOffSite = true
	open := fastOpts()
	open.Attempts = 1
	open.AllowOffSite = true
	allow := offSite
	allow.Scope.Allow = []string{"127.0.0.1:" + portOf(t, b.URL)}

	for _, tc := range []struct {
		name, start string
		o           Options
		want        []string
		refused     bool
	}{
		{"redirect, no scope", a.URL + "/hop.xml", open, []string{b.URL + "/p2"}, false},
		{"redirect, same-site", a.URL + "/hop.xml", same, nil, true},
		{"redirect, allowed", a.URL + "/hop.xml", allow, []string{b.URL + "/p2"}, false},
		{"index child, no scope", a.URL + "/index.xml", open, []string{a.URL + "/p1", b.URL + "/p2"}, false},
		{"index child, same-site", a.URL + "/index.xml", offSite, []string{a.URL + "/p1"}, true},
		{"index child, allowed", a.URL + "/index.xml", allow, []string{a.URL + "/p1", b.URL + "/p2"}, false},
		{"robots.txt, no scope", a.URL + "/robots.txt", open, []string{a.URL + "/p1", b.URL + "/p2"}, false},
		{"robots.txt, same-site", a.URL + "/robots.txt", same, []string{a.URL + "/p1"}, true},
		{"robots.txt, allowed", a.URL + "/robots.txt", allow, []string{a.URL + "/p1", b.URL + "/p2"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := b.hitCount("/s.xml")
			r := walk(t, tc.start, tc.o)
			got := r.locs()
			slices.Sort(got)
			slices.Sort(tc.want)
			if !slices.Equal(got, tc.want) {
				t.Errorf("URLs %q, want %q", got, tc.want)
			}
			d := r.diag("FETCH-SCOPE")
			if !tc.refused {
				if d != nil {
					t.Errorf("FETCH-SCOPE: %v", d)
				}
				return
			}
			if hits := b.hitCount("/s.xml") - before; hits != 0 {
				t.Errorf("the other port was requested %d times", hits)
			}
			what := b.URL + "/s.xml is out of scope"
			if strings.HasPrefix(tc.name, "redirect") {
				what = "redirected to " + b.URL + "/s.xml, which is out of scope"
			}
			if d == nil || d.Severity.String() != "error" || !strings.Contains(d.Message, what) ||
				!strings.Contains(d.Message, "another site than "+a.URL+" (same-site scope, FETCH-SCOPE)") {
				t.Errorf("FETCH-SCOPE = %v", d)
			}
		})
	}
}

// TestScopeAllowList: an allow-list without SameSite is the only hosts a
// Client requests; entries of every documented shape match what they say.
func TestScopeAllowList(t *testing.T) {
	for _, tc := range []struct {
		allow []string
		url   string
		ok    bool
	}{
		{[]string{"example.com"}, "https://example.com/a", true},
		{[]string{"example.com"}, "http://EXAMPLE.com:80/a", true},
		{[]string{"example.com"}, "https://example.com:8443/a", false},
		{[]string{"example.com"}, "https://www.example.com/a", false},
		{[]string{"example.com:8443"}, "https://example.com:8443/a", true},
		{[]string{"example.com:8443"}, "https://example.com/a", false},
		{[]string{".example.com"}, "https://www.example.com/a", true},
		{[]string{"*.example.com"}, "https://a.b.example.com/a", true},
		{[]string{"*.example.com"}, "https://example.com/a", true},
		{[]string{".example.com"}, "https://badexample.com/a", false},
		{[]string{".example.com:81"}, "http://a.example.com:81/", true},
		{[]string{"[2001:db8::1]:8080"}, "http://[2001:DB8::1]:8080/", true},
		{[]string{"2001:db8::1"}, "http://[2001:db8::1]/", true},
		{[]string{"bücher.example"}, "https://xn--bcher-kva.example/", true},
		{[]string{"a.example", "b.example"}, "https://b.example/", true},
		{[]string{"a.example"}, "https://a.example@b.example/", false},
	} {
		sc, err := Scope{Allow: tc.allow}.compile()
		if err != nil {
			t.Fatalf("%q: %v", tc.allow, err)
		}
		u, _ := url.Parse(tc.url)
		if got := sc.check(u, tc.url) == nil; got != tc.ok {
			t.Errorf("Allow %q, %s: allowed %v, want %v", tc.allow, tc.url, got, tc.ok)
		}
	}
	for _, bad := range []string{"", "https://example.com/", "example.com:0", "example.com:x", "a b", "example.com/path", "user@example.com"} {
		if _, err := NewClient(ClientOptions{Scope: Scope{Allow: []string{bad}}}); err == nil {
			t.Errorf("Allow %q: no error", bad)
		}
	}
}

// TestScopeNoPrivate: with NoPrivate, a test server on 127.0.0.1 is refused
// by its literal address and through a name that resolves to it
// (localhost: the check is on the address dialled, after DNS), once,
// without retries, and without reaching the server; without it the same
// requests are answered.
func TestScopeNoPrivate(t *testing.T) {
	a := newSite(t)
	a.serve("/s.xml", "application/xml", urlset(a.URL+"/p"))
	byName := "http://localhost:" + portOf(t, a.URL) + "/s.xml"

	open := newTestClient(t, ClientOptions{Attempts: 3, RetryBase: time.Millisecond})
	for _, u := range []string{a.URL + "/s.xml", byName} {
		resp, err := open.Get(context.Background(), u, GetOptions{})
		if err != nil {
			t.Fatalf("without NoPrivate, %s: %v", u, err)
		}
		resp.Close()
	}
	hits := a.hitCount("/s.xml")

	c := newTestClient(t, ClientOptions{Attempts: 3, RetryBase: time.Millisecond, Scope: Scope{NoPrivate: true}})
	for _, tc := range []struct{ url, want string }{
		{a.URL + "/s.xml", "its host is a loopback address (no-private scope, FETCH-SCOPE)"},
		{byName, "a loopback address (no-private scope, FETCH-SCOPE)"},
		{"http://[::ffff:10.1.2.3]:1/", "a private address"},
		{"http://169.254.169.254/latest/meta-data/", "a link-local address"},
	} {
		_, err := c.Get(context.Background(), tc.url, GetOptions{})
		var se *ScopeError
		if KindOf(err) != KindScope || !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (kind %v), want KindScope with %q", tc.url, err, KindOf(err), tc.want)
		}
	}
	if n := a.hitCount("/s.xml") - hits; n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
	if _, err := NewClient(ClientOptions{HTTPClient: &http.Client{}, Scope: Scope{NoPrivate: true}}); err == nil {
		t.Error("NoPrivate with HTTPClient: no error")
	}
}

// TestScopeNoPrivateRedirect: a redirect to a private address is refused
// when it is met, whether it names the address or a name resolving to it.
// The test servers are on 127.0.0.1, so the test lets the client dial the
// first one's address; the redirects go to the second one through the name
// localhost and its address, or elsewhere, which the dial-time check
// refuses.
func TestScopeNoPrivateRedirect(t *testing.T) {
	a, b := newSite(t), newSite(t)
	port := portOf(t, b.URL)
	b.serve("/s.xml", "application/xml", urlset(b.URL+"/p"))
	for _, to := range []string{"http://localhost:" + port + "/s.xml", b.URL + "/s.xml", "http://127.0.0.2:" + port + "/s.xml", "http://10.0.0.1/"} {
		a.handle("/hop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) })
		c := newTestClient(t, ClientOptions{Attempts: 3, RetryBase: time.Millisecond, Scope: Scope{NoPrivate: true}})
		// Let the first request through to the test server's own address.
		self := strings.TrimPrefix(a.URL, "http://")
		tr := c.hc.Transport.(*http.Transport)
		d := &net.Dialer{Control: func(network, address string, rc syscall.RawConn) error {
			if address == self {
				return nil
			}
			return control(network, address, rc)
		}}
		tr.DialContext = d.DialContext
		c.scope.noPrivate = false // the literal 127.0.0.1 of the first URL
		before := b.hitCount("/s.xml")
		_, err := c.Get(context.Background(), a.URL+"/hop", GetOptions{})
		if KindOf(err) != KindScope || !strings.Contains(err.Error(), "address (no-private scope, FETCH-SCOPE)") {
			t.Errorf("redirect to %s: %v (kind %v), want KindScope", to, err, KindOf(err))
		}
		if n := b.hitCount("/s.xml") - before; n != 0 {
			t.Errorf("redirect to %s: reached the server %d times", to, n)
		}
		if n := a.hitCount("/hop"); n != 1 {
			t.Errorf("redirect to %s: /hop requested %d times, want 1 (no retry)", to, n)
		}
		a.mu.Lock()
		a.hits["/hop"] = 0
		a.mu.Unlock()
	}
}

// TestPrivateAddr: the kinds of addresses NoPrivate refuses, and public
// ones it lets through.
func TestPrivateAddr(t *testing.T) {
	for addr, private := range map[string]bool{
		"127.0.0.1": true, "127.9.9.9": true, "::1": true, "10.0.0.1": true, "172.16.5.5": true,
		"192.168.1.1": true, "fd00::1": true, "169.254.169.254": true, "fe80::1": true,
		"0.0.0.0": true, "0.1.2.3": true, "::": true, "100.64.0.1": true, "224.0.0.1": true,
		"255.255.255.255": true, "::ffff:127.0.0.1": true, "64:ff9b::a00:1": true, "ff02::1": true,
		"8.8.8.8": false, "93.184.216.34": false, "2606:4700::1111": false, "172.32.0.1": false,
		"100.128.0.1": false, "64:ff9b::808:808": false,
	} {
		if got := privateAddr(netip.MustParseAddr(addr)) != ""; got != private {
			t.Errorf("%s: private %v, want %v", addr, got, private)
		}
	}
}

// TestRedirectOtherScheme: a redirect to a file: or gopher: URL fails at
// once (one request, no retries) with a message naming it; a start URL of
// another scheme is a bad URL, not a network error to retry.
func TestRedirectOtherScheme(t *testing.T) {
	a := newSite(t)
	c := newTestClient(t, ClientOptions{Attempts: 3, RetryBase: time.Millisecond})
	for _, to := range []string{"file:///etc/passwd", "gopher://127.0.0.1:70/1"} {
		path := "/to-" + strings.SplitN(to, ":", 2)[0]
		a.handle(path, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) })
		_, err := c.Get(context.Background(), a.URL+path, GetOptions{})
		if KindOf(err) != KindRedirect || !strings.Contains(err.Error(), "redirected to "+to+", which is not an http(s) URL; not followed") {
			t.Errorf("redirect to %s: %v (kind %v)", to, err, KindOf(err))
		}
		if n := a.hitCount(path); n != 1 {
			t.Errorf("redirect to %s: requested %d times, want 1", to, n)
		}
		_, err = c.Get(context.Background(), to, GetOptions{})
		if KindOf(err) != KindBadURL || !strings.Contains(err.Error(), "is not an http(s) URL") {
			t.Errorf("Get(%s): %v (kind %v)", to, err, KindOf(err))
		}
	}
}

// TestWalkOtherSchemeChild: an index child file:///etc/passwd is reported
// as what it is, a URL of another scheme (L-16), not as a relative URL,
// and is not requested, AllowOffSite or not.
func TestWalkOtherSchemeChild(t *testing.T) {
	a := newSite(t)
	a.serve("/index.xml", "application/xml", index("file:///etc/passwd", "gopher://x.example/1", a.URL+"/s.xml", "/s.xml"))
	a.serve("/s.xml", "application/xml", urlset(a.URL+"/p"))
	for _, off := range []bool{false, true} {
		o := fastOpts()
		o.AllowOffSite = off
		r := walk(t, a.URL+"/index.xml", o)
		var l16 []string
		for _, d := range r.diags {
			if strings.Contains(d.Message, "relative URL") && !strings.Contains(d.Message, `"/s.xml"`) {
				t.Errorf("AllowOffSite %v: %v", off, d)
			}
			if d.Rule == "L-16" {
				l16 = append(l16, d.Message)
			}
			if d.Rule == "FETCH-HTTP" || d.Rule == "I-05" {
				t.Errorf("AllowOffSite %v: %v", off, d)
			}
		}
		// The decoder skips such an entry (L-16) before the walk sees it.
		if len(l16) != 2 || !strings.Contains(l16[0], `"file:///etc/passwd" has the scheme "file"; sitemaps list only http and https URLs; entry skipped`) {
			t.Errorf("AllowOffSite %v: L-16 %q", off, l16)
		}
		if got := r.locs(); !slices.Equal(got, []string{a.URL + "/p"}) {
			t.Errorf("AllowOffSite %v: URLs %q", off, got)
		}
	}
}

// FuzzScopeAllow: any Allow entry either fails to compile or checks any
// URL without panicking; an entry that compiles allows the URL that
// spells it (a host on 80/443, or host:port), and a same-site scope always
// allows a URL its own anchor.
func FuzzScopeAllow(f *testing.F) {
	for _, s := range [][2]string{
		{"example.com", "https://example.com/a"},
		{".example.com:8080", "http://a.example.com:8080/"},
		{"*.Example.COM", "https://b.example.com/"},
		{"[2001:db8::1]:8080", "http://[2001:db8::1]:8080/"},
		{"bücher.example", "https://xn--bcher-kva.example/"},
		{"a:b:c", "http://a/"},
		{"", "file:///etc/passwd"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, entry, raw string) {
		sc, err := Scope{Allow: []string{entry}}.compile()
		u, uerr := url.Parse(raw)
		if uerr != nil {
			return
		}
		if err == nil {
			sc.check(u, raw)
			e := sc.allow[0]
			spelt := e.host
			if strings.Contains(spelt, ":") {
				spelt = "[" + spelt + "]"
			}
			scheme := "https://"
			if e.port != 0 {
				spelt += ":" + strconv.Itoa(e.port)
				scheme = "http://"
			}
			if own, perr := url.Parse(scheme + spelt + "/"); perr == nil && own.Hostname() != "" {
				if st, ok := urlnorm.SiteOf(own); ok && st.Host == e.host && sc.check(own, "") != nil {
					t.Fatalf("Allow %q (%+v) refuses %s", entry, e, own)
				}
			}
		}
		same, _ := Scope{SameSite: true}.compile()
		if _, ok := urlnorm.SiteOf(u); ok && u.Host != "" && same.check(u, raw) != nil {
			t.Fatalf("same-site scope anchored at %q refuses it", raw)
		}
	})
}
