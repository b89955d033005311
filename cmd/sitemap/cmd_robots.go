package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/rules"
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
	cmd := &cobra.Command{
		Use:   "robots",
		Short: "List, add or remove the Sitemap: lines of a robots.txt",
		Long: "Robots lists the Sitemap: lines of a robots.txt file or URL (RB-12), and adds or removes\n" +
			"one in a local file, every other byte kept (RB-13). See docs/INDEXNOW.md.",
		Example: "  sitemap robots list https://www.example.com/robots.txt\n" +
			"  sitemap robots add robots.txt https://www.example.com/sitemap.xml\n" +
			"  sitemap robots remove robots.txt https://www.example.com/old-sitemap.xml",
		RunE: runGroup,
	}
	list := &cobra.Command{
		Use:   "list FILE|URL|-",
		Short: "Print the sitemap URLs a robots.txt lists, one per line",
		Long: "List prints the sitemap URLs of a robots.txt file or URL (a bare host gets /robots.txt),\n" +
			"in file order without duplicates (RB-12); exit status 1 when a Sitemap: line has a\n" +
			"problem or there is no robots.txt. See docs/INDEXNOW.md.",
		Example: "  printf 'User-agent: *\\nDisallow:\\n\\nSitemap: https://www.example.com/sitemap.xml\\n' | sitemap robots list -\n" +
			"  sitemap robots list --format json https://www.example.com/",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Action, opts.Target = "list", args[0]
			if err := requester(c, &opts.UserAgent, &opts.Scope); err != nil {
				return err
			}
			return runRobots(c.Context(), opts, s)
		},
	}
	list.Flags().StringVar(&opts.Format, "format", "text", "output format: text, json or jsonl")
	list.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Second, "time limit for fetching a robots.txt URL")
	list.Flags().IntVar(&opts.MaxBytes, "max-bytes", robots.DefaultMaxBytes, "bytes of robots.txt read at most (at least 512000, RB-03)")
	list.Flags().IntVar(&opts.MaxPerRule, "max-per-rule", 20, "most warnings of one rule shown, the rest counted (0: all)")

	edit := func(action, short, long, example string) *cobra.Command {
		return &cobra.Command{
			Use:     action + " FILE|- SITEMAP_URL",
			Short:   short,
			Long:    long,
			Example: example,
			Args:    cobra.ExactArgs(2),
			RunE: func(c *cobra.Command, args []string) error {
				opts.Action, opts.Target, opts.SitemapURL = action, args[0], args[1]
				return runRobots(c.Context(), opts, s)
			},
		}
	}
	add := edit("add", "Add a Sitemap: line to a local robots.txt",
		"Add writes \"Sitemap: SITEMAP_URL\" (in its normal form, L-18) after the groups of FILE,\n"+
			"created when missing, every other byte kept (RB-13); FILE \"-\" reads standard input and\n"+
			"writes standard output. See docs/INDEXNOW.md.",
		"  printf 'User-agent: *\\nDisallow:\\n' > robots.txt\n"+
			"  sitemap robots add robots.txt https://www.example.com/sitemap.xml")
	remove := edit("remove", "Remove a Sitemap: line from a local robots.txt",
		"Remove deletes every Sitemap: line of SITEMAP_URL (or of its normal form) from FILE, and\n"+
			"the blank line 'add' put above it, every other byte kept. See docs/INDEXNOW.md.",
		"  printf 'Sitemap: https://www.example.com/old.xml\\n' > robots.txt\n"+
			"  sitemap robots remove robots.txt https://www.example.com/old.xml")
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
	f, base, name, err := readRobots(ctx, opts, s)
	if f == nil || err != nil {
		return err
	}
	sitemaps, swarn := f.Sitemaps(base)
	warnings := append(append([]robots.Warning(nil), f.Warnings()...), swarn...)
	writeRobotsWarnings(s.Err, name, warnings, opts.MaxPerRule)
	if err := writeRobotsList(s.Out, opts.Format, name, base != nil, sitemaps, warnings); err != nil {
		return err
	}
	if len(swarn) > 0 || f.Truncated() {
		return problemsFound()
	}
	return nil
}

