package main

import (
	"context"
	"io"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/preset"
	"github.com/sitemapkit/sitemap/serve"
)

// sqlFlags are the flags of a --db source that serve and generate share:
// the table or query and its columns, or a CMS's preset.
type sqlFlags struct{ preset.Settings }

// registerPreset adds the preset flags to f.
func (q *sqlFlags) registerPreset(f *pflag.FlagSet) {
	f.StringVar(&q.Preset, "preset", "", "read --db as a CMS's database: `NAME` mediawiki, wordpress or drupal")
	f.StringVar(&q.ArticlePath, "article-path", "", "with --preset mediawiki, the wiki's $wgArticlePath (default /wiki/$1)")
	f.IntSliceVar(&q.Namespaces, "namespaces", nil, "with --preset mediawiki, the namespaces `N,...` listed (default 0)")
	f.StringSliceVar(&q.PostTypes, "post-types", nil, "with --preset wordpress, custom post `TYPE,...` listed too")
	f.StringVar(&q.Prefix, "table-prefix", "", "with --preset, the CMS's table `PREFIX` (default: wp_ for wordpress)")
	f.BoolVar(&q.PrintQuery, "print-query", false, "print the --preset's query and URL rules (to copy and change), then exit; wordpress's reads its settings from --db, the others' do not connect")
}

// check refuses preset flags that do not go together (preset.Settings.Check).
func (q *sqlFlags) check() error {
	if err := q.Settings.Check(); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}

// open opens --db and its source (preset.Settings.Open); with
// --print-query it prints the preset to w instead and returns a nil
// source.
func (q *sqlFlags) open(ctx context.Context, w io.Writer, drops *serve.DropLog) (*serve.SQLSource, func(), error) {
	src, closeSrc, err := q.Settings.Open(ctx, w, drops)
	if err != nil {
		return nil, nil, cannotRun("%v", err)
	}
	return src, closeSrc, nil
}
