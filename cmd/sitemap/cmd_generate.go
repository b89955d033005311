package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/xsl"
)

// generateOptions are the flags and arguments of `sitemap generate`.
type generateOptions struct {
	publishFlags
	// Gen are the run's settings (generate.Settings.Options); its Output
	// is publishFlags' build.Settings.
	Gen         generate.Settings
	InputFormat string
	Columns     string
	AllRows     bool
	MaxErrors   int
	JSON        bool
	State       string
	StateDay    bool
	Inputs      []string
	// db is the --db source (--columns is Columns above).
	db sqlFlags
	indexnowFlags
}

func newGenerateCmd(s *streams) *cobra.Command {
	o := &generateOptions{}
	c := withHelp("generate", &cobra.Command{
		Use: "generate [flags] INPUT...",
		Args: func(c *cobra.Command, args []string) error {
			if o.db.Preset != "" && o.db.DB == "" {
				return o.db.check() // --preset (--print-query too) needs --db: say that
			}
			if len(args) == 0 && o.db.DB == "" {
				return errors.New("requires at least 1 arg(s), only received 0: give INPUT files, or --db")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			o.indexnowUA = userAgent(c)
			o.publishFlags.userAgent = o.indexnowUA
			return runGenerate(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Gen.BaseURL, "base-url", "", "URL the sitemaps are served from, e.g. https://www.example.com/ (required)")
	f.StringVar(&o.Gen.SiteURL, "site-url", "", "site of the entries when not --base-url's")
	addMaxErrors(c, &o.MaxErrors)
	o.publishFlags.register(f)
	o.indexnowFlags.register(f)
	f.StringVar(&o.InputFormat, "input-format", "auto", "input format: auto, text, csv, jsonl")
	f.StringVar(&o.Columns, "columns", "", "columns of the fields: loc=Address,lastmod=\"Last Modified\"")
	f.BoolVar(&o.AllRows, "all-rows", false, "publish every CSV row, even those a crawler marks not indexable")
	f.BoolVar(&o.Gen.NoHreflangCheck, "no-hreflang-check", false, "write alternates as given, hreflang clusters not completed")
	f.StringVar(&o.db.DB, "db", "", "read the entries from a SQLite file or a postgres:// or mysql:// `URL`")
	f.StringVar(&o.db.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.db.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.db.Key, "key", "", "with --db, the unique `COLUMN` rows are read in order of (default: loc)")
	o.db.registerPreset(f)
	f.BoolVar(&o.Gen.Strict, "strict", false, "publish nothing when an entry is invalid or needs a repair")
	f.BoolVar(&o.Gen.NoNormalize, "no-normalize", false, "refuse URLs not in their normal form instead of rewriting them (L-18)")
	f.BoolVar(&o.Gen.DryRun, "dry-run", false, "print the summary without writing anything")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON on standard output")
	f.BoolVar(&o.Gen.Legacy, "legacy", false, "also write deprecated extension tags (IM-04, V-04, N-09)")
	f.StringVar(&o.Gen.Robots, "robots", "", "add the Sitemap: line to this robots.txt `FILE`")
	f.DurationVar(&o.Gen.NewsMaxAge, "news-max-age", 48*time.Hour, "drop news blocks older than this (N-06, N-11); 0 keeps all")
	f.StringVar(&o.State, "state", "", "state `FILE` or postgres:// database: lastmod moves only on a change")
	f.BoolVar(&o.StateDay, "state-day", false, "with --state, write observed changes as a day (YYYY-MM-DD)")
	f.BoolVar(&o.Gen.KeepDuplicates, "keep-duplicates", false, "publish repeated URLs too (L-17)")
	o.Gen.DedupMemory = generate.DefaultDedupMemory
	f.Var((*seen.Memory)(&o.Gen.DedupMemory), "dedup-memory", "memory for the URLs seen, such as 1GiB; then a temporary file")
	f.StringArrayVar(&o.Gen.Include, "include", nil, "publish only locs matching this regular expression (repeatable)")
	f.StringArrayVar(&o.Gen.Exclude, "exclude", nil, "leave out locs matching this regular expression (repeatable)")
	f.BoolVar(&o.Gen.XSL, "xsl", false, "write "+xsl.DefaultName+" for browsers that still run XSLT (see sitemap html)")
	f.StringVar(&o.Gen.Shard, "shard", "", "write shard `K/N` of a set; then sitemap index --shards N")
	f.StringVar(&o.Gen.ShardBy, "shard-by", "hash", "with --shard: hash (each run reads all input) or input")
	return c
}

func runGenerate(ctx context.Context, o *generateOptions, s *streams) error {
	inKey, err := o.check(s)
	if err != nil {
		return err
	}
	g, in, docs, err := o.options()
	if err != nil {
		return err
	}
	var dbSrc generate.Source // of --db
	if o.db.DB != "" {
		var closeDB func()
		if dbSrc, closeDB, err = o.dbSource(ctx, s); err != nil || dbSrc == nil {
			return err // nil after --print-query
		}
		defer closeDB()
	}
	ignoreBrokenPipe()
	// In a dry run an existing directory is only read: the files
	// published there tell what a real run would remove.
	st, undo, err := o.outStore(o.Gen.DryRun, s.Out)
	if err != nil {
		return err
	}
	published := false
	defer func() {
		if !published {
			// A run that published nothing leaves no directory behind
			// (undo removes only directories it created, still empty).
			undo()
		}
	}()
	g.Out = st
	if o.State != "" {
		done, err := o.openState(ctx, &g)
		if err != nil {
			return err
		}
		defer done() // after a successful run, closed (and checked) in summarize
	}
	in.Stdin = s.In
	src, measure := dbSrc, func() (int64, int64) { return 0, 0 }
	if src == nil {
		src, measure = generate.Inputs(docs, in)
	}
	var bar *progress.Bar
	if s.ErrIsTerminal {
		bar = progress.New(s.Err, progress.Options{Unit: "URLs", Of: "bytes", Measure: measure})
		g.Progress = func(n int64) { bar.Set(n) }
	}
	rep := &generate.Reporter{Strict: o.Gen.Strict, Print: func(line string) { bar.Println(s.Err, line) }}
	g.Report = rep.Report
	sum, err := generate.Run(ctx, src, g)
	bar.Done()
	var serr *generate.StageError
	errors.As(err, &serr)
	published = err == nil || (serr != nil && (serr.Stage == generate.StageRobots || serr.Stage == generate.StageRobotsEdit))
	return o.finish(ctx, &g, sum, err, serr, rep, inKey, s)
}

// check refuses the flags that cannot go together or hold bad values,
// puts --base-url and --site-url in their normal form (said when
// rewritten), and returns the IndexNow key of --indexnow-key-file ("").
func (o *generateOptions) check(s *streams) (string, error) {
	if o.Gen.BaseURL == "" {
		return "", cannotRun("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	if !o.Gen.NoNormalize {
		o.Gen.BaseURL = normalURLFlag("--base-url", o.Gen.BaseURL, s)
		if o.Gen.SiteURL != "" {
			o.Gen.SiteURL = normalURLFlag("--site-url", o.Gen.SiteURL, s)
		}
	}
	if o.StateDay && o.State == "" {
		return "", cannotRun("--state-day sets the precision of the dates --state records; give --state FILE too, or drop --state-day")
	}
	return o.indexnowFlags.check(o.State != "")
}

// options turns the flags into the options of generate.Run (all but Out
// and State) and of generate.Inputs, and resolves the INPUTs.
func (o *generateOptions) options() (generate.Options, generate.InputOptions, []input.Doc, error) {
	var in generate.InputOptions
	if o.Out == "" {
		return generate.Options{}, in, nil, errEmptyOut
	}
	o.Gen.Output, o.Gen.ToWriter = o.publishFlags.Settings, o.toStdout()
	g, err := o.Gen.Options()
	if err != nil {
		return g, in, nil, cannotRun("%v", err)
	}
	if in.Source.Format, err = source.ParseFormat(o.InputFormat); err != nil {
		return g, in, nil, cannotRun("--input-format: %v", err)
	}
	if o.db.DB == "" {
		if in.Source.Columns, err = source.ParseColumns(o.Columns); err != nil {
			return g, in, nil, cannotRun("--columns: %v", err)
		}
	}
	in.Source.AllRows = o.AllRows
	in.MaxErrors = decoderMaxErrors(o.MaxErrors)
	if err := o.checkDB(); err != nil {
		return g, in, nil, err
	}
	docs, err := input.Resolve(o.Inputs, input.Options{FilesOnly: true})
	if err != nil {
		return g, in, nil, cannotRun("%v", err)
	}
	for _, d := range docs {
		if d.IsHTTP() {
			return g, in, nil, cannotRun("INPUT %s is a URL; generate reads files and - (for a site's URLs: sitemap fetch --format jsonl URL | sitemap generate ... -)", d.Name)
		}
	}
	if o.toStdout() {
		if err := o.stdoutOptions(&g.Build, o.JSON, o.Gen.XSL); err != nil {
			return g, in, nil, err
		}
	}
	return g, in, docs, nil
}

// openState opens --state into g; a dry run reads a copy of a file
// (state.Options.DryRun), a PostgreSQL state as it is (generate only
// reads it in a dry run; its schema is created when missing).
func (o *generateOptions) openState(ctx context.Context, g *generate.Options) (func(), error) {
	prec := sitemap.PrecisionSecond
	if o.StateDay {
		prec = sitemap.PrecisionDay
	}
	sst, err := openState(ctx, o.State, state.Options{Precision: prec, DryRun: o.Gen.DryRun})
	if err != nil {
		return nil, err
	}
	g.State, g.StatePrecision = sst, prec
	return func() { sst.Close() }, nil
}

// finish says how the run went and returns its exit error: the summary,
// the closing lines, robots.txt, and the IndexNow submission.
func (o *generateOptions) finish(ctx context.Context, g *generate.Options, sum generate.Summary, err error, serr *generate.StageError, rep *generate.Reporter, inKey string, s *streams) error {
	if errors.Is(err, generate.ErrStrict) {
		fmt.Fprintln(s.Err, "sitemap: --strict: stopped at the first invalid entry; nothing published, previous sitemaps left as they were")
		return problemsFound()
	}
	published := err == nil || (serr != nil && (serr.Stage == generate.StageRobots || serr.Stage == generate.StageRobotsEdit))
	var need *build.NeedIndexError
	if o.toStdout() && errors.As(err, &need) {
		return needIndexError(need)
	}
	if err != nil && !published && !errors.Is(err, build.ErrNoEntries) {
		return generateError(ctx, o, err, serr)
	}
	rep.WriteHeld(s.Err, sum.Skipped)
	sum.WriteScope(s.Err, o.Gen.BaseURL, o.Gen.SiteURL)
	if errors.Is(err, build.ErrNoEntries) {
		fmt.Fprintf(s.Err, "sitemap: %s; nothing published (an empty sitemap is not valid, X-07), previous sitemaps left as they were\n", sum.WhyEmpty(g.Shard, g.Shards))
		return problemsFound()
	}
	if g.State != nil {
		if err := g.State.Close(); err != nil {
			return cannotRun("--state %s: the sitemaps were published but the state could not be saved: %v", state.Redact(o.State), err)
		}
	}
	if err := o.summarize(sum, s); err != nil {
		return err
	}
	if err != nil {
		return o.robotsError(ctx, err, serr, sum)
	}
	sum.Robots.WriteText(s.Err)
	if inKey != "" && !o.Gen.DryRun && o.Out != "-" {
		host := o.Gen.SiteURL
		if host == "" {
			host = o.Gen.BaseURL
		}
		if top := sum.TopIn(o.Out); top != "" {
			if err := o.indexnowFlags.submitPublished(ctx, inKey, top, indexnow.HostOf(host), o.State, s); err != nil {
				return err
			}
		}
	}
	if sum.WriteClosing(s.Err, o.Gen.DryRun) {
		return problemsFound()
	}
	return nil
}

// summarize writes the run's summary (a table on standard error, or JSON
// on standard output), and what it repaired and skipped.
func (o *generateOptions) summarize(sum generate.Summary, s *streams) error {
	if o.JSON {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return cannotRun("writing summary: %v", err)
		}
	} else {
		sum.WriteTable(s.Err)
	}
	o.publishFlags.warnNoIndex(s.Err, sum.Summary)
	sum.WriteNotes(s.Err, o.Gen.DryRun, o.Gen.BaseURL, o.Gen.SiteURL)
	return nil
}

// robotsError is the exit error of a run whose sitemaps were published
// but whose robots.txt could not take the line: it says how to add it.
func (o *generateOptions) robotsError(ctx context.Context, err error, serr *generate.StageError, sum generate.Summary) error {
	if serr != nil && sum.Sitemap != "" {
		path := o.Gen.Robots
		if sum.Robots != nil {
			path = sum.Robots.Path
		}
		return cannotRun("--robots %s: %v; the sitemaps were published: add their line when the file can take it: sitemap robots add %s %s",
			path, serr.Err, path, sum.Sitemap)
	}
	return generateError(ctx, o, err, serr)
}

// generateError turns an error of generate.Run into the command's exit
// error, naming the flag that points at what failed.
func generateError(ctx context.Context, o *generateOptions, err error, serr *generate.StageError) error {
	var exit *exitError
	var ierr *generate.InputError
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return ctx.Err()
	case errors.As(err, &exit):
		return exit
	case errors.As(err, &ierr):
		return cannotRun("%v", ierr)
	case errors.Is(err, source.ErrBinary):
		// Not a sitemap nor an entry list (F-04): nothing generate can
		// read, an unreadable input (validate, parse, fetch and diff,
		// whose work is to judge it, say it as a finding).
		return cannotRun("%v", err)
	case serr == nil:
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && o.Out != "" && o.Out != "-" && filepath.Dir(pe.Path) == filepath.Clean(o.Out) {
			// A file of the set could not be written there.
			return cannotRun("--out %s: cannot write to the output directory; check that it is writable: %v", o.Out, err)
		}
		return cannotRun("%v", err)
	}
	if err := stageError(o, serr); err != nil {
		return err
	}
	return cannotRun("%v", err)
}

// stageError is the exit error of a stage of generate.Run that failed
// (nil for a stage it has no words for).
func stageError(o *generateOptions, serr *generate.StageError) error {
	switch serr.Stage {
	case generate.StageOpen:
		if pe := (*fs.PathError)(nil); errors.As(serr.Err, &pe) {
			// The lock or the recovery of an earlier run could not touch
			// the directory: say which flag points there.
			return cannotRun("--out %s: cannot write to the output directory; check that it is writable: %v", o.Out, serr.Err)
		}
		return cannotRun("%v", serr.Err)
	case generate.StageState:
		return cannotRun("--state %s: %v", state.Redact(o.State), serr.Err)
	case generate.StageSaveState:
		return cannotRun("--state %s: the sitemaps were published but the state could not be saved: %v", state.Redact(o.State), serr.Err)
	case generate.StageDedup:
		m := seen.Memory(o.Gen.DedupMemory)
		return cannotRun("remembering the URLs read (--dedup-memory %s, temporary directory %s): %v; give more --dedup-memory, free space there, or --keep-duplicates", &m, os.TempDir(), serr.Err)
	case generate.StageStylesheet:
		return cannotRun("writing %s: %v", filepath.Join(o.Out, xsl.DefaultName), serr.Err)
	case generate.StageRobots:
		return cannotRun("--robots: %v", serr.Err)
	case generate.StageRobotsEdit:
		return cannotRun("--robots %s: %v", o.Gen.Robots, serr.Err)
	}
	return nil
}

// checkDB refuses --db flags that do not go together, and --table,
// --query, --key and the preset flags without --db.
func (o *generateOptions) checkDB() error {
	if o.db.DB == "" && (o.db.Table != "" || o.db.Query != "" || o.db.Key != "") {
		return cannotRun("--table, --query and --key need --db")
	}
	if o.db.DB != "" && len(o.Inputs) > 0 {
		return cannotRun("give INPUTs or --db, not both (for both: sitemap parse --format jsonl the INPUTs, and generate from the database with another --out)")
	}
	if o.db.DB != "" {
		o.db.Columns = o.Columns
	}
	return o.db.check()
}

// dbSource opens --db as the run's source: every row in key order, relative
// locs resolved against --site-url (or --base-url); a value of a row that
// cannot be read is said on standard error once per row. A nil source
// after --print-query, which printed the query.
func (o *generateOptions) dbSource(ctx context.Context, s *streams) (generate.Source, func(), error) {
	drops := serve.NewDropLog(s.Err, 0)
	drops.Prefix = "sitemap generate: "
	sq, closeDB, err := o.db.open(ctx, s.Out, drops)
	if err != nil || sq == nil {
		return nil, nil, err
	}
	base := o.Gen.SiteURL
	if base == "" {
		base = o.Gen.BaseURL
	}
	return generate.Entries(serve.All(sq, base)), closeDB, nil
}
