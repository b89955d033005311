package serve

import (
	"context"
	"strings"
	"testing"
)

// TestColumnsFoundByName: a field --columns leaves empty is found by its
// column's name, one case per name of the list (spelled as the CMS or
// framework spells it), on SQLite; before, only a column literally named
// loc was found, and a lastmod or updated_at column was ignored.
func TestColumnsFoundByName(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	cases := []struct {
		field, column string
		other         string // the loc column the table needs besides, "" when column is the loc
	}{
		{"loc", "loc", ""},
		{"loc", "url", ""},
		{"loc", "URL", ""},
		{"loc", "page_url", ""},
		{"loc", "permalink", ""},
		{"loc", "link", ""},
		{"loc", "href", ""},
		{"lastmod", "lastmod", "url"},
		{"lastmod", "last_modified", "url"},
		{"lastmod", "LastModified", "url"},
		{"lastmod", "updated_at", "url"},
		{"lastmod", "updatedAt", "url"}, // Prisma, Sequelize
		{"lastmod", "updated", "url"},
		{"lastmod", "modified_at", "url"},
		{"lastmod", "modified", "url"}, // Joomla #__content
		{"lastmod", "last_updated", "url"},
		{"lastmod", "date_modified", "url"},
		{"lastmod", "date_updated", "url"},      // Directus
		{"lastmod", "dateUpdated", "url"},       // Craft CMS
		{"lastmod", "post_modified_gmt", "url"}, // WordPress wp_posts
		{"lastmod", "page_touched", "url"},      // MediaWiki page
		{"lastmod", "changed", "url"},           // Drupal node_field_data
		{"lastmod", "last_published_at", "url"}, // Wagtail
		{"changefreq", "changefreq", "url"},
		{"changefreq", "change_frequency", "url"},
		{"changefreq", "sitemap_changefreq", "url"},
		{"priority", "priority", "url"},
		{"priority", "sitemap_priority", "url"},
		{"ext", "ext", "url"},
		{"ext", "extensions", "url"},
		{"ext", "json", "url"},
	}
	for i, c := range cases {
		table := "t" + strings.Repeat("x", i) // one table per case
		cols := quoteIdent(SQLite, c.column) + " TEXT"
		if c.other != "" {
			cols = c.other + " TEXT, " + cols
		}
		exec(t, db, "CREATE TABLE "+table+" (id INTEGER PRIMARY KEY, title TEXT, "+cols+")")
		src, err := SQL(ctx, db, Query{Table: table})
		if err != nil {
			t.Errorf("%s column %q: %v", c.field, c.column, err)
			continue
		}
		got := src.Columns()
		if n := *got.field(fieldIndex(c.field)); n != c.column {
			t.Errorf("%s column %q: found %q (columns %s)", c.field, c.column, n, got)
		}
		if !strings.Contains(src.Found(), c.field+"="+c.column) {
			t.Errorf("%s column %q: Found() = %q", c.field, c.column, src.Found())
		}
	}
}

func fieldIndex(name string) int {
	for f, n := range fieldNames {
		if n == name {
			return f
		}
	}
	panic(name)
}