// readRobots reads the robots.txt of opts.Target: a URL (its base the
// final URL), standard input or a file, and returns the name messages
// give it. A URL that answers 4xx has no robots.txt: that is said (with
// the JSON document of --format json), and the File is nil with the
// exit error.
func readRobots(ctx context.Context, opts *robotsOptions, s *streams) (*robots.File, *url.URL, string, error) {
	popt := robots.WithMaxBytes(opts.MaxBytes)
	switch {
	case urlnorm.IsHTTP(opts.Target):
		f, base, status, err := fetchRobots(ctx, opts)
		if err != nil {
			return nil, nil, "", cannotRun("%v", err)
		}
		if f == nil {
			return nil, nil, "", noRobots(base, status, opts.Format, s)
		}
		return f, base, base.String(), nil
	case opts.Target == "-":
		f, err := robots.Parse(s.In, popt)
		if err != nil {
			return nil, nil, "", cannotRun("reading standard input: %v", err)
		}
		return f, nil, input.StdinName, nil
	}
	fh, err := os.Open(opts.Target)
	if err != nil {
		return nil, nil, "", fileError(opts.Target, err)
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, nil, "", cannotRun("%s: is a directory; give a robots.txt file", opts.Target)
	}
	f, err := robots.Parse(fh, popt)
	if err != nil {
		return nil, nil, "", cannotRun("reading %s: %v", opts.Target, err)
	}
	return f, nil, opts.Target, nil
}

// robotsListJSON is the document of robots list --format json.
type robotsListJSON struct {
	Robots   string           `json:"robots"`
	Sitemaps []string         `json:"sitemaps"`
	Warnings []robots.Warning `json:"warnings"`
}

// noRobots says that the robots.txt URL base answered status (4xx): no
// rules and no sitemaps (RFC 9309 §2.3.1.3); exit status 1.
func noRobots(base *url.URL, status int, format string, s *streams) error {
	msg := fmt.Sprintf("HTTP %d: no robots.txt, so no Sitemap lines (RB-02: it must be at /robots.txt)", status)
	fmt.Fprintf(s.Err, "%s: %s\n", base, msg)
	if format == "json" {
		// The same document shape as for any other answer.
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(robotsListJSON{base.String(), []string{}, []robots.Warning{{Rule: rules.RB02, Severity: rules.Warning, Message: msg, URL: base.String()}}}); err != nil {
			return cannotRun("writing output: %v", err)
		}
	}
	return problemsFound()
}

// writeRobotsWarnings writes the warnings of the robots.txt name, one line
// each, at most maxPerRule of one rule (0: all), the rest counted.
func writeRobotsWarnings(w io.Writer, name string, warnings []robots.Warning, maxPerRule int) {
	shown := map[string]int{}
	var capped []string // rules with warnings not shown, in order of first
	for _, wa := range warnings {
		if maxPerRule > 0 && shown[string(wa.Rule)] >= maxPerRule {
			if shown[string(wa.Rule)] == maxPerRule {
				capped = append(capped, string(wa.Rule))
			}
			shown[string(wa.Rule)]++
			continue
		}
		shown[string(wa.Rule)]++
		// One line each, whatever the file holds (or is called).
		where, msg := check.EscapeControls(name), check.EscapeControls(wa.Message)
		if wa.Line > 0 {
			fmt.Fprintf(w, "%s:%d: warning %s: %s\n", where, wa.Line, wa.Rule, msg)
		} else {
			fmt.Fprintf(w, "%s: warning %s: %s\n", where, wa.Rule, msg)
		}
	}
	for _, r := range capped {
		n := shown[r] - maxPerRule
		fmt.Fprintf(w, "%s: note %s: and %d more %s %s (use --max-per-rule 0 to see all)\n",
			check.EscapeControls(name), r, n, r, map[bool]string{true: "warning", false: "warnings"}[n == 1])
	}
}

// writeRobotsList writes the sitemap URLs in format (text, jsonl, or json
// with the warnings; fromURL says whether name is a URL or a file).
func writeRobotsList(w io.Writer, format, name string, fromURL bool, sitemaps []string, warnings []robots.Warning) error {
	switch format {
	case "text":
		for _, u := range sitemaps {
			if _, err := fmt.Fprintln(w, u); err != nil {
				return outputError(err)
			}
		}
	case "jsonl":
		enc := json.NewEncoder(w)
		for _, u := range sitemaps {
			if err := enc.Encode(map[string]string{"loc": u}); err != nil {
				return cannotRun("writing output: %v", err)
			}
		}
	case "json":
		out := robotsListJSON{Robots: name, Sitemaps: append([]string{}, sitemaps...), Warnings: []robots.Warning{}}
		for _, wa := range warnings {
			jw := wa // a diagnostic as JSON, placed below
			if fromURL {
				jw.URL = name
			} else {
				jw.File = name
			}
			out.Warnings = append(out.Warnings, jw)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return cannotRun("writing output: %v", err)
		}
	}
	return nil
}

