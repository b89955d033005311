package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/xsl"
)

// generateOptions are the flags and arguments of `sitemap generate`.
type generateOptions struct {
	BaseURL string
	SiteURL string
	publishFlags
	InputFormat string
	Columns     string
	AllRows     bool
	NoHreflang  bool
	Strict      bool
	NoNormalize bool
	MaxErrors   int
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
	// Shard is --shard K/N; ShardBy is --shard-by (hash or input).
	Shard, ShardBy string
	DedupMemory    byteSize
	Include        []string
	Exclude        []string
	Inputs         []string
	// db is the --db source (--columns is Columns above).
	db sqlFlags
	indexnowFlags
}

// genDedupMemory is generate's default --dedup-memory: 80 MiB holds about
// 3.9 million distinct URLs before the set spills to disk, and keeps a run
// of 10^8 URLs under 150 MB of memory in all.
const genDedupMemory = generate.DefaultDedupMemory

func newGenerateCmd(s *streams) *cobra.Command {
	o := &generateOptions{}
	c := &cobra.Command{
		Use:   "generate [flags] INPUT...",
		Short: "Generate sitemaps (and an index when needed) from URL lists, CSV, JSONL, sitemaps or a database",
		Long: `Generate writes sitemaps into --out from URL lists, CSV, JSONL or sitemaps ("-" is standard
input), or from a database table, query or CMS (--db), with an index when they need more than
one file, published atomically. Repeated URLs are skipped, and a bad field costs that field,
not its page. See docs/GENERATE.md.`,
		Example: `  sitemap generate --base-url https://www.example.com/ --out public/ --gzip examples/urls.jsonl
  sitemap generate --base-url https://www.example.com/ --out public/ --xsl --robots public/robots.txt examples/urls.csv examples/urls.txt
  cat examples/urls.txt | sitemap generate --base-url https://www.example.com/ --dry-run -
  sitemap generate --base-url https://www.example.com/ --out public/ --state sitemap-state.db examples/urls.txt`,
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
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.BaseURL, "base-url", "", "URL the sitemaps are served from, e.g. https://www.example.com/ (required)")
	f.StringVar(&o.SiteURL, "site-url", "", "site of the entries when the sitemaps are on another host (default: --base-url)")
	addMaxErrors(c, &o.MaxErrors)
	o.publishFlags.register(f)
	o.indexnowFlags.register(f)
	f.StringVar(&o.InputFormat, "input-format", "auto", "input format: auto, text, csv, jsonl")
	f.StringVar(&o.Columns, "columns", "", "CSV (or --db) columns of the fields: loc=Address,lastmod=\"Last Modified\",status=Code")
	f.BoolVar(&o.AllRows, "all-rows", false, "publish every CSV row, even those a crawler export marks not 200, not indexable or canonicalised")
	f.BoolVar(&o.NoHreflang, "no-hreflang-check", false, "write alternates as given, without making hreflang clusters complete and reciprocal")
	f.StringVar(&o.db.DB, "db", "", "read the entries from a database instead of INPUTs: a SQLite file or a `URL` postgres://… or mysql://user:pass@host:port/db")
	f.StringVar(&o.db.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.db.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.db.Key, "key", "", "with --db, the unique `COLUMN` the rows are read in order of (default: the loc column)")
	o.db.registerPreset(f)
	f.BoolVar(&o.Strict, "strict", false, "publish nothing when an entry is invalid or needs a repair")
	f.BoolVar(&o.NoNormalize, "no-normalize", false, "refuse URLs not in their normal form (L-07) instead of rewriting them (L-18)")
	f.BoolVar(&o.DryRun, "dry-run", false, "print the summary without writing anything")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON on standard output")
	f.BoolVar(&o.Legacy, "legacy", false, "also write deprecated extension tags (image caption, news keywords, …; IM-04, V-04, N-09)")
	f.StringVar(&o.Robots, "robots", "", "add the Sitemap: line to this robots.txt `FILE`")
	f.DurationVar(&o.NewsMaxAge, "news-max-age", 48*time.Hour, "drop news blocks older than this (N-06, N-11); 0 keeps all")
	f.StringVar(&o.State, "state", "", "SQLite `FILE` or postgres:// database remembering entries, so lastmod moves only on a change")
	f.BoolVar(&o.StateDay, "state-day", false, "with --state, write observed changes as a day (YYYY-MM-DD)")
	f.BoolVar(&o.KeepDuplicates, "keep-duplicates", false, "publish repeated URLs too (L-17)")
	o.DedupMemory = genDedupMemory
	f.Var(&o.DedupMemory, "dedup-memory", "memory for the URLs seen, a `SIZE` such as 1GiB; then a temporary file")
	f.StringArrayVar(&o.Include, "include", nil, "publish only locs matching this regular expression (repeatable)")
	f.StringArrayVar(&o.Exclude, "exclude", nil, "leave out locs matching this regular expression (repeatable)")
	f.BoolVar(&o.XSL, "xsl", false, "write "+xsl.DefaultName+" for browsers that still run XSLT (see sitemap html)")
	f.StringVar(&o.Shard, "shard", "", "write shard `K/N` of a set; then sitemap index --shards N")
	f.StringVar(&o.ShardBy, "shard-by", "hash", "with --shard: hash (every run reads all input) or input (each reads its part)")
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
	st, undo, err := o.outStore(o.DryRun, s.Out)
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
	rep := &generate.Reporter{Strict: o.Strict, Print: func(line string) { bar.Println(s.Err, line) }}
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
	if o.BaseURL == "" {
		return "", cannotRun("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	if !o.NoNormalize {
		o.BaseURL = normalURLFlag("--base-url", o.BaseURL, s)
		if o.SiteURL != "" {
			o.SiteURL = normalURLFlag("--site-url", o.SiteURL, s)
		}
	}
	if err := checkDedupMemory(o.DedupMemory, genDedupMemory); err != nil {
		return "", err
	}
	if o.StateDay && o.State == "" {
		return "", cannotRun("--state-day sets the precision of the dates --state records; give --state FILE too, or drop --state-day")
	}
	inKey, err := o.indexnowFlags.check(o.State != "")
	if err != nil {
		return "", err
	}
	if o.NewsMaxAge < 0 {
		return "", cannotRun("--news-max-age %v: give a positive duration such as 48h, or 0 to keep every news block", o.NewsMaxAge)
	}
	return inKey, nil
}

// options turns the flags into the options of generate.Run (all but Out
// and State) and of generate.Inputs, and resolves the INPUTs.
func (o *generateOptions) options() (generate.Options, generate.InputOptions, []input.Doc, error) {
	var g generate.Options
	var in generate.InputOptions
	bo, err := o.publishFlags.buildOptions()
	if err != nil {
		return g, in, nil, err
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
	if g.Include, err = compileAll("include", o.Include); err != nil {
		return g, in, nil, err
	}
	if g.Exclude, err = compileAll("exclude", o.Exclude); err != nil {
		return g, in, nil, err
	}
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
	if g.Shard, g.Shards, err = o.shardOptions(&bo); err != nil {
		return g, in, nil, err
	}
	bo.BaseURL, bo.SiteURL = o.BaseURL, o.SiteURL
	bo.Legacy, bo.DryRun, bo.NewsMaxAge = o.Legacy, o.DryRun, o.NewsMaxAge
	if o.toStdout() {
		if err := o.stdoutOptions(&bo, o.JSON, o.XSL); err != nil {
			return g, in, nil, err
		}
	}
	g.Build, g.XSL, g.Strict, g.RobotsTxt, g.NoNormalize = bo, o.XSL, o.Strict, o.Robots, o.NoNormalize
	g.NoHreflangCheck = o.NoHreflang
	g.KeepDuplicates, g.DedupMemory = o.KeepDuplicates, int64(o.DedupMemory)
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
	sst, err := openState(ctx, o.State, state.Options{Precision: prec, DryRun: o.DryRun})
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
	sum.WriteScope(s.Err, o.BaseURL, o.SiteURL)
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
	if inKey != "" && !o.DryRun && o.Out != "-" {
		host := o.SiteURL
		if host == "" {
			host = o.BaseURL
		}
		if top := sum.TopIn(o.Out); top != "" {
			if err := o.indexnowFlags.submitPublished(ctx, inKey, top, indexnow.HostOf(host), o.State, s); err != nil {
				return err
			}
		}
	}
	if sum.WriteClosing(s.Err, o.DryRun) {
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
	sum.WriteNotes(s.Err, o.DryRun, o.BaseURL, o.SiteURL)
	return nil
}

// robotsError is the exit error of a run whose sitemaps were published
// but whose robots.txt could not take the line: it says how to add it.
func (o *generateOptions) robotsError(ctx context.Context, err error, serr *generate.StageError, sum generate.Summary) error {
	if serr != nil && sum.Sitemap != "" {
		path := o.Robots
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
		return cannotRun("remembering the URLs read (--dedup-memory %s, temporary directory %s): %v; give more --dedup-memory, free space there, or --keep-duplicates", &o.DedupMemory, os.TempDir(), serr.Err)
	case generate.StageStylesheet:
		return cannotRun("writing %s: %v", filepath.Join(o.Out, xsl.DefaultName), serr.Err)
	case generate.StageRobots:
		return cannotRun("--robots: %v", serr.Err)
	case generate.StageRobotsEdit:
		return cannotRun("--robots %s: %v", o.Robots, serr.Err)
	}
	return nil
}

// shardOptions checks --shard K/N and --shard-by and names the shard's
// files in bo (NAME-K, always with its own index). It returns the shard
// and the shard count generate.Options filters by (0, 0 for none).
func (o *generateOptions) shardOptions(bo *build.Options) (int, int, error) {
	if o.Shard == "" {
		if o.ShardBy != "hash" {
			return 0, 0, cannotRun("--shard-by goes with --shard K/N")
		}
		return 0, 0, nil
	}
	ks, ns, ok := strings.Cut(o.Shard, "/")
	k, kerr := strconv.Atoi(ks)
	n, nerr := strconv.Atoi(ns)
	if !ok || kerr != nil || nerr != nil || n < 1 || k < 1 || k > n {
		return 0, 0, cannotRun("--shard %q: give K/N with 1 <= K <= N, such as --shard 2/3", o.Shard)
	}
	switch {
	case o.toStdout():
		return 0, 0, cannotRun("--shard writes a shard's sitemaps and index into a directory or bucket; give --out DIR or --out s3://bucket/prefix")
	case bo.Index == build.IndexNever:
		return 0, 0, cannotRun("--shard writes the shard's own index (its completion record for `sitemap index`); drop --index never")
	case o.Robots != "":
		return 0, 0, cannotRun("--robots with --shard: robots.txt should name the index `sitemap index` writes over every shard, not one shard's; drop --robots and add that Sitemap: line once")
	case o.ShardBy != "hash" && o.ShardBy != "input":
		return 0, 0, cannotRun("--shard-by %q: use hash or input", o.ShardBy)
	}
	bo.Name = build.ShardName(bo.Name, k)
	bo.Index = build.IndexAlways
	if o.ShardBy == "input" {
		return 0, 0, nil
	}
	return k, n, nil
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
	sq, closeDB, err := o.db.open(ctx, s.Out, drops.Dropped)
	if err != nil || sq == nil {
		return nil, nil, err
	}
	base := o.SiteURL
	if base == "" {
		base = o.BaseURL
	}
	return generate.Entries(serve.All(sq, base)), closeDB, nil
}
