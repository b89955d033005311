package main

import (
	"cmp"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/version"
)

// defaultUserAgent is what every HTTP request of the CLI sends unless
// --user-agent says otherwise (version.UserAgent).
func defaultUserAgent() string { return version.UserAgent() }

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

// httpClient is the client of a command that reads inputs over HTTP
// (fetch.ClientSettings; the CLI's User-Agent when ua is empty).
func httpClient(ua string, timeout time.Duration, sc fetch.Scope) (*fetch.Client, error) {
	return fetch.ClientSettings{UserAgent: cmp.Or(ua, defaultUserAgent()), Timeout: timeout, Scope: sc}.Client()
}

// addHTTPFlags declares the persistent flags of the root command that
// every command making HTTP requests reads: --user-agent, and --scope,
// --allow-host and --no-private, what it may request (fetch.Scope). The
// default scope is everything, as a person at a terminal expects; a
// service that runs the CLI on URLs its users give restricts it.
func addHTTPFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.String("user-agent", defaultUserAgent(),
		"User-Agent of every HTTP request (its product token is crawl's robots.txt group)")
	f.String("scope", "any", "where HTTP requests may go: any or same-site (sitemap help scope)")
	f.StringSlice("allow-host", nil, "`HOST` also allowed, or the only one with --scope any; repeatable")
	f.Bool("no-private", false, "refuse loopback, private and other non-public addresses")
}

// scopeOf returns the scope the flags of c (or the root's) ask for
// (fetch.ParseScope); a bad value is an error to exit 2 with.
func scopeOf(c *cobra.Command) (fetch.Scope, error) {
	f := c.Flags()
	scope, _ := f.GetString("scope")
	allow, _ := f.GetStringSlice("allow-host")
	noPrivate, _ := f.GetBool("no-private")
	sc, err := fetch.ParseScope(scope, allow, noPrivate)
	if err != nil {
		return sc, cannotRun("%v", err)
	}
	return sc, nil
}

// baseNeedsLocal refuses --base when every input is an http(s) URL
// (input.CheckBase).
func baseNeedsLocal(base string, inputs []string) error {
	if err := input.CheckBase(base, inputs); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
