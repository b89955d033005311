package view

import (
	"context"

	"github.com/sitemapkit/sitemap/state"
)

// CrawlTitles looks up the title a crawl recorded for a URL in log (as
// PageOptions.Titles takes it: `sitemap html --state`): "" for a URL the
// crawl did not fetch or that had no title.
func CrawlTitles(log state.CrawlLog) func(context.Context, string) (string, error) {
	return func(ctx context.Context, loc string) (string, error) {
		if loc == "" {
			return "", nil
		}
		// Outcomes lists the URLs after a key: the greatest key before
		// loc among URLs (ASCII, as every loc read is) is loc with its
		// last byte lowered and \xff after it.
		after := loc[:len(loc)-1] + string([]byte{loc[len(loc)-1] - 1, 0xff})
		out, err := log.Outcomes(ctx, after, 1)
		if err != nil || len(out) == 0 || out[0].Loc != loc {
			return "", err
		}
		return out[0].Title, nil
	}
}
