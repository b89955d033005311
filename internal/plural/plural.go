// Package plural words a count for people, the one way every command and
// summary of the module does: "1 URL", "0 URLs", "1,234 URLs".
package plural

import "github.com/sitemapkit/sitemap/internal/progress"

// Of is n followed by one when n is 1, else by many; n is written with
// thousands separators (progress.Group). Negative counts take many.
func Of[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return progress.Group(int64(n)) + " " + many
}
