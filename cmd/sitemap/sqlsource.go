package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/pflag"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/preset"
	"github.com/sitemapkit/sitemap/serve"
)

// sqlFlags are the flags of a --db source that serve and generate share:
// the table or query and its columns, or a CMS's preset.
type sqlFlags struct {
	DB, Table, Query, Columns, Key string
	Preset, ArticlePath, Prefix    string
	PostTypes                      []string
	Namespaces                     []int
	PrintQuery                     bool
}

// registerPreset adds the preset flags to f.
func (q *sqlFlags) registerPreset(f *pflag.FlagSet) {
	f.StringVar(&q.Preset, "preset", "", "read --db as a CMS's database: `NAME` mediawiki, wordpress or drupal")
	f.StringVar(&q.ArticlePath, "article-path", "", "with --preset mediawiki, the wiki's $wgArticlePath (default /wiki/$1)")
	f.IntSliceVar(&q.Namespaces, "namespaces", nil, "with --preset mediawiki, the namespaces `N,...` listed (default 0)")
	f.StringSliceVar(&q.PostTypes, "post-types", nil, "with --preset wordpress, custom post `TYPE,...` listed too")
	f.StringVar(&q.Prefix, "table-prefix", "", "with --preset, the CMS's table `PREFIX` (default: wp_ for wordpress)")
	f.BoolVar(&q.PrintQuery, "print-query", false, "print the --preset's query and URL rules (to copy and change), then exit")
}

// check refuses preset flags that do not go together.
func (q *sqlFlags) check() error {
	switch {
	case q.Preset == "" && (q.ArticlePath != "" || q.Prefix != "" || q.PrintQuery || len(q.PostTypes) > 0 || len(q.Namespaces) > 0):
		return cannotRun("--article-path, --namespaces, --post-types, --table-prefix and --print-query go with --preset")
	case q.Preset != "" && q.DB == "":
		return cannotRun("--preset %s reads a CMS's database: give --db too (mysql://user:pass@host/db, postgres://…, or a SQLite file)", q.Preset)
	case q.Preset != "" && (q.Table != "" || q.Query != "" || q.Columns != "" || q.Key != ""):
		return cannotRun("--preset gives the query: drop --table, --query, --columns and --key (--print-query shows it, to copy and change)")
	case q.Preset == "" && q.DB != "" && q.Table == "" && q.Query == "":
		return cannotRun("--db needs --table, --query or --preset")
	}
	return nil
}

// open opens --db and its source; with --print-query it prints the
// preset to w instead and returns a nil source.
func (q *sqlFlags) open(ctx context.Context, w io.Writer, dropped func(serve.Key, string, *sitemap.EntryError)) (*serve.SQLSource, func(), error) {
	var sq serve.Query
	if q.Preset == "" {
		cols, err := serve.ParseColumns(q.Columns)
		if err != nil {
			return nil, nil, cannotRun("--columns: %v", err)
		}
		sq = serve.Query{Table: q.Table, Query: q.Query, Columns: cols, Key: q.Key}
	}
	db, err := serve.OpenDB(q.DB)
	switch {
	case errors.As(err, new(*fs.PathError)):
		return nil, nil, cannotRun("--db %v", err)
	case err != nil:
		return nil, nil, cannotRun("--db: %v", err)
	}
	if q.Preset != "" {
		p, err := preset.Load(ctx, db, q.Preset, preset.Options{Prefix: q.Prefix, ArticlePath: q.ArticlePath, Namespaces: q.Namespaces, PostTypes: q.PostTypes})
		if err != nil {
			db.Close()
			return nil, nil, cannotRun("--preset %s: %v", q.Preset, err)
		}
		if q.PrintQuery {
			db.Close()
			fmt.Fprint(w, p)
			return nil, nil, nil
		}
		sq = p.Query
	}
	sq.Dropped = dropped
	src, err := serve.SQL(ctx, db, sq)
	if err != nil {
		db.Close()
		return nil, nil, cannotRun("%v", err)
	}
	return src, func() { src.Close(); db.Close() }, nil
}
