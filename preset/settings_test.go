package preset

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/serve"
)

// TestSettingsCheck: the --db flags that do not go together are refused
// in words naming them; those that do pass.
func TestSettingsCheck(t *testing.T) {
	cases := []struct {
		s    Settings
		want string // "" passes
	}{
		{Settings{SQLSettings: serve.SQLSettings{DB: "cms.sqlite", Preset: "mediawiki"}, Namespaces: []int{0, 4}}, ""},
		{Settings{SQLSettings: serve.SQLSettings{DB: "cms.sqlite", Table: "pages"}}, ""},
		{Settings{SQLSettings: serve.SQLSettings{DB: "cms.sqlite", Table: "pages"}, PrintQuery: true}, "--article-path, --namespaces, --post-types, --table-prefix and --print-query go with --preset"},
		{Settings{SQLSettings: serve.SQLSettings{Preset: "wordpress"}}, "--preset wordpress reads a CMS's database: give --db too"},
		{Settings{SQLSettings: serve.SQLSettings{DB: "cms.sqlite", Preset: "drupal", Key: "nid"}}, "--preset gives the query: drop --table, --query, --columns and --key"},
		{Settings{SQLSettings: serve.SQLSettings{DB: "cms.sqlite"}}, "--db needs --table, --query or --preset"},
	}
	for _, c := range cases {
		err := c.s.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.s, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%+v: Check = %v, want %q", c.s, err, c.want)
		}
	}
}

// TestSettingsOpen: a preset opens the CMS's query on its database (or,
// with PrintQuery, prints it and opens nothing), a table without a
// preset opens as serve.SQLSettings does, and a preset that is not one
// is an error naming --preset.
func TestSettingsOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wiki.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	loadSchema(t, db, "testdata/mediawiki/schema-sqlite.sql", "")
	db.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY)`)
	db.Close()

	wiki := Settings{SQLSettings: serve.SQLSettings{DB: path, Preset: "mediawiki"}}
	src, closeSrc, err := wiki.Open(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if src.KeyColumn() != "id" {
		t.Errorf("key %q, want the preset query's id", src.KeyColumn())
	}
	closeSrc()

	var out bytes.Buffer
	wiki.PrintQuery = true
	if src, _, err := wiki.Open(ctx, &out, nil); err != nil || src != nil {
		t.Fatalf("PrintQuery: %v, %v", src, err)
	}
	if !strings.Contains(out.String(), "SELECT") || !strings.HasPrefix(out.String(), "--") {
		t.Errorf("printed %q, want the query with its rules as comments", out.String())
	}

	table := Settings{SQLSettings: serve.SQLSettings{DB: path, Table: "pages"}}
	src, closeSrc, err = table.Open(ctx, nil, serve.NewDropLog(&out, 0))
	if err != nil {
		t.Fatal(err)
	}
	if src.KeyColumn() != "url" {
		t.Errorf("key %q, want url", src.KeyColumn())
	}
	closeSrc()

	_, _, err = Settings{SQLSettings: serve.SQLSettings{DB: path, Preset: "joomla"}}.Open(ctx, nil, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "--preset joomla: ") {
		t.Errorf("unknown preset: %v", err)
	}
}

// TestSettingsPrintQueryOffline: PrintQuery of MediaWiki and Drupal
// prints the query of the dialect --db's name says without opening the
// database (it connected first: a server down or a file not there was an
// error), the same query as Load on such a database gives; WordPress's
// query is made of the site's settings, so it connects, and a server that
// cannot be reached is said so, naming --print-query.
func TestSettingsPrintQueryOffline(t *testing.T) {
	ctx := context.Background()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close() // nothing listens there
	missing := filepath.Join(t.TempDir(), "none.sqlite")
	for _, c := range []struct {
		preset, dsn string
		dialect     serve.Dialect
	}{
		{"mediawiki", "postgres://u:p@" + down + "/wiki", serve.Postgres},
		{"mediawiki", "mysql://u:p@" + down + "/wiki", serve.MySQL},
		{"mediawiki", missing, serve.SQLite},
		{"drupal", "postgresql://u:p@" + down + "/site", serve.Postgres},
		{"drupal", missing, serve.SQLite},
	} {
		var out bytes.Buffer
		s := Settings{SQLSettings: serve.SQLSettings{DB: c.dsn, Preset: c.preset}, PrintQuery: true, Prefix: "x_"}
		src, _, err := s.Open(ctx, &out, nil)
		if err != nil || src != nil {
			t.Errorf("%s on %s: %v, %v", c.preset, c.dsn, src, err)
			continue
		}
		want, err := Load(ctx, nil, c.preset, Options{Prefix: "x_", Dialect: c.dialect})
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != want.String() {
			t.Errorf("%s on %s printed\n%s\nwant\n%s", c.preset, c.dsn, out.String(), want.String())
		}
	}
	s := Settings{SQLSettings: serve.SQLSettings{DB: "mysql://u:p@" + down + "/wp", Preset: "wordpress"}, PrintQuery: true}
	_, _, err = s.Open(ctx, io.Discard, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "--preset wordpress --print-query reads the site's settings from the database, and --db cannot be reached (") {
		t.Errorf("wordpress, server down: %v", err)
	}
}
