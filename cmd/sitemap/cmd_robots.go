package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/robots"
)

// robotsOptions are the inputs of `sitemap robots add|remove|list`.
type robotsOptions struct {
	// RobotsListOptions are list's flags, its UserAgent (default: the
	// CLI's) and Scope (--scope, --allow-host, --no-private).
	input.RobotsListOptions
	Action     string // "add", "remove" or "list"
	Target     string // file path, "-" for standard input, or http(s) URL (list only)
	SitemapURL string // add and remove
}

func newRobotsCmd(s *streams) *cobra.Command {
	opts := &robotsOptions{}
	cmd := withHelp("robots", &cobra.Command{
		Use:  "robots",
		RunE: runGroup,
	})
	list := withHelp("robots-list", &cobra.Command{
		Use:  "list FILE|URL|-",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action, opts.Target = "list", args[0]
			if err := requester(c, &opts.UserAgent, &opts.Scope); err != nil {
				return err
			}
			return runRobots(c.Context(), opts, s)
		},
	})
	list.Flags().StringVar(&opts.Format, "format", "text", "output format: text, json or jsonl")
	list.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Second, "time limit for fetching a robots.txt URL")
	list.Flags().IntVar(&opts.MaxBytes, "max-bytes", robots.DefaultMaxBytes, "bytes of robots.txt read at most (at least 512000, RB-03)")
	list.Flags().IntVar(&opts.MaxPerRule, "max-per-rule", 20, "most warnings of one rule shown, the rest counted (0: all)")

	edit := func(action string) *cobra.Command {
		return withHelp("robots-"+action, &cobra.Command{
			Use:  action + " FILE|- SITEMAP_URL",
			Args: cobra.ExactArgs(2),
			RunE: func(c *cobra.Command, args []string) error {
				opts.Action, opts.Target, opts.SitemapURL = action, args[0], args[1]
				return runRobots(c.Context(), opts, s)
			},
		})
	}
	add, remove := edit("add"), edit("remove")
	cmd.AddCommand(list, add, remove)
	return cmd
}

// runRobots carries out one `sitemap robots` action.
func runRobots(ctx context.Context, opts *robotsOptions, s *streams) error {
	switch opts.Action {
	case "list":
		return runRobotsList(ctx, opts, s)
	case "add", "remove":
		return runRobotsEdit(opts, s)
	}
	return cannotRun("unknown robots action %q", opts.Action)
}

func runRobotsList(ctx context.Context, opts *robotsOptions, s *streams) error {
	if opts.UserAgent == "" {
		opts.UserAgent = defaultUserAgent()
	}
	o := opts.RobotsListOptions
	o.Stdin = s.In
	problems, err := input.ListRobots(ctx, opts.Target, o, s.Out, s.Err)
	switch {
	case err != nil:
		return cannotRun("%v", err)
	case problems:
		return problemsFound()
	}
	return nil
}

func runRobotsEdit(opts *robotsOptions, s *streams) error {
	ch := robots.Change{Remove: opts.Action == "remove", URL: opts.SitemapURL}
	if err := ch.Run(opts.Target, s.In, s.Out, s.Err); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
