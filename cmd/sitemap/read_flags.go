package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// maxErrorsUsage is the help of --max-errors, the same flag on every
// command that reads sitemaps (parse, validate, fetch, diff, generate).
const maxErrorsUsage = "abandon a document after this many errors (LIM-05; 0: no limit)"

// addMaxErrors adds --max-errors to c, into p.
func addMaxErrors(c *cobra.Command, p *int) {
	c.Flags().IntVar(p, "max-errors", sitemap.DefaultDecodeMaxErrors, maxErrorsUsage)
}

// decoderMaxErrors turns --max-errors into DecoderOptions.MaxErrors:
// 0 (no limit) is the decoder's negative (sitemap.MaxErrorsFlag).
func decoderMaxErrors(n int) int { return sitemap.MaxErrorsFlag(n) }

// readFlags are the flags of the commands that read sitemap trees
// through package input (parse, graph, html), and their HTTP client.
type readFlags struct {
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope        fetch.Scope
	Base         string
	MaxChildren  int
	AllowOffSite bool
	Quiet        bool
	MaxErrors    int
	Timeout      time.Duration

	client *fetch.Client
}

// add declares the flags of graph and html (parse words them for its
// --follow).
func (r *readFlags) add(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&r.Base, "base", "", "`URL` a local INPUT is served at, to find an index's children")
	f.IntVar(&r.MaxChildren, "max-children", 1000, "most children of one index to read")
	f.BoolVar(&r.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.BoolVar(&r.Quiet, "quiet", false, "print only errors on standard error, not warnings")
	addMaxErrors(c, &r.MaxErrors)
	f.DurationVar(&r.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
}

// inputOptions are the input.Options of the flags (--max-children 0:
// none), with the HTTP client, made at the first call.
func (r *readFlags) inputOptions(stdin io.Reader, follow bool, diag func(sitemap.Diagnostic)) (input.Options, error) {
	if r.client == nil {
		var err error
		if r.client, err = httpClient(r.UserAgent, r.Timeout, r.Scope); err != nil {
			return input.Options{}, err
		}
	}
	in := input.Options{
		Base: r.Base, Stdin: stdin, Follow: follow, MaxChildren: r.MaxChildren, AllowOffSite: r.AllowOffSite,
		Client: r.client, Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(r.MaxErrors)}, OnDiagnostic: diag,
	}
	if r.MaxChildren == 0 {
		in.MaxChildren = -1 // none
	}
	return in, nil
}
