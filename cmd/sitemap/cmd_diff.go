package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
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
	c := &cobra.Command{
		Use:   "diff [flags] OLD NEW",
		Short: "Show the URLs added, removed and modified between two sitemaps, indexes, directories or sites",
		Long: `Diff prints the entries added (+), removed (-) and modified (~) between OLD and NEW (sitemaps,
indexes, directories, JSONL files or sites) in order of loc, sorting on disk for millions of
URLs; exit status 1 when they differ. See docs/READING.md.`,
		Example: `  sitemap diff testdata/samples/basic.xml testdata/samples/badorder.xml
  sitemap diff --format jsonl testdata/samples/basic.xml testdata/samples/basic.xml.gz
  sitemap diff --ignore lastmod testdata/samples/basic.xml public/
  sitemap diff https://www.example.com/sitemap.xml public/sitemap.xml`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			o.Old, o.New = args[0], args[1]
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runDiff(c.Context(), o, s)
		},
	}
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

// diffSide counts what reading one side reported. Its errors are
// printed, at most diffShownPerRule of one rule (a side of junk is not
// printed line by line), the rest counted.
type diffSide struct {
	name      string
	label     string // "old" or "new", as diff.Diff's errors start
	tally     report.Tally
	cap       *report.Cap
	lastError string // the last error diagnostic printed
}

// diffShownPerRule is how many errors of one rule a side prints.
const diffShownPerRule = 20

func runDiff(ctx context.Context, o *diffOptions, s *streams) error {
	w, err := diff.NewWriter(s.Out, o.Format)
	if err != nil {
		return cannotRun("%v", err)
	}
	if err := o.check(); err != nil {
		return err
	}
	sides := [2]*diffSide{{name: o.Old, label: "old"}, {name: o.New, label: "new"}}
	open := func(side *diffSide) diff.Entries {
		side.cap = report.NewCap(diffShownPerRule)
		return diff.Open(side.name, diff.OpenOptions{
			Stdin: s.In, Base: o.Base, AllowOffSite: o.AllowOffSite, Client: o.client,
			Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)},
			OnDiagnostic: func(d sitemap.Diagnostic) {
				side.tally.Add(d)
				if d.Severity == sitemap.SeverityError && side.cap.Show(string(d.Rule)) {
					side.lastError = d.String()
					fmt.Fprintln(s.Err, side.lastError)
				}
			},
		})
	}
	sum, err := diff.Diff(ctx, open(sides[0]), open(sides[1]), diff.Options{TempDir: o.TempDir, Ignore: o.Ignore}, w.Write)
	if ferr := w.Flush(); err == nil && ferr != nil {
		return cannotRun("writing the output: %v", ferr)
	}
	if err != nil {
		return diffError(err, sides)
	}
	fmt.Fprintf(s.Err, "sitemap diff: %s\n", sum)
	for _, side := range sides {
		if side.tally.Errors+side.tally.Warnings > 0 {
			fmt.Fprintln(s.Err, side.summary())
		}
	}
	if sum.Differ() {
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

// diffError is the error a run that diff.Diff stopped with err ends with.
func diffError(err error, sides [2]*diffSide) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	for _, side := range sides {
		if side.lastError != "" && err.Error() == side.label+": "+side.lastError {
			// The diagnostic that stopped the run is on the line above.
			// A finding about the document (empty, binary, not
			// well-formed: F-04, XML-01), exit 1 as in validate,
			// parse and fetch; an input that cannot be opened is 2.
			return &exitError{Code: exitProblems, Err: fmt.Errorf("%s: %s cannot be compared (the error above)", side.label, side.name)}
		}
	}
	// What the inputs list cannot be read whole (a child sitemap
	// missing or failing) or no sitemap was found at a URL: a
	// problem found, exit 1 as in validate and fetch.
	var child *input.ChildError
	if errors.As(err, &child) || errors.Is(err, diff.ErrNoSitemap) {
		return &exitError{Code: exitProblems, Err: fmt.Errorf("%v; nothing compared", err)}
	}
	return cannotRun("%v", err)
}

// summary is the line that counts what reading the side reported.
func (side *diffSide) summary() string {
	name := check.EscapeControls(side.name)
	shown := ""
	if n := side.cap.HeldTotal(); n > 0 {
		shown = fmt.Sprintf(" (%d not shown: at most %d of one rule)", n, diffShownPerRule)
	}
	details := fmt.Sprintf("; run 'sitemap validate %s' for details", name)
	if l := strings.TrimSuffix(strings.ToLower(side.name), ".gz"); strings.HasSuffix(l, ".jsonl") || strings.HasSuffix(l, ".ndjson") {
		details = "" // entry records, which validate does not read: the lines above are all
	}
	return fmt.Sprintf("sitemap diff: reading %s: %s%s, %s%s",
		name, plural.Of(side.tally.Errors, "error", "errors"), shown, plural.Of(side.tally.Warnings, "warning", "warnings"), details)
}
