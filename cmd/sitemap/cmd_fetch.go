package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// fetchOptions are the flags and argument of `sitemap fetch`: those of
// fetch.Run, and those that map to them.
type fetchOptions struct {
	fetch.RunOptions
	Start      string
	KnownPaths string
	Base       string
	// httpOnly are the HTTP-only flags given (fetchHTTPOnlyFlags).
	httpOnly                 []string
	DedupMemory              byteSize
	MaxErrors                int
	Changes                  bool
	State, FullEvery, SinceS string
}

func newFetchCmd(s *streams) *cobra.Command {
	o := &fetchOptions{}
	c := withHelp("fetch", &cobra.Command{
		Use:  "fetch [flags] URL|FILE|DIR|-",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Start = args[0]
			o.UserAgent = userAgent(c)
			for _, name := range fetchHTTPOnlyFlags {
				if fl := c.Flags().Lookup(name); fl != nil && fl.Changed {
					o.httpOnly = append(o.httpOnly, "--"+name)
				}
			}
			if err := checkFetchLimits(o); err != nil {
				return err
			}
			var err error
			if o.Scope, err = scopeOf(c); err != nil {
				return err
			}
			return runFetch(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "txt", "output: txt, jsonl or csv")
	f.BoolVar(&o.Tree, "tree", false, "print the tree of documents with counts and problems instead of URLs (--format json: one object)")
	f.BoolVar(&o.TreeURLs, "urls", false, "with --tree, list each sitemap's URLs beneath it")
	f.StringVar(&o.KnownPaths, "known-paths", "fallback", "probe well-known paths: never, fallback (robots.txt names none), always")
	f.IntVar(&o.Concurrency, "concurrency", 8, "sitemaps read at once")
	f.IntVar(&o.PerHost, "per-host", 4, "sitemaps read at once from one host")
	f.StringVar(&o.Base, "base", "", "`URL` a local START is served at, to find an index's children")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.IntVar(&o.MaxDepth, "max-depth", 5, "deepest level of indexes followed")
	f.IntVar(&o.MaxSitemaps, "max-sitemaps", 10000, "most sitemaps requested")
	f.Int64Var(&o.MaxURLs, "max-urls", 0, "stop after this many URLs (0: no limit)")
	f.Int64Var(&o.MaxBytes, "max-bytes", 0, "stop after this many bytes transferred (0: no limit)")
	f.DurationVar(&o.Timeout, "timeout", 0, "time limit of the whole run (0: none)")
	f.DurationVar(&o.SitemapTimeout, "sitemap-timeout", 5*time.Minute, "time limit of one sitemap, request and body")
	f.DurationVar(&o.IdleTimeout, "idle-timeout", 30*time.Second, "longest a server may send nothing in the middle of a body")
	f.IntVar(&o.Attempts, "attempts", 3, "tries of a request on 429, 5xx and network errors")
	f.StringVar(&o.CacheDir, "cache", "", "`DIR` keeping bodies for conditional requests next time")
	f.BoolVar(&o.NoDedup, "no-dedup", false, "print a URL every time a sitemap lists it (memory stays flat)")
	o.DedupMemory = fetch.DefaultDedupMemory
	f.Var(&o.DedupMemory, "dedup-memory", "memory for the URLs printed, a `SIZE` such as 1GiB; then a temporary file")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors and the summary on standard error")
	f.BoolVar(&o.Verbose, "verbose", false, "also print notes (info diagnostics) on standard error")
	f.BoolVar(&o.Changes, "changes", false, "print what changed since the last run with --state, as diff's JSONL")
	f.StringVar(&o.State, "state", "", "with --changes, the `FILE` or postgres:// database of the last run")
	f.StringVar(&o.FullEvery, "full-every", "10", "with --changes, read every child every `N` runs or after a duration (168h)")
	f.StringVar(&o.SinceS, "since", "", "print only entries whose lastmod is after `TIME` (2026-11-02, RFC 3339, 24h)")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

// fetchHTTPOnlyFlags are the flags of fetch that only reading over HTTP
// uses; a local START gets a warning that they do nothing.
var fetchHTTPOnlyFlags = []string{"known-paths", "concurrency", "per-host", "idle-timeout", "attempts", "cache"}

// localStart refuses a local START that does not exist, saying what fetch
// reads (and the https:// a host name lacks).
func localStart(start string) error {
	if start == "-" {
		return nil
	}
	if _, err := os.Stat(start); errors.Is(err, fs.ErrNotExist) {
		msg := start + ": no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL"
		if !strings.ContainsAny(start, `/\`) && strings.Contains(start, ".") && !fileExt(start) {
			msg += " (did you mean https://" + start + "/?)"
		}
		return cannotRun("%s", msg)
	}
	return nil
}

// fileExt reports whether name ends in the extension of a file the
// commands read or write (sitemap.xml, urls.txt, old.jsonl): a missing
// file of that name, not a host name without its https://.
func fileExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml", ".gz", ".txt", ".jsonl", ".json", ".csv", ".tsv", ".html", ".htm", ".zst", ".bz2", ".xz", ".zip":
		return true
	}
	return false
}

func runFetch(ctx context.Context, o *fetchOptions, s *streams) error {
	if err := checkDedupMemory(o.DedupMemory, fetch.DefaultDedupMemory); err != nil {
		return err
	}
	kp, err := fetch.ParseKnownPaths(o.KnownPaths)
	if err != nil {
		return cannotRun("--known-paths: %v", err)
	}
	local := !urlnorm.IsHTTP(o.Start)
	if !local && o.Base != "" {
		return cannotRun("--base is for a local file or directory; %s is a URL", o.Start)
	}
	o.Progress = s.ErrIsTerminal
	if o.SinceS != "" {
		if o.Tree {
			return cannotRun("--since filters the URLs printed; --tree prints documents: give one of them")
		}
		if o.Since, err = diff.ParseSince(o.SinceS, time.Now()); err != nil {
			return cannotRun("%v", err)
		}
	}
	if o.Changes && o.CacheDir != "" {
		return cannotRun("--changes keeps its validators in --state; --cache is not used with it: leave it out")
	}
	if o.Changes || o.State != "" {
		return runFetchChanges(ctx, o, s, kp, local)
	}
	if err := o.Check(); err != nil {
		return cannotRun("%v", err)
	}
	if err := fetchWalkOptions(o, s, kp, local); err != nil {
		return err
	}
	sum, err := fetch.Run(ctx, o.Start, o.RunOptions, s.Out, s.Err)
	var se *fetch.StartError
	var oe *input.OpenError
	if errors.As(err, &se) && errors.As(se.Err, &oe) {
		se.Err = oe.Err // the message names the START already
	}
	switch {
	case err != nil:
		return cannotRun("%v", err)
	case sum.Errors > 0 || sum.Failed > 0:
		return problemsFound()
	}
	return nil
}

// runFetchChanges is fetch --changes: diff.RunChanges on the state.
func runFetchChanges(ctx context.Context, o *fetchOptions, s *streams, kp fetch.KnownPaths, local bool) error {
	if !o.Changes || o.State == "" || local || o.Tree {
		return cannotRun("--changes and --state go together, with an http(s) START and without --tree: " +
			"sitemap fetch --changes --state FILE https://www.example.com/")
	}
	co := diff.ChangesRunOptions{Format: map[bool]string{true: "text"}[o.Format == "text"], Quiet: o.Quiet, Verbose: o.Verbose}
	var err error
	if co.FullEvery, co.FullAfter, err = diff.ParseFullEvery(o.FullEvery); err != nil {
		return cannotRun("%v", err)
	}
	co.Since, co.TempDir = o.Since, o.TempDir
	if err := fetchWalkOptions(o, s, kp, false); err != nil {
		return err
	}
	co.Fetch = o.Options
	switch sum, err := diff.RunChanges(ctx, o.Start, o.State, co, s.Out, s.Err); {
	case err != nil:
		return cannotRun("%v", err)
	case sum.Walk.Errors+sum.Walk.Failed > 0:
		return problemsFound()
	}
	return nil
}

// fetchWalkOptions completes the walk's options from the flags. A local
// START is read by the same walk as a URL, its documents through package
// input's Getter, one at a time so the URLs come in the files' order.
func fetchWalkOptions(o *fetchOptions, s *streams, kp fetch.KnownPaths, local bool) error {
	if o.UserAgent == "" {
		o.UserAgent = defaultUserAgent()
	}
	w := &o.RunOptions.Options
	w.KnownPaths, w.DedupMemory, w.MaxErrors = kp, int64(o.DedupMemory), decoderMaxErrors(o.MaxErrors)
	if !local {
		return nil
	}
	if err := localStart(o.Start); err != nil {
		return err
	}
	if len(o.httpOnly) > 0 {
		// Said, not silently ignored: the user may think they apply.
		fmt.Fprintf(s.Err, "sitemap: warning: %s %s no effect on a local %s; %s only when reading over HTTP\n",
			strings.Join(o.httpOnly, ", "), map[bool]string{true: "has", false: "have"}[len(o.httpOnly) == 1], o.Start,
			map[bool]string{true: "it applies", false: "they apply"}[len(o.httpOnly) == 1])
	}
	w.Getter = input.NewGetter(input.Options{Base: o.Base, Stdin: s.In})
	w.Concurrency = 1
	return nil
}

// checkFetchLimits refuses a count or time limit the help gives no meaning
// (the library would take its default instead, without a word): the
// counts at least 1, --max-urls, --max-bytes and --timeout 0 (none) or
// more.
func checkFetchLimits(o *fetchOptions) error {
	for _, c := range []struct {
		flag string
		n    int
	}{{"--concurrency", o.Concurrency}, {"--per-host", o.PerHost}, {"--max-depth", o.MaxDepth},
		{"--max-sitemaps", o.MaxSitemaps}, {"--attempts", o.Attempts}} {
		if c.n < 1 {
			return cannotRun("%s %d: give 1 or more", c.flag, c.n)
		}
	}
	for _, c := range []struct {
		flag string
		n    int64
	}{{"--max-urls", o.MaxURLs}, {"--max-bytes", o.MaxBytes}} {
		if c.n < 0 {
			return cannotRun("%s %d: give 0 (no limit) or more", c.flag, c.n)
		}
	}
	if o.Timeout < 0 {
		return cannotRun("--timeout %v: give 0 (none) or more", o.Timeout)
	}
	if o.CacheDir != "" {
		if fi, err := os.Stat(o.CacheDir); err == nil && !fi.IsDir() {
			return cannotRun("--cache %s is a file; give a directory (made when missing)", o.CacheDir)
		}
	}
	for _, c := range []struct {
		flag string
		d    time.Duration
	}{{"--sitemap-timeout", o.SitemapTimeout}, {"--idle-timeout", o.IdleTimeout}} {
		if c.d <= 0 {
			return cannotRun("%s %v: give a time limit above 0, such as 30s", c.flag, c.d)
		}
	}
	return nil
}
