package serve

import (
	"context"
	"fmt"
	"net/url"

	sitemap "github.com/sitemapkit/sitemap"
)

// All returns every entry of src in its key order, in one walk (for a SQL
// source, one SELECT whose rows stream): what `sitemap generate --db`
// reads. A loc that is not an absolute http(s) URL is resolved against
// base as the handler resolves it against Options.BaseURL ("/a" against
// base's origin, "a" against base); base "" leaves every loc as it is.
// A base that is not an absolute http(s) URL is an error of the walk.
func All(src Source, base string) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		var b *url.URL
		if base != "" {
			u, err := url.Parse(base)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("base %q is not an absolute http(s) URL", base)
			}
			b = u
		}
		return src.Entries(ctx, nil, nil, func(_ Key, u *sitemap.URL) error {
			u.Loc = absLoc(b, u.Loc)
			return yield(u)
		})
	}
}
