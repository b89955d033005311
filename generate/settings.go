package generate

import (
	"errors"
	"fmt"
	"io"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/internal/urlfilter"
	"github.com/sitemapkit/sitemap/source"
)

// Settings are a run's Options as a person gives them (the flags of
// `sitemap generate`, named alike): the files' settings as text and
// explicit limits (build.Settings), patterns as text, the shard as
// "K/N". Options checks them and returns the Options they set, but for
// Out, State and the callbacks, which are the caller's.
type Settings struct {
	Output           build.Settings
	BaseURL, SiteURL string
	// Legacy, DryRun and NewsMaxAge (not negative; 0 keeps every news
	// block) are those of build.Options.
	Legacy, DryRun bool
	NewsMaxAge     time.Duration
	XSL, Strict    bool
	NoNormalize    bool
	// NoHreflangCheck, KeepDuplicates and DedupMemory (0 for the
	// default; else at least 1 MiB) are those of Options.
	NoHreflangCheck, KeepDuplicates bool
	DedupMemory                     int64
	// Include and Exclude are RE2 patterns (Options.Include, Exclude).
	Include, Exclude []string
	// Robots is Options.RobotsTxt.
	Robots string
	// Shard is "K/N" (build.ParseShard), or "" for a whole set. ShardBy
	// is how the run finds its shard's entries: "hash" (every run reads
	// all the input and keeps its shard's, Options.Shard and Shards) or
	// "input" (each run is given its part).
	Shard, ShardBy string
	// Out is where the files go as the person named it (--out: a
	// directory, s3://bucket/prefix or -), for the errors that say it;
	// "-" sends the sitemap to a store.Writer ([Settings.ToWriter]).
	Out string
	// State names the state (--state: a file or a postgres:// URL) for
	// the errors that say it; StateDay records observed changes as a day
	// (YYYY-MM-DD, Precision), and needs State.
	State    string
	StateDay bool
	// JSON writes the summary as JSON on the Job's Stdout instead of a
	// table on its Stderr.
	JSON bool
	// InputFormat is auto, text, csv or jsonl (source.ParseFormat);
	// Columns maps fields to the CSV columns of the inputs
	// (source.ParseColumns: loc=Address,…); AllRows publishes the rows a
	// crawler's export marks not to publish (source.Options.AllRows).
	// MaxErrors abandons a sitemap read as input after that many errors
	// (0: no limit). [Settings.Input] checks them.
	InputFormat, Columns string
	AllRows              bool
	MaxErrors            int
}

// ToWriter reports whether the sitemap goes to a store.Writer: Out "-",
// standard output, which takes one file and no shard.
func (s Settings) ToWriter() bool { return s.Out == "-" }

// Check refuses, before anything is opened, what a run cannot start
// with (no BaseURL, StateDay without State), and puts BaseURL and SiteURL
// in their normal form unless NoNormalize (build.NormalURLSetting: a
// rewrite said on w). An error names the setting as its flag.
func (s *Settings) Check(w io.Writer) error {
	if s.BaseURL == "" {
		return errors.New("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	if !s.NoNormalize {
		s.BaseURL = build.NormalURLSetting("--base-url", s.BaseURL, w)
		if s.SiteURL != "" {
			s.SiteURL = build.NormalURLSetting("--site-url", s.SiteURL, w)
		}
	}
	if err := build.CheckURLSetting("--base-url", s.BaseURL); err != nil {
		return err
	}
	if s.SiteURL != "" {
		if err := build.CheckURLSetting("--site-url", s.SiteURL); err != nil {
			return err
		}
	}
	if s.StateDay && s.State == "" {
		return errors.New("--state-day sets the precision of the dates --state records; give --state FILE too, or drop --state-day")
	}
	return nil
}

// Precision is the precision of the dates a changed entry gets from the
// state (Options.StatePrecision): a day with StateDay, else a second.
func (s Settings) Precision() sitemap.Precision {
	if s.StateDay {
		return sitemap.PrecisionDay
	}
	return sitemap.PrecisionSecond
}

// Input checks InputFormat and Columns and returns the options of
// [Inputs] they set (Stdin left to the caller). An error names the flag.
func (s Settings) Input() (InputOptions, error) {
	var in InputOptions
	var err error
	if in.Source.Format, err = source.ParseFormat(s.InputFormat); err != nil {
		return in, fmt.Errorf("--input-format: %v", err)
	}
	if in.Source.Columns, err = source.ParseColumns(s.Columns); err != nil {
		return in, fmt.Errorf("--columns: %v", err)
	}
	in.Source.AllRows, in.MaxErrors = s.AllRows, sitemap.MaxErrorsFlag(s.MaxErrors)
	return in, nil
}

// Docs resolves the names of a run's inputs (input.Resolve: files and
// "-"). A URL is refused with what to run instead: a run reads files.
func Docs(names []string) ([]input.Doc, error) {
	docs, err := input.Resolve(names, input.Options{FilesOnly: true})
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.IsHTTP() {
			return nil, fmt.Errorf("INPUT %s is a URL; generate reads files and - (for a site's URLs: sitemap fetch --format jsonl URL | sitemap generate ... -)", d.Name)
		}
	}
	return docs, nil
}

