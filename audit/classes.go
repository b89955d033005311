package audit

import "github.com/sitemapkit/sitemap/rules"

// classNames are the short names of the classes, by rule ID.
var classNames = map[rules.ID]string{
	rules.AUD01: "ok",
	rules.AUD02: "redirect",
	rules.AUD03: "not found (404)",
	rules.AUD04: "gone (410)",
	rules.AUD05: "client error (4xx)",
	rules.AUD06: "server error (5xx)",
	rules.AUD07: "noindex",
	rules.AUD08: "canonical elsewhere",
	rules.AUD09: "blocked by robots.txt",
	rules.AUD10: "not HTML",
	rules.AUD11: "lastmod older than Last-Modified",
	rules.AUD12: "lastmod in the future",
	rules.AUD13: "hreflang not reciprocal",
	rules.AUD14: "listed more than once",
	rules.AUD15: "outside the sitemap's scope",
	rules.AUD16: "request failed",
	rules.AUD17: "missing from the sitemaps",
	rules.AUD18: "orphan",
	rules.AUD19: "links only after rendering",
	rules.AUD20: "noindex changed by script",
	rules.AUD21: "canonical changed by script",
	rules.AUD22: "title changed by script",
	rules.AUD23: "soft 404 after rendering",
	rules.AUD24: "console errors",
	rules.AUD25: "failed requests",
	rules.AUD26: "not rendered",
	rules.AUD27: "lastmod churns",
	rules.AUD28: "lastmod stale",
	rules.AUD29: "lastmod backwards or late",
	rules.AUD30: "build-time lastmod",
	rules.AUD31: "lastmod after Last-Modified",
}

// Class is one class of the audit: its rule, short name and the rule
// book's statement and fix.
type Class struct {
	Rule                       rules.ID
	Name, Severity, Title, Fix string
}

// Classes returns every class in rule order.
func Classes() []Class {
	out := make([]Class, 0, len(classNames))
	for i := 1; i <= len(classNames); i++ {
		id := rules.ID("AUD-" + string(rune('0'+i/10)) + string(rune('0'+i%10)))
		r, _ := rules.Lookup(id)
		out = append(out, Class{Rule: id, Name: classNames[id], Severity: r.Severity.String(), Title: r.Title, Fix: r.Fix})
	}
	return out
}

// ClassName is the short name of the class of rule ("redirect" for
// AUD-02); the rule itself when it is no class.
func ClassName(rule rules.ID) string {
	if n, ok := classNames[rule]; ok {
		return n
	}
	return string(rule)
}
