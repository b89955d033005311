package preset

import (
	"bytes"
	"context"
	"database/sql"
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
