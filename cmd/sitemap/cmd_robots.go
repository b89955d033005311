package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// robotsOptions are the inputs of `sitemap robots add|remove|list`.
type robotsOptions struct {
	Action     string // "add", "remove" or "list"
	Target     string // file path, "-" for standard input, or http(s) URL (list only)
	SitemapURL string // add and remove
	Format     string // list: text, json or jsonl
	Timeout    time.Duration
	MaxBytes   int
	MaxPerRule int    // list: most warnings of one rule shown (0: all)
	UserAgent  string // default: the CLI's
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope fetch.Scope
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
	switch opts.Format {
	case "text", "json", "jsonl":
	default:
		return cannotRun("--format %q: want text, json or jsonl", opts.Format)
	}
	if opts.Timeout <= 0 {
		return cannotRun("--timeout %v: use a positive duration, such as 30s", opts.Timeout)
	}
	rt, err := readRobots(ctx, opts, s)
	if err != nil {
		return cannotRun("%v", err)
	}
	if rt.File == nil {
		l := robots.NotFound(rt.Name, rt.Status)
		fmt.Fprintf(s.Err, "%s: %s\n", rt.Name, l.Warnings[0].Message)
		if opts.Format == "json" { // the same document shape as for any other answer
			if err := l.Write(s.Out, "json"); err != nil {
				return outputError(err)
			}
		}
		return problemsFound()
	}
	l, swarn := robots.ListOf(rt.File, rt.Name, rt.Base)
	l.WriteWarnings(s.Err, opts.MaxPerRule)
	if err := l.Write(s.Out, opts.Format); err != nil {
		return outputError(err)
	}
	if len(swarn) > 0 || rt.File.Truncated() {
		return problemsFound()
	}
	return nil
}

// readRobots reads the robots.txt of opts.Target (input.ReadRobots): a
// URL within --timeout, standard input or a file.
func readRobots(ctx context.Context, opts *robotsOptions, s *streams) (input.RobotsTxt, error) {
	in := input.Options{Stdin: s.In}
	if urlnorm.IsHTTP(opts.Target) {
		ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		if opts.UserAgent == "" {
			opts.UserAgent = defaultUserAgent()
		}
		var err error
		in.Client, err = fetch.NewClient(fetch.ClientOptions{UserAgent: opts.UserAgent, Timeout: opts.Timeout, RobotsMaxBytes: opts.MaxBytes, Scope: opts.Scope})
		if err != nil {
			return input.RobotsTxt{}, err
		}
		defer in.Client.CloseIdleConnections()
		return input.ReadRobots(ctx, opts.Target, in, opts.MaxBytes)
	}
	return input.ReadRobots(ctx, opts.Target, in, opts.MaxBytes)
}

func runRobotsEdit(opts *robotsOptions, s *streams) error {
	if urlnorm.IsHTTP(opts.Target) {
		return cannotRun("%s: %s edits a local file; download it, edit it, and upload it", opts.Target, opts.Action)
	}
	ch := robots.Change{Remove: opts.Action == "remove", URL: opts.SitemapURL}
	if !ch.Remove {
		// The normal form, the one generate --robots writes, so the two
		// never list one sitemap twice; a rewrite is said.
		n, changes, err := robots.SitemapURL(ch.URL)
		if changes != 0 {
			fmt.Fprintf(s.Err, "sitemap URL %q written as %q (%s; L-18)\n", check.EscapeControls(ch.URL), n, changes)
			ch.URL = n
		}
		if err != nil {
			return cannotRun("%v", err)
		}
	}
	name := opts.Target
	edit := func(e robots.Edit) (robots.Edited, error) { return e.File(name) }
	if name == "-" {
		name = input.StdinName
		src, err := io.ReadAll(s.In)
		if err != nil {
			return cannotRun("reading standard input: %v", err)
		}
		edit = func(e robots.Edit) (robots.Edited, error) { return e.Apply(src) }
	}
	done, err := ch.Do(edit)
	if err := robotsEditError(name, err); err != nil {
		return err
	}
	if opts.Target == "-" {
		if _, err := s.Out.Write(done.Out); err != nil {
			return cannotRun("writing output: %v", err)
		}
	}
	done.WriteText(s.Err, name)
	return nil
}

// robotsEditError is the exit-2 error of a robots.txt edit that failed
// (nil for none), worded by the step that failed.
func robotsEditError(name string, err error) error {
	var fe *robots.FileError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &fe):
		return cannotRun("%s: %v", name, err) // the content of standard input
	case fe.Op == "edit":
		return cannotRun("%s: %v", name, fe.Err)
	case fe.Op == "read" && errors.As(fe.Err, new(*fs.PathError)):
		return fileError(name, fe.Err)
	}
	return cannotRun("%v", fe.Err) // not a regular file; or writing it
}

// fileError is the exit-2 error for a local robots.txt that cannot be
// opened, worded as every command words it ("robots.txt: no such file"),
// without Go's "open NAME:" or "stat NAME:".
func fileError(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return cannotRun("%s: no such file", name)
	}
	return cannotRun("%s: %v", name, err)
}
