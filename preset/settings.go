package preset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/sitemapkit/sitemap/serve"
)

// Settings are a database source as a person gives it to `sitemap
// serve` or `sitemap generate` (their flags, named alike): a table or a
// query (serve.SQLSettings), or a CMS's database by the name of its
// preset (SQLSettings.Preset) with the preset's options. It is a
// serve.Database, the DB of serve.Settings.
type Settings struct {
	serve.SQLSettings
	// ArticlePath, Namespaces, PostTypes and Prefix are those of
	// [Options] (Prefix its Prefix).
	ArticlePath string
	Namespaces  []int
	PostTypes   []string
	Prefix      string
	// PrintQuery writes the preset's query and rules ([Preset.String])
	// instead of opening a source. MediaWiki's and Drupal's depend on
	// the options and the dialect DB's name says only, so nothing
	// connects; WordPress's reads the site's settings from the database
	// ([WordPress]), so it connects, and a database that cannot be
	// reached is said so.
	PrintQuery bool
}

// Check refuses settings that do not go together, in an error naming the
// flags and saying what to give: a preset's options without a preset, a
// preset without a database or with a table or query of its own, a
// database without a table, query or preset.
func (s Settings) Check() error {
	switch {
	case s.Preset == "" && (s.ArticlePath != "" || s.Prefix != "" || s.PrintQuery || len(s.PostTypes) > 0 || len(s.Namespaces) > 0):
		return errors.New("--article-path, --namespaces, --post-types, --table-prefix and --print-query go with --preset")
	case s.Preset != "" && s.DB == "":
		return fmt.Errorf("--preset %s reads a CMS's database: give --db too (mysql://user:pass@host/db, postgres://…, or a SQLite file)", s.Preset)
	case s.Preset != "" && (s.Table != "" || s.Query != "" || s.Columns != "" || s.Key != ""):
		return errors.New("--preset gives the query: drop --table, --query, --columns and --key (--print-query shows it, to copy and change)")
	}
	return s.SQLSettings.Check()
}

// Open opens the database and its source: the preset's query ([Load])
// or, without a preset, the table or query (serve.SQLSettings.Open);
// drops, when not nil, is told every value of a row left out of its
// entry. With PrintQuery it writes the preset to w instead and returns a
// nil source, opening the database only for a preset that reads it
// (WordPress). An error names the flag (--db, --preset, --columns).
func (s Settings) Open(ctx context.Context, w io.Writer, drops *serve.DropLog) (*serve.SQLSource, func(), error) {
	if s.Preset == "" {
		return s.SQLSettings.Open(ctx, w, drops)
	}
	o := Options{Prefix: s.Prefix, ArticlePath: s.ArticlePath, Namespaces: s.Namespaces, PostTypes: s.PostTypes}
	if s.PrintQuery && !readsDB(s.Preset) {
		o.Dialect = serve.DialectOfDSN(s.DB)
		p, err := Load(ctx, nil, s.Preset, o)
		if err != nil {
			return nil, nil, fmt.Errorf("--preset %s: %v", s.Preset, err)
		}
		fmt.Fprint(w, p)
		return nil, nil, nil
	}
	return serve.OpenSQL(ctx, s.DB, drops, func(db *sql.DB) (*serve.Query, error) {
		p, err := Load(ctx, db, s.Preset, o)
		var op *net.OpError
		switch {
		case err != nil && s.PrintQuery && errors.As(err, &op):
			return nil, fmt.Errorf("--preset %s --print-query reads the site's settings from the database, and --db cannot be reached (%v); check that the server runs and listens there", s.Preset, op)
		case err != nil:
			return nil, fmt.Errorf("--preset %s: %v", s.Preset, err)
		case s.PrintQuery:
			fmt.Fprint(w, p)
			return nil, nil
		}
		return &p.Query, nil
	})
}

// readsDB reports whether the preset name reads the database to make
// its query: WordPress's settings (home URL, permalinks) are rows.
func readsDB(name string) bool { return strings.EqualFold(name, "wordpress") }
