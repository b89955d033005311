package fetch

import (
	"context"
	"fmt"
	"net/url"
)

// RobotsTxt fetches the robots.txt target names, as `sitemap robots list
// URL` reads it: a robots.txt URL, or a site's URL whose empty path or "/"
// stands for /robots.txt (RB-02). It returns the answer ([Client.RobotsAt])
// with File set for a 200, or File nil for a 4xx, which RFC 9309 reads as
// no robots.txt (no rules, no sitemaps). Anything else is an error saying
// what was fetched: a target that is no URL, a request that failed, or
// another status (then to try again later).
func (c *Client) RobotsTxt(ctx context.Context, target string) (*Robots, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a valid URL", target)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/robots.txt"
	}
	r, err := c.RobotsAt(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %v", u, err)
	}
	if r.FinalURL == "" {
		r.FinalURL = u.String()
	}
	switch {
	case r.File != nil:
		return r, nil
	case r.Status >= 400 && r.Status < 500:
		return r, nil
	case r.Status == 0:
		return r, fmt.Errorf("fetching %s: %v", u, r.Err)
	}
	return r, fmt.Errorf("fetching %s: %v; try again later", r.FinalURL, r.Err)
}
