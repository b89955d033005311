package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/version"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// defaultUserAgent is what every HTTP request of the CLI sends unless
// --user-agent says otherwise (version.UserAgent).
func defaultUserAgent() string { return version.UserAgent() }

// addUserAgentFlag declares the persistent --user-agent of the root
// command.
func addUserAgentFlag(root *cobra.Command) {
	root.PersistentFlags().String("user-agent", defaultUserAgent(),
		"User-Agent of every HTTP request (its product token is crawl's robots.txt group)")
}

// userAgent returns the --user-agent given to c (or inherited from the
// root), or the default.
func userAgent(c *cobra.Command) string {
	if f := c.Flags().Lookup("user-agent"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return defaultUserAgent()
}

// requester sets what every command that makes HTTP requests takes from
// the global flags: the User-Agent and the scope.
func requester(c *cobra.Command, ua *string, sc *fetch.Scope) error {
	*ua = userAgent(c)
	var err error
	*sc, err = scopeOf(c)
	return err
}

// httpClient is the client of a command that reads inputs over HTTP:
// the User-Agent (the default when ua is empty), timeout, the time limit
// of each request, body included, and the scope of --scope, --allow-host
// and --no-private.
func httpClient(ua string, timeout time.Duration, sc fetch.Scope) (*fetch.Client, error) {
	if timeout < 0 {
		return nil, fmt.Errorf("--timeout %v: give a time limit above 0, such as 30s", timeout)
	}
	if ua == "" {
		ua = defaultUserAgent()
	}
	return fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: timeout, HeaderTimeout: timeout, Scope: sc})
}

// addScopeFlags declares the persistent --scope, --allow-host and
// --no-private of the root command: what a command that makes HTTP
// requests may request (fetch.Scope). The default is everything, as a
// person at a terminal expects; a service that runs the CLI on URLs its
// users give restricts it.
func addScopeFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.String("scope", "any", "where HTTP requests may go: any or same-site (sitemap help scope)")
	f.StringSlice("allow-host", nil, "`HOST` also allowed, or the only one with --scope any; repeatable")
	f.Bool("no-private", false, "refuse loopback, private and other non-public addresses")
}

// scopeOf returns the scope the flags of c (or the root's) ask for; a bad
// value is an error to exit 2 with.
func scopeOf(c *cobra.Command) (fetch.Scope, error) {
	var sc fetch.Scope
	if f := c.Flags().Lookup("scope"); f != nil {
		switch v := f.Value.String(); v {
		case "any", "":
		case "same-site":
			sc.SameSite = true
		default:
			return sc, cannotRun("--scope %q: want any or same-site", v)
		}
	}
	if f := c.Flags().Lookup("allow-host"); f != nil {
		if sv, ok := f.Value.(interface{ GetSlice() []string }); ok {
			sc.Allow = sv.GetSlice()
		}
	}
	if f := c.Flags().Lookup("no-private"); f != nil {
		sc.NoPrivate = f.Value.String() == "true"
	}
	if err := sc.Check(); err != nil {
		return sc, cannotRun("--allow-host: %v", err)
	}
	return sc, nil
}

// baseNeedsLocal refuses --base when every input is an http(s) URL: it
// says where local files are served, and a URL is served at itself (its
// own scope), so it would be ignored without a word.
func baseNeedsLocal(base string, inputs []string) error {
	if base == "" || len(inputs) == 0 {
		return nil
	}
	for _, in := range inputs {
		if !urlnorm.IsHTTP(in) {
			return nil
		}
	}
	return cannotRun("--base is for local files (where they are served); %s is a URL, served at itself: leave --base out", inputs[0])
}
