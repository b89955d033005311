package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/sitemapkit/sitemap/urlnorm"
)

// Scope says which URLs a [Client] may request and which addresses it may
// connect to, for a program that fetches URLs it did not choose (a
// service that reads its users' sitemaps must not be steered into its own
// network). The zero value allows every http(s) URL on every address, as
// the command line does by default.
//
// Every request and every redirect it meets is checked before it is made;
// a refusal is an *Error of KindScope, never retried, whose message says
// which rule refused what (FETCH-SCOPE). URLs that are not http(s) are
// refused whatever the Scope (KindBadURL, or KindRedirect for a redirect).
type Scope struct {
	// SameSite allows only the site (scheme, host and port, as I-05
	// compares them) of the request's anchor: GetOptions.Site, or the URL
	// asked for. A walk anchors every request at its start URL, so
	// robots.txt Sitemap: lines, index children and redirects on another
	// site are refused. http://example.com and https://example.com, or
	// example.com and www.example.com, are different sites: list the
	// other one in Allow.
	SameSite bool
	// Allow lists what may be requested besides (or, without SameSite,
	// instead of everything). Each entry is one of:
	//
	//	example.com        that host on ports 80 and 443
	//	example.com:8080   that host on that port
	//	.example.com       that domain and every name below it, on ports 80 and 443
	//	*.example.com      the same
	//	.example.com:8080  the same on that port
	//	[2001:db8::1]:8080 an IPv6 address (brackets needed with a port)
	//
	// Hosts compare case-insensitively, internationalised names in their
	// punycode form. An entry of another shape makes NewClient fail.
	// When SameSite is false and Allow is empty, every host is allowed.
	Allow []string
	// NoPrivate refuses connections to loopback (127.0.0.0/8, ::1),
	// private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
	// (169.254/16, fe80::/10), shared (100.64/10), unspecified (0.0.0.0/8,
	// ::), multicast and broadcast addresses, IPv4-mapped IPv6 forms
	// included. It is checked on the address each connection is made to,
	// after DNS resolution, so a name that resolves (or is rebound) to such
	// an address is refused too, and every redirect makes its own
	// connections. The proxy of the environment (HTTP_PROXY, …) is then
	// not used, since a proxy resolves names where the Client cannot check
	// them. It needs the Client's own transport: NewClient fails when it is
	// set with ClientOptions.HTTPClient.
	NoPrivate bool
}

// Check reports the first Allow entry of no shape Allow documents;
// NewClient makes the same check.
func (s Scope) Check() error {
	_, err := s.compile()
	return err
}

// ScopeError is why a Client's [Scope] refused a URL or an address; it is
// the Err of the *Error of KindScope that Get returns.
type ScopeError struct {
	URL      string // the URL refused (redacted), or "" for an address
	Addr     string // the address refused (NoPrivate), or ""
	Redirect bool   // URL is the target of a redirect
	Reason   string // for people: "another site than https://a.example (same-site scope, FETCH-SCOPE)"
}

func (e *ScopeError) Error() string {
	switch {
	case e.Redirect:
		return "redirected to " + e.URL + ", which is out of scope: " + e.Reason + "; not followed"
	case e.URL != "":
		return e.URL + " is out of scope: " + e.Reason + "; not requested"
	}
	return "connection to " + e.Addr + " refused: " + e.Reason
}

// allowEntry is a parsed Scope.Allow entry. port 0 means 80 and 443.
type allowEntry struct {
	host   string
	suffix bool // host and every name below it
	port   int
}

// scope is a Scope ready to check URLs.
type scope struct {
	sameSite  bool
	allow     []allowEntry
	noPrivate bool
}

// compile checks the Allow entries; nil when s restricts nothing.
func (s Scope) compile() (*scope, error) {
	if !s.SameSite && len(s.Allow) == 0 && !s.NoPrivate {
		return nil, nil
	}
	sc := &scope{sameSite: s.SameSite, noPrivate: s.NoPrivate}
	for _, a := range s.Allow {
		e, err := parseAllow(a)
		if err != nil {
			return nil, err
		}
		sc.allow = append(sc.allow, e)
	}
	return sc, nil
}

