package robots

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
)

// Sitemaps returns the sitemap URLs the file lists, in file order with exact
// duplicates removed (RB-07, RB-12). base is the URL the robots.txt came from:
// a relative value is resolved against it with a warning (lenient mode of
// RB-12); with a nil base a relative value is dropped with a warning. Values
// that are not http(s) URLs with a host are dropped with a warning (RB-05).
// The result depends only on the file and base.
func (f *File) Sitemaps(base *url.URL) ([]string, []Warning) {
	var (
		out   []string
		warns []Warning
		seen  = make(map[string]int, len(f.sitemaps))
	)
	for _, s := range f.sitemaps {
		v := s.Value
		if v == "" {
			warns = append(warns, warning(s.Line, rules.RB05, "Sitemap line has no URL"))
			continue
		}
		u, err := url.Parse(v)
		if err != nil {
			warns = append(warns, warning(s.Line, rules.RB05, "invalid sitemap URL "+strconv.Quote(v)+": "+err.Error()))
			continue
		}
		if r, ok := controlRune(v); ok {
			// url.Parse refuses the ASCII controls, not these; printed raw
			// they would break `robots list` output or steer a terminal.
			warns = append(warns, warning(s.Line, rules.RB05, "sitemap URL "+strconv.Quote(v)+" holds the control character "+fmt.Sprintf("U+%04X", r)+"; ignored (percent-encode it)"))
			continue
		}
		if !u.IsAbs() || u.Host == "" {
			if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
				warns = append(warns, warning(s.Line, rules.RB05, "sitemap URL "+strconv.Quote(v)+" is not http or https; ignored"))
				continue
			}
			if base == nil || !base.IsAbs() {
				warns = append(warns, warning(s.Line, rules.RB12, "sitemap URL "+strconv.Quote(v)+" is relative; ignored (write the full https://… URL)"))
				continue
			}
			u = base.ResolveReference(u)
			warns = append(warns, warning(s.Line, rules.RB12, "sitemap URL "+strconv.Quote(v)+" is relative; resolved to "+u.String()+" (write the full URL)"))
			v = u.String()
		}
		if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
			warns = append(warns, warning(s.Line, rules.RB05, "sitemap URL "+strconv.Quote(v)+" is not http or https; ignored"))
			continue
		}
		if u.Host == "" {
			warns = append(warns, warning(s.Line, rules.RB05, "sitemap URL "+strconv.Quote(v)+" has no host; ignored"))
			continue
		}
		if first, dup := seen[v]; dup {
			warns = append(warns, warning(s.Line, rules.RB12, "duplicate of the Sitemap line on line "+strconv.Itoa(first)+"; ignored"))
			continue
		}
		seen[v] = s.Line
		out = append(out, v)
	}
	return out, warns
}

// controlRune returns the first C1 control (U+0080–U+009F) or line or
// paragraph separator (U+2028, U+2029) in s: the control characters
// url.Parse lets through (it refuses the ASCII ones).
func controlRune(s string) (rune, bool) {
	for _, r := range s {
		if r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 {
			return r, true
		}
	}
	return 0, false
}