// Options checks s and returns the Options it sets (Out and State
// left to the caller). An error names the setting as its flag
// (--shard) and says what to give instead.
func (s Settings) Options() (Options, error) {
	var o Options
	bo, err := s.Output.Options()
	if err != nil {
		return o, err
	}
	if s.NewsMaxAge < 0 {
		return o, fmt.Errorf("--news-max-age %v: give a positive duration such as 48h, or 0 to keep every news block", s.NewsMaxAge)
	}
	if err := seen.Memory(s.DedupMemory).Check("--dedup-memory", DefaultDedupMemory); err != nil {
		return o, err
	}
	if o.Include, err = urlfilter.Compile("include", s.Include); err != nil {
		return o, err
	}
	if o.Exclude, err = urlfilter.Compile("exclude", s.Exclude); err != nil {
		return o, err
	}
	if o.Shard, o.Shards, err = s.shard(&bo); err != nil {
		return o, err
	}
	bo.BaseURL, bo.SiteURL = s.BaseURL, s.SiteURL
	bo.Legacy, bo.DryRun, bo.NewsMaxAge = s.Legacy, s.DryRun, s.NewsMaxAge
	o.Build, o.XSL, o.Strict, o.RobotsTxt, o.NoNormalize = bo, s.XSL, s.Strict, s.Robots, s.NoNormalize
	o.NoHreflangCheck, o.KeepDuplicates, o.DedupMemory = s.NoHreflangCheck, s.KeepDuplicates, s.DedupMemory
	return o, nil
}

// shard checks Shard and ShardBy and names the shard's files in bo
// (NAME-K, always with its own index). It returns the shard and the
// shard count Options filters by (0, 0 for none).
func (s Settings) shard(bo *build.Options) (int, int, error) {
	if s.Shard == "" {
		if s.ShardBy != "hash" && s.ShardBy != "" {
			return 0, 0, errors.New("--shard-by goes with --shard K/N")
		}
		return 0, 0, nil
	}
	k, n, err := build.ParseShard(s.Shard)
	switch {
	case err != nil:
		return 0, 0, err
	case s.ToWriter():
		return 0, 0, errors.New("--shard writes a shard's sitemaps and index into a directory or bucket; give --out DIR or --out s3://bucket/prefix")
	case bo.Index == build.IndexNever:
		return 0, 0, errors.New("--shard writes the shard's own index (its completion record for `sitemap index`); drop --index never")
	case s.Robots != "":
		return 0, 0, errors.New("--robots with --shard: robots.txt should name the index `sitemap index` writes over every shard, not one shard's; drop --robots and add that Sitemap: line once")
	case s.ShardBy != "hash" && s.ShardBy != "input" && s.ShardBy != "":
		return 0, 0, fmt.Errorf("--shard-by %q: use hash or input", s.ShardBy)
	}
	bo.Name = build.ShardName(bo.Name, k)
	bo.Index = build.IndexAlways
	if s.ShardBy == "input" {
		return 0, 0, nil
	}
	return k, n, nil
}