// TestColumnsChoice: when several columns have a field's names the first
// name of the list wins and Found names the others; a column Columns
// names is never taken for another field; Columns wins over the names; a
// query's columns are found by name, else by position.
func TestColumnsChoice(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, link TEXT, url TEXT, modified TEXT, updated_at TEXT, priority REAL, path TEXT, ts INTEGER)`)
	for _, c := range []struct {
		q     Query
		want  string // Columns().String()
		found string // in Found(), "" for Found() == ""
	}{
		{Query{Table: "pages"}, "loc=url,lastmod=updated_at,priority=priority", "also matching: loc=link, lastmod=modified"},
		{Query{Table: "pages", Columns: Columns{Loc: "link", LastMod: "modified"}}, "loc=link,lastmod=modified,priority=priority", "found by name: priority=priority"},
		{Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at", Priority: "priority"}}, "loc=url,lastmod=updated_at,priority=priority", ""},
		// A column named for one field is not taken for another.
		{Query{Table: "pages", Columns: Columns{LastMod: "url"}}, "loc=link,lastmod=url,priority=priority", "found by name: loc=link, priority=priority"},
		{Query{Query: "SELECT path, ts FROM pages"}, "loc=path,lastmod=ts", "by position: loc=path (first column), lastmod=ts (second column)"},
		// The second column is not the lastmod when it is the loc.
		{Query{Query: "SELECT ts, url FROM pages"}, "loc=url", "found by name: loc=url"},
		{Query{Query: "SELECT path, updated_at, id FROM pages", Key: "id"}, "loc=path,lastmod=updated_at", "found by name: lastmod=updated_at; by position: loc=path (first column)"},
		// The second column is not the lastmod when it is the key.
		{Query{Query: "SELECT path, id FROM pages", Key: "id"}, "loc=path", "by position: loc=path (first column)"},
	} {
		src, err := SQL(ctx, db, c.q)
		if err != nil {
			t.Errorf("%+v: %v", c.q, err)
			continue
		}
		if got := src.Columns().String(); got != c.want {
			t.Errorf("%+v: columns %s, want %s", c.q, got, c.want)
		}
		if f := src.Found(); c.found == "" && f != "" || !strings.Contains(f, c.found) {
			t.Errorf("%+v: Found() = %q, want it to say %q", c.q, f, c.found)
		}
		if cc, err := ParseColumns(src.Columns().String()); err != nil || cc != src.Columns() {
			t.Errorf("ParseColumns(%q) = %+v, %v", src.Columns().String(), cc, err)
		}
	}
}

// TestColumnsErrors: a column Columns, Key or Updated names that the
// table lacks is an error that lists the columns it has and suggests the
// likely mapping; so is a table without a loc column.
func TestColumnsErrors(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT, updated_at TEXT, body TEXT)`)
	exec(t, db, `CREATE TABLE wp_posts (ID INTEGER PRIMARY KEY, post_name TEXT, guid TEXT, post_modified TEXT, post_modified_gmt TEXT)`)
	for _, c := range []struct {
		q    Query
		want []string
	}{
		{Query{Table: "pages", Columns: Columns{LastMod: "updated"}}, []string{`no column "updated" (lastmod=updated)`, "it has id, url, updated_at, body", "did you mean lastmod=updated_at?"}},
		{Query{Table: "pages", Columns: Columns{Loc: "URL"}}, []string{`no column "URL"`, "did you mean loc=url?"}},
		{Query{Table: "pages", Columns: Columns{Loc: "address"}}, []string{`no column "address" (loc=address)`, "did you mean loc=url?"}},
		{Query{Table: "pages", Columns: Columns{LastMod: "UpdatedAt"}}, []string{"did you mean lastmod=updated_at?"}},
		{Query{Table: "pages", Key: "idd"}, []string{`no column "idd" (Query.Key, --key)`, `did you mean "id"?`}},
		{Query{Table: "wp_posts"}, []string{"table wp_posts has no loc column", "--columns loc=NAME", "it has ID, post_name, guid, post_modified, post_modified_gmt", "loc, url, page_url, permalink, link or href"}},
	} {
		_, err := SQL(ctx, db, c.q)
		if err == nil {
			t.Errorf("%+v: no error", c.q)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %v\nwant it to say %q", c.q, err, w)
			}
		}
	}
}

// TestPostgresColumnsFoundByName: on PostgreSQL, a table whose columns
// are url and updated_at (timestamptz) and a camel-case "updatedAt" of
// another are found without Columns, and the lastmod is served.
func TestPostgresColumnsFoundByName(t *testing.T) {
	db := openPostgres(t)
	ctx := context.Background()
	exec(t, db, `CREATE TABLE pages (id bigserial PRIMARY KEY, url text NOT NULL UNIQUE, updated_at timestamptz)`)
	exec(t, db, `CREATE TABLE posts (id bigserial PRIMARY KEY, permalink text NOT NULL, "updatedAt" timestamptz)`)
	exec(t, db, `INSERT INTO pages (url, updated_at) VALUES ('https://www.example.com/a', '2026-11-02 10:00:00+00')`)
	exec(t, db, `INSERT INTO posts (permalink, "updatedAt") VALUES ('https://www.example.com/b', '2026-11-03 10:00:00+00')`)
	for table, want := range map[string]string{"pages": "2026-11-02T10:00:00Z", "posts": "2026-11-03T10:00:00Z"} {
		src, err := SQL(ctx, db, Query{Table: table})
		if err != nil {
			t.Fatal(err)
		}
		if doc := servePage(t, src); !strings.Contains(doc, "<lastmod>"+want+"</lastmod>") {
			t.Errorf("%s (columns %s):\n%s", table, src.Columns(), doc)
		}
	}
}

// servePage returns page 1 of src served at https://www.example.com/.
func servePage(t *testing.T, src Source) string {
	t.Helper()
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := get(t, h, "GET", "/sitemap-1.xml")
	if res.StatusCode != 200 {
		t.Fatalf("page 1: %s\n%s", res.Status, body(t, res))
	}
	return body(t, res)
}
