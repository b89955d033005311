package fetch

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/robots"
)

// Robots is the outcome of fetching a robots.txt (RFC 9309 §2.3.1).
type Robots struct {
	// URL is the robots.txt requested; FinalURL the one that answered,
	// after redirects ("" without an answer).
	URL, FinalURL string
	// Status is the HTTP status (0 without a response).
	Status int
	// File is the parsed file of a 200 answer, nil otherwise.
	File *robots.File
	// Err says why there is no File: an *Error (KindNotFound,
	// KindBlocked or KindStatus for a 4xx, which RFC 9309 reads as "no
	// rules"; KindStatus for a 5xx or KindNetwork, which it reads as
	// "disallow everything"), or the error of reading the body.
	Err error
}

// Unreachable reports whether the robots.txt could not be had for a
// reason that is not a 4xx answer: a 5xx, a network failure, a body cut
// short. RFC 9309 §2.3.1.4: a crawler then assumes everything is
// disallowed. A 4xx (§2.3.1.3) allows everything.
func (r *Robots) Unreachable() bool {
	return r.File == nil && !(r.Status >= 400 && r.Status < 500)
}

// Disallows reports whether the robots.txt forbids agent (a product
// token, see RobotsToken) to fetch loc by one of its rules. A robots.txt
// that could not be had says nothing here (see Unreachable).
func (r *Robots) Disallows(agent, loc string) bool {
	return r.File != nil && !r.File.Allowed(agent, loc)
}

// RobotsToken is the product token of the Client's User-Agent, the
// robots.txt group its requests follow (robots.ProductToken).
func (c *Client) RobotsToken() string { return robots.ProductToken(c.UserAgent()) }

type robotsEntry struct {
	done chan struct{}
	r    *Robots
}

// Robots fetches the robots.txt of the site of siteURL (any http(s) URL
// on it: scheme://host[:port]/robots.txt is requested), once per Client
// and site: later calls, concurrent ones included, share the first
// outcome. Redirects are followed (up to DefaultMaxRedirects, RFC 9309
// §2.3.1.2) and failures retried as the Client retries. The error is
// non-nil only when siteURL is not an absolute http(s) URL or ctx ends
// (which is not remembered); every other outcome, 4xx, 5xx and network
// failures included, is described by the *Robots.
func (c *Client) Robots(ctx context.Context, siteURL string) (*Robots, error) {
	u, err := url.Parse(siteURL)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" {
		return nil, &Error{Kind: KindBadURL, URL: siteURL, Msg: "robots.txt of " + siteURL + ": not an absolute http(s) URL"}
	}
	origin := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	for {
		c.robotsMu.Lock()
		e, ok := c.robots[origin]
		if !ok {
			e = &robotsEntry{done: make(chan struct{})}
			c.robots[origin] = e
			c.robotsMu.Unlock()
			r, err := c.RobotsAt(ctx, origin+"/robots.txt")
			if err != nil {
				c.robotsMu.Lock()
				delete(c.robots, origin)
				c.robotsMu.Unlock()
				close(e.done)
				return nil, err
			}
			e.r = r
			close(e.done)
			return r, nil
		}
		c.robotsMu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-e.done:
		}
		if e.r != nil {
			return e.r, nil
		}
		// The first caller's ctx ended: try again.
	}
}

// RobotsAt fetches and parses the robots.txt at robotsURL as it is (no
// cache; a robots.txt must be at the root of its site to apply, RB-02,
// which is the caller's business). A body sent with Content-Encoding:
// gzip is unwrapped; at most ClientOptions.RobotsMaxBytes are read. The
// error is non-nil only when ctx ends or the URL cannot be requested.
func (c *Client) RobotsAt(ctx context.Context, robotsURL string) (*Robots, error) {
	r := &Robots{URL: robotsURL}
	resp, err := c.Get(ctx, robotsURL, GetOptions{Accept: "text/plain,*/*;q=0.5"})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var fe *Error
		if errors.As(err, &fe) {
			if fe.Kind == KindBadURL {
				return nil, err
			}
			r.Status = fe.Status
		}
		r.Err = err
		return r, nil
	}
	defer resp.Close()
	r.Status, r.FinalURL = resp.Status, resp.FinalURL
	body, _, err := resp.Decoded()
	if err != nil {
		r.Err = err
		return r, nil
	}
	if cl, ok := body.(io.Closer); ok {
		defer cl.Close()
	}
	f, err := robots.Parse(body, robots.WithMaxBytes(c.o.RobotsMaxBytes))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.Err = err
		return r, nil
	}
	r.File = f
	return r, nil
}