// fetchRobots fetches the robots.txt of a URL (fetch.Client.RobotsTxt)
// within --timeout: the File (nil for a 4xx answer), the URL that
// answered, and the status.
func fetchRobots(ctx context.Context, opts *robotsOptions) (*robots.File, *url.URL, int, error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = defaultUserAgent()
	}
	client, err := fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: opts.Timeout, RobotsMaxBytes: opts.MaxBytes, Scope: opts.Scope})
	if err != nil {
		return nil, nil, 0, err
	}
	defer client.CloseIdleConnections()
	r, err := client.RobotsTxt(ctx, opts.Target)
	if r == nil {
		return nil, nil, 0, err
	}
	final, perr := url.Parse(r.FinalURL)
	if perr != nil {
		final, _ = url.Parse(r.URL)
	}
	// Parse read one byte past the limit to notice truncation; the rest
	// of an endless body is never read.
	return r.File, final, r.Status, err
}

func runRobotsEdit(opts *robotsOptions, s *streams) error {
	if urlnorm.IsHTTP(opts.Target) {
		return cannotRun("%s: %s edits a local file; download it, edit it, and upload it", opts.Target, opts.Action)
	}
	if opts.Action == "add" {
		if err := normalSitemapURL(opts, s); err != nil {
			return err
		}
	}
	name := opts.Target
	var edit func(robots.Edit) (robots.Edited, error)
	if name == "-" {
		name = input.StdinName
		src, err := io.ReadAll(s.In)
		if err != nil {
			return cannotRun("reading standard input: %v", err)
		}
		edit = func(e robots.Edit) (robots.Edited, error) { return e.Apply(src) }
	} else {
		edit = func(e robots.Edit) (robots.Edited, error) { return e.File(name) }
	}
	var ed robots.Edited
	var err error
	if opts.Action == "add" {
		ed, err = edit(robots.Edit{Add: opts.SitemapURL})
	} else {
		ed, err = edit(robots.Edit{Remove: []string{opts.SitemapURL}})
		if n, ch, nerr := urlnorm.Normalize(opts.SitemapURL); err == nil && !ed.Changed() && nerr == nil && ch != 0 {
			// The line add wrote for the URL as given (its normal form).
			if ed, err = edit(robots.Edit{Remove: []string{n}}); ed.Changed() {
				opts.SitemapURL = n
			}
		}
	}
	if err := robotsEditError(name, err); err != nil {
		return err
	}
	if opts.Target == "-" {
		if _, err := s.Out.Write(ed.Out); err != nil {
			return cannotRun("writing output: %v", err)
		}
	}
	switch {
	case opts.Action == "add" && !ed.Changed():
		fmt.Fprintf(s.Err, "%s: already lists Sitemap: %s; unchanged\n", name, opts.SitemapURL)
	case opts.Action == "add" && ed.Created:
		fmt.Fprintf(s.Err, "%s: created with Sitemap: %s\n", name, opts.SitemapURL)
	case opts.Action == "add":
		fmt.Fprintf(s.Err, "%s: added Sitemap: %s\n", name, opts.SitemapURL)
	case !ed.Changed():
		fmt.Fprintf(s.Err, "%s: no Sitemap line lists %s; unchanged\n", name, opts.SitemapURL)
	default:
		fmt.Fprintf(s.Err, "%s: removed Sitemap: %s\n", name, opts.SitemapURL)
	}
	if ua := ed.Disallowed; ua != "" {
		fmt.Fprintf(s.Err, "%s: warning RB-11: this robots.txt disallows %s for %s; crawlers will not fetch it\n", name, robots.PathOf(opts.SitemapURL), ua)
	}
	return nil
}

// normalSitemapURL puts the SITEMAP_URL of add in its normal form, the
// one generate --robots writes, so the two never list one sitemap twice;
// a rewrite is said. A URL that cannot be on a Sitemap: line is exit 2.
func normalSitemapURL(opts *robotsOptions, s *streams) error {
	n, ch, err := urlnorm.Normalize(opts.SitemapURL)
	if err != nil {
		if err := robots.CheckSitemapURL(opts.SitemapURL); err != nil {
			return cannotRun("%v", err)
		}
		if _, pr := check.URL(opts.SitemapURL); !pr.OK() { // it refuses every URL without a normal form
			return cannotRun("sitemap URL %q %s (%s)", check.EscapeControls(opts.SitemapURL), pr.Text(), pr.Rule)
		}
		return cannotRun("sitemap URL %v", err)
	}
	if ch != 0 {
		fmt.Fprintf(s.Err, "sitemap URL %q written as %q (%s; L-18)\n", check.EscapeControls(opts.SitemapURL), n, ch)
		opts.SitemapURL = n
	}
	if err := robots.CheckSitemapURL(opts.SitemapURL); err != nil {
		return cannotRun("%v", err)
	}
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