func parseAllow(a string) (allowEntry, error) {
	bad := func(why string) (allowEntry, error) {
		return allowEntry{}, fmt.Errorf("allowed host %q: %s; want example.com, example.com:8080, .example.com or [2001:db8::1]:8080", a, why)
	}
	s := strings.TrimSpace(a)
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		// A URL read as host:port said "the port is not a number".
		return bad(fmt.Sprintf("a URL, not a host; give its host, %s", u.Host))
	}
	var e allowEntry
	switch {
	case strings.HasPrefix(s, "*."):
		e.suffix, s = true, s[2:]
	case strings.HasPrefix(s, "."):
		e.suffix, s = true, s[1:]
	}
	host := s
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, perr := strconv.Atoi(p)
		if perr != nil || n <= 0 || n > 65535 {
			return bad("the port is not a number from 1 to 65535")
		}
		host, e.port = h, n
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		host = s[1 : len(s)-1]
	}
	if host == "" || strings.ContainsAny(host, "/?#@ \t") || (strings.Contains(host, ":") && !isIP(host)) {
		return bad("not a host name")
	}
	e.host = urlnorm.Host(host)
	return e, nil
}

func isIP(h string) bool {
	_, err := netip.ParseAddr(h)
	return err == nil
}

func (e allowEntry) match(host string, port int) bool {
	if e.port == 0 {
		if port != 80 && port != 443 {
			return false
		}
	} else if port != e.port {
		return false
	}
	if host == e.host {
		return true
	}
	return e.suffix && strings.HasSuffix(host, e.host) && host[len(host)-len(e.host)-1] == '.'
}

// check returns the *ScopeError of u, requested with anchor as its site
// (see Scope.SameSite), or nil when s allows it. A nil s allows all.
func (s *scope) check(u *url.URL, anchor string) *ScopeError {
	if s == nil {
		return nil
	}
	site, ok := urlnorm.SiteOf(u)
	if !ok {
		return &ScopeError{URL: u.Redacted(), Reason: "not an http(s) URL with a host (FETCH-SCOPE)"}
	}
	if s.noPrivate {
		if a, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
			if what := privateAddr(a); what != "" {
				return &ScopeError{URL: u.Redacted(), Reason: "its host is " + what + " address (no-private scope, FETCH-SCOPE)"}
			}
		}
	}
	if !s.sameSite && len(s.allow) == 0 {
		return nil
	}
	anchorSite, _ := urlnorm.ParseSite(anchor)
	if s.sameSite && site == anchorSite {
		return nil
	}
	for _, e := range s.allow {
		if e.match(site.Host, site.Port) {
			return nil
		}
	}
	why := "its host is not on the allow-list (FETCH-SCOPE)"
	if s.sameSite {
		why = "another site than " + anchorSite.String() + " (same-site scope, FETCH-SCOPE)"
		if len(s.allow) > 0 {
			why = "another site than " + anchorSite.String() + ", not on the allow-list (same-site scope, FETCH-SCOPE)"
		}
	}
	return &ScopeError{URL: u.Redacted(), Reason: why}
}

// control is the net.Dialer Control of a NoPrivate scope: it sees the
// resolved address of every connection.
func control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &ScopeError{Addr: address, Reason: "not an IP address and port (no-private scope, FETCH-SCOPE)"}
	}
	if what := privateAddr(ap.Addr()); what != "" {
		return &ScopeError{Addr: address, Reason: what + " address (no-private scope, FETCH-SCOPE)"}
	}
	return nil
}

var (
	sharedNet = netip.MustParsePrefix("100.64.0.0/10")
	thisNet   = netip.MustParsePrefix("0.0.0.0/8")
	nat64Net  = netip.MustParsePrefix("64:ff9b::/96")
)

// privateAddr names the kind of a address NoPrivate refuses ("a
// loopback", "a private", …), or "" for a public one.
func privateAddr(a netip.Addr) string {
	a = a.Unmap()
	if nat64Net.Contains(a) {
		// An IPv4 address embedded in the well-known NAT64 prefix.
		b := a.As16()
		a = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	switch {
	case a.IsLoopback():
		return "a loopback"
	case a.IsPrivate():
		return "a private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local"
	case a.IsUnspecified(), thisNet.Contains(a):
		return "an unspecified"
	case sharedNet.Contains(a):
		return "a shared (carrier-grade NAT)"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "a broadcast"
	}
	return ""
}
