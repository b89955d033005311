package main

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/fetch"
)

// diffOptions are the flags and arguments of `sitemap diff`.
type diffOptions struct {
	Format  string
	Ignore  []string
	TempDir string
	Timeout time.Duration
	Base    string
	// MaxErrors abandons a document after that many errors (LIM-05).
	MaxErrors int
	// AllowOffSite reads an index's children on another site (I-05).
	AllowOffSite bool
	Old          string
	New          string

	// UserAgent is sent with every request (default: the CLI's).
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope fetch.Scope

	// client is the HTTP client for URL inputs (tests may set it).
	client *fetch.Client
}

func newDiffCmd(s *streams) *cobra.Command {
	o := &diffOptions{}
	c := withHelp("diff", &cobra.Command{
		Use:  "diff [flags] OLD NEW",
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			o.Old, o.New = args[0], args[1]
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runDiff(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "text", "output: text or jsonl (one change a line)")
	f.StringSliceVar(&o.Ignore, "ignore", nil, "`FIELD` not to compare (lastmod, changefreq, priority, images, …); repeatable")
	f.StringVar(&o.TempDir, "tmp-dir", "", "`DIR` for the temporary sort files (default: $TMPDIR)")
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	f.StringVar(&o.Base, "base", "", "`URL` local OLD and NEW are served at, to find an index's children")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

func runDiff(ctx context.Context, o *diffOptions, s *streams) error {
	if _, err := diff.NewWriter(io.Discard, o.Format); err != nil {
		return cannotRun("%v", err)
	}
	if err := o.check(); err != nil {
		return err
	}
	sum, err := diff.Run(ctx, o.Old, o.New, diff.RunOptions{
		Open: diff.OpenOptions{Stdin: s.In, Base: o.Base, AllowOffSite: o.AllowOffSite, Client: o.client,
			Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)}},
		Options: diff.Options{TempDir: o.TempDir, Ignore: o.Ignore}, Format: o.Format,
	}, s.Out, s.Err)
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case errors.As(err, new(*diff.SideError)):
		// A side that is no sitemap, or whose children cannot be read:
		// a problem found, exit 1 as in validate, parse and fetch.
		return &exitError{Code: exitProblems, Err: err}
	case err != nil:
		return cannotRun("%v", err)
	case sum.Differ():
		return problemsFound()
	}
	return nil
}

// check checks the flags other than --format, and makes the HTTP client.
func (o *diffOptions) check() error {
	for _, f := range o.Ignore {
		if !slices.Contains(diff.Fields, f) {
			return cannotRun("--ignore %q: not a field; want one of %s", f, strings.Join(diff.Fields, ", "))
		}
	}
	if o.Old == "-" && o.New == "-" {
		return cannotRun("OLD and NEW cannot both be standard input")
	}
	if err := baseNeedsLocal(o.Base, []string{o.Old, o.New}); err != nil {
		return err
	}
	if o.TempDir != "" {
		if fi, err := os.Stat(o.TempDir); err != nil || !fi.IsDir() {
			return cannotRun("--tmp-dir %s: no such directory; give an existing directory for the sort files", o.TempDir)
		}
	}
	if o.client == nil {
		var err error
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return cannotRun("%v", err)
		}
	}
	return nil
}
