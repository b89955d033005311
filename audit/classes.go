package audit

import "github.com/sitemapkit/sitemap/rules"

// classNames are the short names of the classes, by rule ID.
var classNames = map[rules.ID]string{
	"AUD-01": "ok",
	"AUD-02": "redirect",
	"AUD-03": "not found (404)",
	"AUD-04": "gone (410)",
	"AUD-05": "client error (4xx)",
	"AUD-06": "server error (5xx)",
	"AUD-07": "noindex",
	"AUD-08": "canonical elsewhere",
	"AUD-09": "blocked by robots.txt",
	"AUD-10": "not HTML",
	"AUD-11": "lastmod older than Last-Modified",
	"AUD-12": "lastmod in the future",
	"AUD-13": "hreflang not reciprocal",
	"AUD-14": "listed more than once",
	"AUD-15": "outside the sitemap's scope",
	"AUD-16": "request failed",
	"AUD-17": "missing from the sitemaps",
	"AUD-18": "orphan",
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
