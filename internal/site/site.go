// Package site holds the one definition of "an http(s) URL" and of I-05's
// "same site" (scheme, host and port), shared by the root package, input,
// validate and fetch, which cannot all import one another.
package site

import (
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/internal/check"
)

// IsHTTP reports whether s starts with http:// or https:// (in any case).
func IsHTTP(s string) bool {
	if len(s) < 7 {
		return false
	}
	if strings.EqualFold(s[:7], "http://") {
		return true
	}
	return len(s) >= 8 && strings.EqualFold(s[:8], "https://")
}

// Origin is scheme://host:port of the URL raw, with the scheme and host in
// lower case, the host in punycode (IDNA) and the port a number without
// leading zeros, the default one made explicit; "" when raw does not
// parse. A trailing dot of the host is kept: "example.com." is another
// host than "example.com", as for the scope rules (L-09, I-05;
// internal/check's Host).
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return OriginOf(u)
}

// OriginOf is [Origin] of a parsed URL.
func OriginOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := check.Host(u.Hostname())
	port := u.Port()
	if port != "" {
		// A number, as the scope rules compare it (internal/check):
		// ":0443" is port 443. net/url has checked it is all digits.
		if port = strings.TrimLeft(port, "0"); port == "" {
			port = "0"
		}
	} else {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + host + ":" + port
}

// Same reports whether the http(s) URLs a and b are on the same site:
// the same scheme, host and effective port (I-05; the directory, I-06, is
// not compared). A URL that does not parse is on no site.
func Same(a, b string) bool {
	oa, ob := Origin(a), Origin(b)
	return oa != "" && oa == ob
}

// Display is [Origin] as a person reads it: the default port left out
// (https://www.example.com, http://127.0.0.1:8080).
func Display(raw string) string {
	o := Origin(raw)
	if s, ok := strings.CutSuffix(o, ":443"); ok && strings.HasPrefix(o, "https://") {
		return s
	}
	if s, ok := strings.CutSuffix(o, ":80"); ok && strings.HasPrefix(o, "http://") {
		return s
	}
	return o
}

// OffSite is the message of the I-05 diagnostic about a child sitemap
// on another site than its index; hint ([OffSiteHint]) says whether it
// was followed and what lets it through.
func OffSite(child, index, hint string) string {
	return offSite(child, "the index ("+Display(index)+")", hint)
}

// OffSiteInferred is OffSite for a local index whose URL is unknown (no
// --base): its site is taken to be that of its first child, first.
func OffSiteInferred(child, first, hint string) string {
	return offSite(child, "the index's first child ("+Display(first)+"), the index's site when --base does not say", hint)
}

// The rule ID is the diagnostic's (I-05), not repeated in its message.
func offSite(child, than, hint string) string {
	return "child sitemap " + child + " is on another site than " + than + "; an index may point only to sitemaps on its own site; " + hint
}

// OffSiteHint is the end of an I-05 message about the off-site child:
// followed says whether it is read anyway (AllowOffSite); refused, when
// not "", is why the request scope refuses the child's URL (a FETCH-SCOPE
// reason), in which case --allow-off-site alone does not read it: the
// hint names --allow-host with the child's host, or, when the scope
// refuses the child's address (private, --no-private), says that no flag
// but dropping --no-private does.
func OffSiteHint(child string, followed bool, refused string, private bool) string {
	host := child
	if u, err := url.Parse(child); err == nil && u.Host != "" {
		host = strings.ToLower(u.Host)
	}
	switch {
	case refused == "" && followed:
		return "followed anyway (--allow-off-site)"
	case refused == "":
		return "not followed (--allow-off-site follows it)"
	case private && followed:
		return "not read: the request scope refuses it, " + refused
	case private:
		return "not followed, and the request scope refuses it too: " + refused
	case followed:
		return "not read: the request scope refuses it, " + refused + "; --allow-host " + host + " lets it through"
	}
	return "not followed (--allow-off-site with --allow-host " + host + " follows it; the request scope refuses it otherwise)"
}
