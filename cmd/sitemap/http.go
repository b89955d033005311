package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/site"
)

// version is the module version of the binary, "(devel)" for a build from
// a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// defaultUserAgent is what every HTTP request of the CLI sends unless
// --user-agent says otherwise: sitemap/VERSION and where the project is,
// so a site owner can find out who is calling. Its product token,
// "sitemap", is the robots.txt group crawl obeys.
func defaultUserAgent() string {
	v := strings.Trim(version(), "()")
	return "sitemap/" + v + " (+https://github.com/sitemapkit/sitemap)"
}

// addUserAgentFlag declares the persistent --user-agent of the root
// command.
func addUserAgentFlag(root *cobra.Command) {
	root.PersistentFlags().String("user-agent", defaultUserAgent(),
		"User-Agent header of every HTTP request (fetch, crawl, validate, parse, diff, robots); its product token (the part before '/') selects crawl's robots.txt group")
}

// userAgent returns the --user-agent given to c (or inherited from the
// root), or the default.
func userAgent(c *cobra.Command) string {
	if f := c.Flags().Lookup("user-agent"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return defaultUserAgent()
}

// httpClient is the client of a command that reads inputs over HTTP:
// the User-Agent (the default when ua is empty) and timeout, the time
// limit of each request, body included.
func httpClient(ua string, timeout time.Duration) (*fetch.Client, error) {
	if ua == "" {
		ua = defaultUserAgent()
	}
	return fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: timeout, HeaderTimeout: timeout})
}

// fetchGetter reads the http(s) INPUTs of validate and parse (and the
// children of their indexes) through the CLI's fetch.Client: its
// User-Agent, timeouts and retries; Content-Encoding undone; a child's
// redirect to another site than its index's refused before it is
// requested (I-05).
type fetchGetter struct{ c *fetch.Client }

// Get implements input.Getter.
func (g fetchGetter) Get(ctx context.Context, r input.Request) (io.ReadCloser, error) {
	opts := fetch.GetOptions{MaxRedirects: 10}
	if r.SameSite != "" {
		opts.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if !site.Same(r.SameSite, req.URL.String()) {
				return &input.OffSiteRedirect{To: req.URL.Redacted()}
			}
			return nil
		}
	}
	resp, err := g.c.Get(ctx, r.URL, opts)
	if err != nil {
		var off *input.OffSiteRedirect
		if errors.As(err, &off) {
			return nil, off
		}
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Status != 0 {
			return nil, &input.StatusError{URL: r.URL, Code: fe.Status, Status: strings.TrimPrefix(fe.Msg, "HTTP ")}
		}
		return nil, err
	}
	body, _, err := resp.Decoded()
	if err != nil {
		resp.Close()
		return nil, err
	}
	return readCloser{body, resp}, nil
}

// readCloser reads one thing and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
