package main

import (
	"context"

	"github.com/sitemapkit/sitemap/input"
)

// discoverInputs replaces each input that is a site (a homepage or
// robots.txt URL: input.IsSiteStart) by the URLs of the sitemaps found
// there (input.Discover), whose diagnostics go to in.OnDiagnostic; a site
// where nothing answered is exit 2. With no site among the inputs, it
// returns them as they are.
func discoverInputs(ctx context.Context, names []string, in input.Options) ([]string, error) {
	var out []string
	for _, n := range names {
		if !input.IsSiteStart(n) {
			out = append(out, n)
			continue
		}
		found, err := input.Discover(ctx, n, in, in.OnDiagnostic)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, cannotRun("%v", err)
		}
		out = append(out, found...)
	}
	return out, nil
}
