package main

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/xsl"
)

// generateOptions are the flags and arguments of `sitemap generate`.
type generateOptions struct {
	publishFlags
	// Gen are the run's settings (generate.Settings.Options); its Output
	// is publishFlags' build.Settings.
	Gen generate.Settings
	// Columns is --columns: of the INPUTs' CSV (Gen.Columns) or of --db.
	Columns string
	Inputs  []string
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
	addMaxErrors(c, &o.Gen.MaxErrors)
	o.publishFlags.register(f)
	o.indexnowFlags.register(f)
	f.StringVar(&o.Gen.InputFormat, "input-format", "auto", "input format: auto, text, csv, jsonl")
	f.StringVar(&o.Columns, "columns", "", "columns of the fields: loc=Address,lastmod=\"Last Modified\"")
	f.BoolVar(&o.Gen.AllRows, "all-rows", false, "publish every CSV row, even those a crawler marks not indexable")
	f.BoolVar(&o.Gen.NoHreflangCheck, "no-hreflang-check", false, "write alternates as given, hreflang clusters not completed")
	f.StringVar(&o.db.DB, "db", "", "read the entries from a SQLite file or a postgres:// or mysql:// `URL`")
	f.StringVar(&o.db.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.db.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.db.Key, "key", "", "with --db, the unique `COLUMN` rows are read in order of (default: loc)")
	o.db.registerPreset(f)
	f.BoolVar(&o.Gen.Strict, "strict", false, "publish nothing when an entry is invalid or needs a repair")
	f.BoolVar(&o.Gen.NoNormalize, "no-normalize", false, "refuse URLs not in their normal form instead of rewriting them (L-18)")
	f.BoolVar(&o.Gen.DryRun, "dry-run", false, "print the summary without writing anything")
	f.BoolVar(&o.Gen.JSON, "json", false, "print the summary as JSON on standard output")
	f.BoolVar(&o.Gen.Legacy, "legacy", false, "also write deprecated extension tags (IM-04, V-04, N-09)")
	f.StringVar(&o.Gen.Robots, "robots", "", "add the Sitemap: line to this robots.txt `FILE`")
	f.DurationVar(&o.Gen.NewsMaxAge, "news-max-age", 48*time.Hour, "drop news blocks older than this (N-06, N-11); 0 keeps all")
	f.StringVar(&o.Gen.State, "state", "", "state `FILE` or postgres:// database: lastmod moves only on a change")
	f.BoolVar(&o.Gen.StateDay, "state-day", false, "with --state, write observed changes as a day (YYYY-MM-DD)")
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
	if o.db.PrintQuery {
		// The --preset's query is printed whatever the run's flags
		// (--base-url, --out) would be.
		if err := o.checkDB(); err != nil {
			return err
		}
		_, _, err := o.db.open(ctx, s.Out, nil)
		return err
	}
	inKey, err := o.check(s)
	if err != nil {
		return err
	}
	var g generate.Options
	in, docs, err := o.options(&g)
	if err != nil {
		return err
	}
	job := &generate.Job{Settings: o.Gen, Options: g, Stdout: s.Out, Stderr: s.Err, ProgressLine: s.ErrIsTerminal}
	var src generate.Source // of --db
	if o.db.DB != "" {
		var closeDB func()
		if src, closeDB, err = o.dbSource(ctx, s); err != nil || src == nil {
			return err // nil after --print-query
		}
		defer closeDB()
	}
	ignoreBrokenPipe()
	// In a dry run an existing directory is only read: the files
	// published there tell what a real run would remove.
	if job.Options.Out, job.Unpublished, err = o.outStore(o.Gen.DryRun, s.Out); err != nil {
		return err
	}
	if o.Gen.State != "" {
		prec := o.Gen.Precision()
		if job.Options.State, err = openState(ctx, o.Gen.State, state.Options{Precision: prec, DryRun: o.Gen.DryRun}); err != nil {
			job.Unpublished()
			return err
		}
		job.Options.StatePrecision = prec
	}
	if src == nil {
		in.Stdin = s.In
		src, job.Measure = generate.Inputs(docs, in)
	}
	if inKey != "" {
		job.Published = func(ctx context.Context, top string) error {
			host := cmp.Or(o.Gen.SiteURL, o.Gen.BaseURL)
			return o.indexnowFlags.submitPublished(ctx, inKey, top, indexnow.HostOf(host), o.Gen.State, s)
		}
	}
	_, err = job.Run(ctx, src)
	var exit *exitError
	var need *build.NeedIndexError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, generate.ErrProblems):
		return problemsFound()
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return ctx.Err()
	case errors.As(err, &exit):
		return exit // IndexNow's
	case o.toStdout() && errors.As(err, &need):
		return needIndexError(need)
	}
	return cannotRun("%v", err)
}

// check refuses the flags that cannot go together or hold bad values,
// puts --base-url and --site-url in their normal form (said when
// rewritten), and returns the IndexNow key of --indexnow-key-file ("").
func (o *generateOptions) check(s *streams) (string, error) {
	if err := o.Gen.Check(s.Err); err != nil {
		return "", cannotRun("%v", err)
	}
	return o.indexnowFlags.check(o.Gen.State != "")
}

// options sets g to the options of generate.Run the flags give (all but
// Out and State), and returns those of generate.Inputs and the INPUTs.
func (o *generateOptions) options(g *generate.Options) (generate.InputOptions, []input.Doc, error) {
	if o.Out == "" {
		return generate.InputOptions{}, nil, errEmptyOut
	}
	o.Gen.Output, o.Gen.Out = o.publishFlags.Settings, o.Out
	if o.db.DB == "" {
		o.Gen.Columns = o.Columns // else --db's
	}
	var in generate.InputOptions
	var err error
	if *g, err = o.Gen.Options(); err == nil {
		in, err = o.Gen.Input()
	}
	if err != nil {
		return in, nil, cannotRun("%v", err)
	}
	if err := o.checkDB(); err != nil {
		return in, nil, err
	}
	docs, err := generate.Docs(o.Inputs)
	if err != nil {
		return in, nil, cannotRun("%v", err)
	}
	if o.toStdout() {
		if err := o.stdoutOptions(&g.Build, o.Gen.JSON, o.Gen.XSL); err != nil {
			return in, nil, err
		}
	}
	return in, docs, nil
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
	return generate.Entries(serve.All(sq, cmp.Or(o.Gen.SiteURL, o.Gen.BaseURL))), closeDB, nil
}
