package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/net/idna"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/xsl"
)

// generateOptions are the flags and arguments of `sitemap generate`.
type generateOptions struct {
	BaseURL string
	SiteURL string
	publishFlags
	InputFormat string
	Strict      bool
	DryRun      bool
	JSON        bool
	Legacy      bool
	Robots      string
	XSL         bool
	State       string
	StateDay    bool
	NewsMaxAge  time.Duration
	// KeepDuplicates publishes every entry as read; by default a loc
	// already published is skipped (L-17), remembered in at most
	// DedupMemory bytes and past that in a temporary file.
	KeepDuplicates bool
	DedupMemory    byteSize
	Inputs         []string
}

// genDedupMemory is generate's default --dedup-memory: 16 MiB holds about
// 1.4 million distinct URLs before the set spills to disk, so a run of 10
// million URLs stays well under 64 MB of memory.
const genDedupMemory = 16 << 20

// genMaxReported is how many skipped entries are reported one by one; the
// rest are counted in one closing line so a bad million-line file does not
// flood the terminal.
const genMaxReported = 100

func newGenerateCmd(s *streams) *cobra.Command {
	o := &generateOptions{}
	c := &cobra.Command{
		Use:   "generate [flags] INPUT...",
		Short: "Generate sitemaps (and an index when needed) from URL lists, CSV or JSONL",
		Long: `Generate reads entries from each INPUT ("-" is standard input) and writes sitemaps into
--out: NAME.xml, or NAME-1.xml, NAME-2.xml, … and the index NAME.xml when the entries need
more than one file (50,000 URLs or 50 MiB each, S-01/S-02). Files are written aside and
renamed into place, the index last; files of the previous run that are no longer needed are
removed. A summary table goes to standard error.

Input formats, by extension (.txt, .csv, .jsonl/.ndjson, each optionally .gz) or
--input-format:
  text   one absolute URL per line; blank lines and lines starting with # are skipped
  csv    a header row naming the columns loc, lastmod, changefreq, priority
         (comma-separated; tab or semicolon when the header row has no comma)
  jsonl  one entry record (a JSON object) per line, with every extension: images,
         videos, news, alternates

A URL listed again (the same loc, in the same input or another) is skipped and counted, the
first valid occurrence kept: repeats waste the 50,000-URL budget of a sitemap (L-17).
--keep-duplicates publishes every entry as read. The URLs seen are remembered in at most
--dedup-memory (16MiB by default: about 1.4 million URLs); past it, in a temporary file.

An invalid entry is skipped and reported with its position (urls.txt:3: …); the valid ones
are published and the exit status is 1. With --strict the first invalid entry stops the
run and nothing is published. Exit status 2: bad flags, unreadable input, unwritable output.`,
		Example: `  sitemap generate --base-url https://www.example.com/ --out public/ --gzip examples/urls.jsonl
  sitemap generate --base-url https://www.example.com/ --out public/ --xsl --robots public/robots.txt examples/urls.txt examples/urls.csv
  cat examples/urls.txt | sitemap generate --base-url https://www.example.com/ --dry-run -
  sitemap generate --base-url https://www.example.com/ --out public/ --state public/.sitemap-state.db examples/urls.txt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			return runGenerate(c.Context(), o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.BaseURL, "base-url", "", "URL of the directory the sitemaps are served from, e.g. https://www.example.com/ (required)")
	f.StringVar(&o.SiteURL, "site-url", "", "scope of the entries when the sitemaps are served from another host (default: --base-url)")
	o.publishFlags.register(f)
	f.StringVar(&o.InputFormat, "input-format", "auto", "input format: auto (by extension), text, csv, jsonl")
	f.BoolVar(&o.Strict, "strict", false, "stop at the first invalid entry and publish nothing")
	f.BoolVar(&o.DryRun, "dry-run", false, "print the summary without writing anything")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON on standard output")
	f.BoolVar(&o.Legacy, "legacy", false, "also write deprecated extension tags (IM-04, V-04, N-09)")
	f.StringVar(&o.Robots, "robots", "", "robots.txt `FILE` to add the Sitemap: line to (created when missing; other bytes kept)")
	f.DurationVar(&o.NewsMaxAge, "news-max-age", 48*time.Hour, "drop the <news:news> block of articles published longer ago than this; Google takes only the last two days (N-06, N-11); 0 keeps every one")
	f.StringVar(&o.State, "state", "", "remember entries between runs in this SQLite `FILE`: an unchanged entry keeps its lastmod, a changed one gets the run's time (M-02, M-05)")
	f.BoolVar(&o.StateDay, "state-day", false, "with --state, write observed changes at day precision (YYYY-MM-DD) instead of seconds")
	f.BoolVar(&o.KeepDuplicates, "keep-duplicates", false, "publish a URL every time the input lists it; by default repeats are skipped and counted (L-17)")
	o.DedupMemory = genDedupMemory
	f.Var(&o.DedupMemory, "dedup-memory", "most memory for remembering the URLs read, a `SIZE` like 16MiB or 1GiB; past it they go to a temporary file")
	f.BoolVar(&o.XSL, "xsl", false, "write "+xsl.DefaultName+" beside the sitemaps and reference it, so browsers show a table")
	return c
}

// generateRun is the state of one run.
type generateRun struct {
	o         *generateOptions
	s         *streams
	b         *build.Builder
	state     state.Store
	statePrec sitemap.Precision
	now       time.Time
	format    source.Format
	bar       *progress.Bar
	problems  int
	outScope  int // entries refused as outside the scope (L-09)
	// seen holds the locs read so far (nil with --keep-duplicates); dups
	// counts the entries skipped as repeats (L-17).
	seen *seen.Set
	dups int
	// refused holds the locs of entries the builder refused, none of
	// whose copies has been added since, so that a later valid copy is
	// published instead of skipped as a repeat (L-17). It is bounded
	// (genMaxRefused); refusedFull tells that a loc did not fit.
	refused       map[string]struct{}
	refusedBytes  int
	refusedFull   bool
	refusedWarned bool
}

func runGenerate(ctx context.Context, o *generateOptions, s *streams) error {
	if o.BaseURL == "" {
		return cannotRun("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	if o.NewsMaxAge < 0 {
		return cannotRun("--news-max-age %v: give a positive duration such as 48h, or 0 to keep every news block", o.NewsMaxAge)
	}
	bo, err := o.publishFlags.buildOptions()
	if err != nil {
		return err
	}
	format, err := source.ParseFormat(o.InputFormat)
	if err != nil {
		return cannotRun("--input-format: %v", err)
	}
	stdin := 0
	for _, in := range o.Inputs {
		if in == "-" {
			if stdin++; stdin > 1 {
				return cannotRun("standard input (-) given more than once")
			}
		}
	}
	bo.BaseURL, bo.SiteURL = o.BaseURL, o.SiteURL
	bo.Legacy, bo.DryRun, bo.NewsMaxAge = o.Legacy, o.DryRun, o.NewsMaxAge
	if o.XSL {
		// Relative: it resolves against each file's own URL, and every file
		// of the set sits in the same directory.
		bo.Stylesheet = xsl.DefaultName
	}
	var st store.Store
	if !o.DryRun {
		d, err := store.Dir(o.Out)
		if err != nil {
			return cannotRun("--out %s: %v", o.Out, err)
		}
		st = d
	} else if fi, err := os.Stat(o.Out); err == nil && fi.IsDir() {
		// Read only (the builder writes nothing in a dry run): the
		// previous run's manifest tells what a real run would remove.
		if d, err := store.Dir(o.Out); err == nil {
			st = d
		}
	}
	b, err := build.NewContext(ctx, st, bo)
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			// The lock or the recovery of an earlier run could not touch
			// the directory: say which flag points there.
			return cannotRun("--out %s: cannot write to the output directory; check that it is writable: %v", o.Out, err)
		}
		return cannotRun("%v", err)
	}
	r := &generateRun{o: o, s: s, b: b, format: format, now: time.Now()}
	if o.State != "" {
		prec := sitemap.PrecisionSecond
		if o.StateDay {
			prec = sitemap.PrecisionDay
		}
		st, err := state.OpenSQLite(ctx, o.State, state.SQLiteOptions{Precision: prec})
		if err != nil {
			b.Abort()
			return cannotRun("--state %s: %v", o.State, err)
		}
		r.state, r.statePrec = st, prec
		defer func() {
			if r.state != nil {
				r.state.Close()
			}
		}()
	}
	if !o.KeepDuplicates {
		// Spill files go to os.TempDir() and are removed by Close, on
		// every path out of this function.
		r.seen = seen.New(int64(o.DedupMemory), os.TempDir())
		defer r.seen.Close()
	}
	if s.ErrIsTerminal {
		r.bar = progress.New(s.Err, progress.Options{Unit: "URLs"})
	}
	err = r.readAll(ctx)
	r.bar.Done()
	if err != nil {
		b.Abort()
		return err
	}
	if r.problems > genMaxReported {
		fmt.Fprintf(s.Err, "… and %d more invalid entries\n", r.problems-genMaxReported)
	}
	if r.outScope > 0 && o.SiteURL == "" {
		// The usual cause: sitemaps served from a directory, or from
		// another host, that list the whole site.
		fmt.Fprintf(s.Err, "sitemap: %d %s outside %s: sitemaps list only URLs under the directory they are served from (L-15); serve them from the site's root, or give --site-url with the site's root and add the Sitemap: line to its robots.txt (--robots, O-03)\n",
			r.outScope, genPlural(r.outScope, "entry is", "entries are"), genSlash(o.BaseURL))
	}

	if o.XSL && !o.DryRun {
		// Before the sitemaps that reference it; a failed commit leaves
		// only this static file behind, identical on every run.
		if err := writeStylesheet(ctx, st); err != nil {
			b.Abort()
			return cannotRun("writing %s: %v", filepath.Join(o.Out, xsl.DefaultName), err)
		}
	}
	sum, err := b.Commit(ctx)
	if errors.Is(err, build.ErrNoEntries) {
		what := "no valid entries"
		if r.problems == 0 {
			// Not one entry read: an empty file, or only comments.
			what = "the input holds no entries (empty, or only blank and # lines)"
		}
		fmt.Fprintf(s.Err, "sitemap: %s; nothing published (an empty sitemap is not valid, X-07), previous sitemaps left as they were\n", what)
		return problemsFound()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}

	if r.state != nil {
		err := r.state.Close()
		r.state = nil
		if err != nil {
			return cannotRun("--state %s: the sitemaps were published but the state could not be saved: %v", o.State, err)
		}
	}
	// Every invalid entry counts, those the reader refused as well as
	// those the builder did, so the summary agrees with the report.
	sum.Skipped = r.problems
	if o.JSON {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return cannotRun("writing summary: %v", err)
		}
	} else {
		sum.WriteTable(s.Err)
	}
	if r.dups > 0 {
		fmt.Fprintf(s.Err, "sitemap: %d duplicate %s skipped (L-17); the first valid one of each was kept (--keep-duplicates keeps them all)\n",
			r.dups, genPlural(r.dups, "URL", "URLs"))
	}
	if o.SiteURL != "" {
		warnCrossSubmit(o, genTopURL(o, sum), s)
	}
	if o.Robots != "" {
		if err := addRobotsLine(o, sum, s); err != nil {
			return err
		}
	}
	if r.problems > 0 {
		done := "the valid ones were published"
		if o.DryRun {
			done = "dry run, nothing written"
		}
		fmt.Fprintf(s.Err, "sitemap: %d invalid %s skipped; %s\n", r.problems, genPlural(r.problems, "entry", "entries"), done)
		return problemsFound()
	}
	return nil
}

// add stamps rec (with --state) and adds it to the builder; display
// names its input in messages.
func (r *generateRun) add(ctx context.Context, rec *source.Record, display string) error {
	var stamped state.Record
	if r.state != nil {
		// Truthful lastmod (M-05): unchanged entries keep the lastmod
		// recorded when they last changed; changed ones get the run's
		// time; a lastmod given on input wins. The record is kept only
		// once the builder accepts the entry, so an invalid copy of a
		// URL never counts as a change of the valid one.
		prev, found, err := r.state.Lookup(ctx, rec.URL.Loc)
		if err != nil {
			return cannotRun("--state %s: %v", r.o.State, err)
		}
		stamped, rec.URL.LastMod = state.Decide(prev, found, &rec.URL, r.now, r.statePrec)
	}
	loc := rec.URL.Loc // as read: the key of the dedup set (L-17)
	err := r.b.Add(ctx, &rec.URL)
	var eerr *sitemap.EntryError
	if errors.As(err, &eerr) {
		if eerr.Rule == "L-09" {
			r.outScope++
		}
		r.refuse(loc)
		// The encoder's message already carries its suggestion (L-07).
		return r.invalid(fmt.Sprintf("%s:%d: %v", display, rec.Line, eerr))
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("%v", err)
	}
	if r.state != nil {
		if err := r.state.Put(ctx, stamped); err != nil {
			return cannotRun("--state %s: %v", r.o.State, err)
		}
	}
	r.accept(loc)
	r.bar.Add(1)
	return nil
}

// invalid reports one skipped entry; under --strict it ends the run.
func (r *generateRun) invalid(msg string) error {
	r.problems++
	if r.o.Strict {
		fmt.Fprintln(r.s.Err, msg)
		fmt.Fprintln(r.s.Err, "sitemap: --strict: stopped at the first invalid entry; nothing published, previous sitemaps left as they were")
		return problemsFound()
	}
	if r.problems <= genMaxReported {
		r.bar.Println(r.s.Err, msg)
	}
	return nil
}

// warnCrossSubmit explains O-03 when the entries' host differs from the
// host the sitemaps are served from.
func warnCrossSubmit(o *generateOptions, top string, s *streams) {
	base, err1 := url.Parse(o.BaseURL)
	site, err2 := url.Parse(o.SiteURL)
	if err1 != nil || err2 != nil {
		return
	}
	baseHost, siteHost := genHost(base), genHost(site)
	if baseHost == siteHost && strings.EqualFold(base.Scheme, site.Scheme) {
		return
	}
	robotsURL := strings.ToLower(site.Scheme) + "://" + siteHost + "/robots.txt"
	fmt.Fprintf(s.Err, "sitemap: warning O-03: the sitemaps on %s list URLs of %s; search engines accept them only when %s has the line \"Sitemap: %s\" (cross-submission, RB-08); add it with --robots or \"sitemap robots add\"\n",
		baseHost, siteHost, robotsURL, top)
}

// genHost returns u's host as it goes on the wire: punycode (an IDN and
// its xn-- form are one host), lowercase, with the port unless it is the
// scheme's default.
func genHost(u *url.URL) string {
	h := u.Hostname()
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		h = a
	}
	h = strings.ToLower(h)
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	switch p := u.Port(); {
	case p == "", p == "443" && strings.EqualFold(u.Scheme, "https"), p == "80" && strings.EqualFold(u.Scheme, "http"):
		return h
	default:
		return h + ":" + p
	}
}

func genSlash(s string) string {
	if strings.HasSuffix(s, "/") {
		return s
	}
	return s + "/"
}

// writeStylesheet publishes the default stylesheet into the store.
func writeStylesheet(ctx context.Context, st store.Store) error {
	f, err := st.Create(ctx, xsl.DefaultName)
	if err != nil {
		return err
	}
	if _, err := xsl.WriteTo(f); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		f.Abort()
		return err
	}
	return st.Publish(ctx, store.Publication{Journal: xsl.DefaultName + ".publish-journal", Files: []store.File{f}})
}

// genTopURL is the URL of the run's top file: the index, or the single
// sitemap.
func genTopURL(o *generateOptions, sum build.Summary) string {
	switch {
	case sum.Index != nil:
		return genSlash(o.BaseURL) + sum.Index.Name
	case len(sum.Files) > 0:
		return genSlash(o.BaseURL) + sum.Files[0].Name
	}
	return ""
}

// addRobotsLine adds the Sitemap: line of the run's top file (the index,
// or the single sitemap) to the robots.txt file o.Robots, keeping every
// other byte (RB-13) and never duplicating the line.
func addRobotsLine(o *generateOptions, sum build.Summary, s *streams) error {
	sitemapURL := genTopURL(o, sum)
	if sitemapURL == "" {
		return nil
	}
	if o.DryRun {
		fmt.Fprintf(s.Err, "%s: would add Sitemap: %s (dry run)\n", o.Robots, sitemapURL)
		return nil
	}
	var mode fs.FileMode = 0o644
	src, err := os.ReadFile(o.Robots)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src = nil
	case err != nil:
		return cannotRun("--robots: %v", err)
	default:
		if st, err := os.Stat(o.Robots); err == nil {
			mode = st.Mode().Perm()
		}
	}
	out, added, err := robots.AddSitemap(src, sitemapURL)
	if err != nil {
		return cannotRun("--robots %s: %v", o.Robots, err)
	}
	// A Sitemap: line for a file this run removed (the previous top file,
	// when a single sitemap became an index or gzip was switched) would
	// send crawlers to a 404; it goes, every other byte stays.
	var dropped []string
	for _, name := range sum.Removed {
		u := genSlash(o.BaseURL) + name
		var changed bool
		if out, changed, err = robots.RemoveSitemap(out, u); err != nil {
			return cannotRun("--robots %s: %v", o.Robots, err)
		}
		if changed {
			dropped = append(dropped, u)
		}
	}
	if !added && len(dropped) == 0 {
		fmt.Fprintf(s.Err, "%s: already lists Sitemap: %s\n", o.Robots, sitemapURL)
		return nil
	}
	if err := writeFileAtomic(o.Robots, out, mode); err != nil {
		return cannotRun("--robots: %v", err)
	}
	if added {
		fmt.Fprintf(s.Err, "%s: added Sitemap: %s\n", o.Robots, sitemapURL)
	}
	for _, u := range dropped {
		fmt.Fprintf(s.Err, "%s: removed Sitemap: %s (no longer published)\n", o.Robots, u)
	}
	return nil
}

func genPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
