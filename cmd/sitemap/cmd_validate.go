package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/validate"
)

// validateOptions are the flags and arguments of `sitemap validate`.
type validateOptions struct {
	// UserAgent is sent with every request (default: the CLI's).
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope        fetch.Scope
	Format       string
	Strict       bool
	Base         string
	Now          string
	CrossSubmit  bool
	TrustedHosts []string
	NoChildren   bool
	MaxChildren  int
	MaxPerRule   int
	MaxErrors    int
	Timeout      time.Duration
	Inputs       []string

	// client is the HTTP client for URL inputs (tests may set it).
	client *fetch.Client
}

func newValidateCmd(s *streams) *cobra.Command {
	o := &validateOptions{}
	c := withHelp("validate", &cobra.Command{
		Use:  "validate [flags] INPUT...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runValidate(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "text", "output: text, json (one array) or jsonl (one object a line)")
	f.BoolVar(&o.Strict, "strict", false, "count warnings as errors for the exit status")
	f.StringVar(&o.Base, "base", "", "`URL` a local INPUT is served at (a file, or a directory ending in /; L-09, I-06)")
	f.StringVar(&o.Now, "now", "", "`TIME` to judge lastmod (M-07) and news age (N-06) by (default: now)")
	f.BoolVar(&o.CrossSubmit, "cross-submit", false, "the sitemap is cross-submitted (O-03): scope errors become warnings")
	f.StringSliceVar(&o.TrustedHosts, "trusted-host", nil, "another `HOST` allowed in the sitemap (O-06); repeatable")
	f.BoolVar(&o.NoChildren, "no-children", false, "do not check the children of a sitemap index")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to check")
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "most diagnostics of one rule shown per document (0: all)")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}

// parseNow reads --now.
func parseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := sitemap.ParseDate(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: want RFC 3339 (2026-11-22T12:00:00Z) or YYYY-MM-DD", s)
	}
	return d.Time, nil
}

func runValidate(ctx context.Context, o *validateOptions, s *streams) error {
	if err := baseNeedsLocal(o.Base, o.Inputs); err != nil {
		return err
	}
	ro, err := o.runOptions(s)
	if err != nil {
		return cannotRun("%v", err)
	}
	sum, err := validate.Run(ctx, o.Inputs, ro, s.Out, s.Err)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return cannotRun("%v", err)
	case sum.Unopened > 0 && sum.Documents == 0:
		return &exitError{Code: exitUsage} // the error above says it all
	case sum.Unopened > 0:
		return &exitError{Code: exitUsage, Err: fmt.Errorf("%s could not be read (the %s above)", plural.Of(sum.Unopened, "input", "inputs"), map[bool]string{true: "error", false: "errors"}[sum.Unopened == 1])}
	case sum.Reported.Errors > 0 || (o.Strict && sum.Reported.Warnings > 0):
		return problemsFound()
	}
	return nil
}

// runOptions checks the flags and returns the options of validate.Run.
func (o *validateOptions) runOptions(s *streams) (validate.RunOptions, error) {
	ro := validate.RunOptions{Format: o.Format, MaxPerRule: o.MaxPerRule, Progress: s.ErrIsTerminal}
	if _, err := report.New(io.Discard, o.Format, o.MaxPerRule); err != nil { // said first
		return ro, err
	}
	now, err := parseNow(o.Now)
	if err != nil {
		return ro, err
	}
	if o.MaxChildren < 0 {
		return ro, errors.New("--max-children must not be negative")
	}
	for _, h := range o.TrustedHosts {
		if err := validate.CheckTrustedHost(h); err != nil {
			return ro, err
		}
	}
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return ro, err
		}
	}
	maxChildren := o.MaxChildren
	if maxChildren == 0 {
		maxChildren = -1 // none: a negative MaxChildren checks no child
	}
	ro.TreeOptions = validate.TreeOptions{
		Options: validate.Options{CrossSubmit: o.CrossSubmit, TrustedHosts: o.TrustedHosts, Now: now,
			Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)}},
		Input:      input.Options{Base: o.Base, Stdin: s.In, MaxChildren: maxChildren, Client: o.client},
		NoChildren: o.NoChildren,
	}
	return ro, nil
}
