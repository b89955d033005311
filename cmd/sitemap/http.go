package main

import (
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
)

// version is the module version of the binary, "(devel)" for a build from
// a checkout (versionLine adds the commit).
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
