package check

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Scope is where a sitemap (or an index) is served, as the scope rules
// compare it (L-15): scheme, host, effective port and directory. Making
// one does not allocate unless the host needs lower-casing or IDNA.
type Scope struct {
	u    *url.URL
	host string // urlnorm.Host(u.Hostname())
	port int    // effective: 80 or 443 when absent
	dir  string // the escaped path up to and including its last '/'
}

// NewScope returns the scope of a sitemap or index served at u. It fails
// when u is not an absolute http(s) URL with a host.
func NewScope(u *url.URL) (Scope, error) {
	if u == nil {
		return Scope{}, errors.New("no scope URL")
	}
	host := u.Hostname()
	if !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") || host == "" || u.Opaque != "" {
		return Scope{}, errors.New(strconv.Quote(u.String()) + " is not an absolute http(s) URL")
	}
	dir := u.EscapedPath()
	dir = dir[:strings.LastIndexByte(dir, '/')+1]
	if dir == "" {
		dir = "/"
	}
	return Scope{u: u, host: urlnorm.Host(host), port: portNumber(u.Port(), u.Scheme), dir: dir}, nil
}

// Prefix is scheme://host[:port]/dir/, the start of every URL in scope.
func (sc Scope) Prefix() string {
	return strings.ToLower(sc.u.Scheme) + "://" + sc.u.Host + sc.dir
}

// Kind says what a URL checked against a scope is: a page (<loc> of a
// <url>, L-09) or a child sitemap of an index (I-05, I-06).
type Kind int

const (
	Page  Kind = iota // a page: L-09
	Child             // an index's child sitemap: I-05 (site), I-06 (directory)
)

// Check applies the scope rule to a URL whose parts [URL] returned: the
// scheme (case-insensitive), host (case-insensitive, IDNA-normalised) and
// port (with the default ports 80 and 443) must equal the scope's, and the
// path must start with the scope's directory (L-15). A page outside
// breaks L-09; an index child on another site I-05, in another directory
// of the same site I-06.
func (sc Scope) Check(p Parts, k Kind) *Problem {
	path := p.Path
	if path == "" {
		path = "/"
	}
	var why string
	dirOnly := false
	scheme := strings.EqualFold(p.Scheme, sc.u.Scheme)
	host := strings.EqualFold(p.Host, sc.host)
	port := portNumber(p.Port, p.Scheme) == sc.port
	switch {
	case !scheme || !host || !port:
		// Every difference, the host first: fixing the scheme alone
		// would leave the URL as far outside.
		var diffs []string
		if !host {
			diffs = append(diffs, "its host is "+p.Host+", not "+sc.host)
		}
		if !scheme {
			diffs = append(diffs, "its scheme is "+strings.ToLower(p.Scheme)+", not "+strings.ToLower(sc.u.Scheme))
		}
		if !port && (scheme || p.Port != "" || sc.u.Port() != "") {
			// (Not when both are the defaults of different schemes.)
			diffs = append(diffs, "its port is "+strconv.Itoa(portNumber(p.Port, p.Scheme))+", not "+strconv.Itoa(sc.port))
		}
		why = strings.Join(diffs, "; ")
	case !strings.HasPrefix(path, sc.dir):
		what := "the sitemap's"
		if k == Child {
			what = "the index's"
		}
		why, dirOnly = "it is not under "+what+" directory "+sc.dir, true
	default:
		return nil
	}
	prefix := sc.Prefix()
	msg := "is outside " + prefix + ": " + why
	switch {
	case k == Child && dirOnly:
		return problem(rules.I06, msg, "an index may point only to sitemaps in its own directory or below, "+prefix)
	case k == Child:
		return problem(rules.I05, msg, "an index may point only to sitemaps on its own site, "+prefix)
	}
	return problem(rules.L09, msg, "under L-15 a sitemap may list only URLs that start with "+prefix)
}

// portNumber returns the port as a number, or the scheme's default.
func portNumber(port, scheme string) int {
	if port == "" {
		if strings.EqualFold(scheme, "https") {
			return 443
		}
		return 80
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return -1
	}
	return n
}
