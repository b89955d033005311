package generate

import (
	"errors"
	"fmt"
	"time"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/internal/urlfilter"
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
	// ToWriter says the sitemap goes to a store.Writer (--out -), which
	// takes one file and no shard.
	ToWriter bool
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
	case s.ToWriter:
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
