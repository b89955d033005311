package main

import (
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// maxErrorsUsage is the help of --max-errors, the same flag on every
// command that reads sitemaps (parse, validate, fetch, diff, generate).
const maxErrorsUsage = "abandon a document after this many errors (LIM-05; 0: no limit)"

// addMaxErrors adds --max-errors to c, into p; a value
// sitemap.CheckMaxErrorsFlag refuses is a bad flag.
func addMaxErrors(c *cobra.Command, p *int) {
	*p = sitemap.DefaultDecodeMaxErrors
	c.Flags().Var((*maxErrorsValue)(p), "max-errors", maxErrorsUsage)
}

// maxErrorsValue is --max-errors: an int that sitemap.CheckMaxErrorsFlag
// accepts.
type maxErrorsValue int

func (v *maxErrorsValue) String() string { return strconv.Itoa(int(*v)) }
func (v *maxErrorsValue) Type() string   { return "int" }
func (v *maxErrorsValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("give a whole number of errors, 0 or more (0: no limit)")
	}
	if err := sitemap.CheckMaxErrorsFlag(n); err != nil {
		return err
	}
	*v = maxErrorsValue(n)
	return nil
}

// readFlags are the flags of the commands that read sitemap trees
// through package input (parse, graph, html), and their HTTP client.
type readFlags struct {
	input.ReadSettings
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope   fetch.Scope
	Timeout time.Duration

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

// httpClient is the HTTP client of the flags, made at the first call.
func (r *readFlags) httpClient() (*fetch.Client, error) {
	if r.client == nil {
		var err error
		if r.client, err = httpClient(r.UserAgent, r.Timeout, r.Scope); err != nil {
			return nil, err
		}
	}
	return r.client, nil
}

// inputOptions are the input.Options of the flags (input.ReadSettings),
// with the HTTP client.
func (r *readFlags) inputOptions(stdin io.Reader, follow bool, diag func(sitemap.Diagnostic)) (input.Options, error) {
	c, err := r.httpClient()
	if err != nil {
		return input.Options{}, err
	}
	return r.Options(c, stdin, follow, diag), nil
}
