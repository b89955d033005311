package serve

import (
	"context"
	"database/sql"
	"os"
	"slices"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// TestMain stops the PostgreSQL and MariaDB servers the tests started.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	mariatest.Stop()
	os.Exit(code)
}

// openPostgres returns a new, empty database of the test binary's server.
func openPostgres(t testing.TB) *sql.DB {
	db, _ := openPostgresDSN(t)
	return db
}

// openPostgresDSN is openPostgres with the database's connection URL.
func openPostgresDSN(t testing.TB) (*sql.DB, string) {
	t.Helper()
	dsn := pgtest.DB(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

// postgresBackend is a table pages(url, updated_at timestamptz) on a real
// PostgreSQL server.
var postgresBackend = backend{name: "postgres", open: func(t *testing.T, rows []row) (Source, func(...row)) {
	db := openPostgres(t)
	exec(t, db, `CREATE TABLE pages (id bigserial PRIMARY KEY, url text NOT NULL UNIQUE, updated_at timestamptz, published boolean NOT NULL DEFAULT true)`)
	insert := func(rs ...row) {
		for _, r := range rs {
			exec(t, db, `INSERT INTO pages (url, updated_at) VALUES ($1, $2)`, r.loc, r.lastmod)
		}
	}
	insert(rows...)
	src, err := SQL(context.Background(), db, Query{Query: `SELECT url, updated_at FROM pages WHERE published`})
	if err != nil {
		t.Fatal(err)
	}
	return src, insert
}}

// The same conformance as SQLite, on PostgreSQL.
func TestPostgres(t *testing.T) { testConformance(t, postgresBackend) }

// A table with an integer key and a JSON column of extensions; the query's
// keyset filter reaches the table's index (no sort of the whole table).
func TestPostgresKeyAndExt(t *testing.T) {
	db := openPostgres(t)
	exec(t, db, `CREATE TABLE pages (id bigint PRIMARY KEY, path text NOT NULL, changed timestamptz NOT NULL, extra jsonb)`)
	exec(t, db, `INSERT INTO pages SELECT i, '/p/' || (100 - i), timestamptz '2026-11-01 00:00:00+00' + i * interval '1 hour',
		CASE WHEN i = 3 THEN '{"alternates":[{"hreflang":"de","href":"https://www.example.com/de/p/97"}]}'::jsonb END FROM generate_series(1, 25) i`)
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Table: "public.pages", Key: "id", Columns: Columns{Loc: "path", LastMod: "changed", Ext: "extra"}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, byName := pages(t, h)
	if got := byName["/sitemap-1.xml"]; len(got) != 10 || got[0] != "https://www.example.com/p/99" || got[9] != "https://www.example.com/p/90" {
		t.Errorf("page 1 by id: %v", got)
	}
	doc := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	if !strings.Contains(doc, `xmlns:xhtml=`) || !strings.Contains(doc, `<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/p/97"/>`) {
		t.Errorf("page 1 lacks the alternate:\n%s", doc)
	}
	if doc := body(t, get(t, h, "GET", "/sitemap-2.xml")); strings.Contains(doc, "xmlns:xhtml") {
		t.Errorf("page 2 declares xhtml without using it (EX-05):\n%.300s", doc)
	}
}

// A page of a query source is an index range scan of the table: the
// keyset filter reaches through the subquery, and nothing sorts the
// table.
func TestPostgresPlan(t *testing.T) {
	db := openPostgres(t)
	exec(t, db, `CREATE TABLE pages (url text PRIMARY KEY, updated_at timestamptz NOT NULL, published boolean NOT NULL)`)
	exec(t, db, `INSERT INTO pages SELECT 'https://www.example.com/p/' || lpad(i::text, 7, '0'), now(), i % 10 <> 0 FROM generate_series(1, 200000) i`)
	exec(t, db, `ANALYZE pages`)
	src, err := SQL(context.Background(), db, Query{Query: `SELECT url, updated_at FROM pages WHERE published`})
	if err != nil {
		t.Fatal(err)
	}
	q, args := src.rangeSQL(src.sel, "https://www.example.com/p/0100000", "https://www.example.com/p/0100500")
	rows, err := db.Query("EXPLAIN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan string
	for rows.Next() {
		var l string
		rows.Scan(&l)
		plan += l + "\n"
	}
	rows.Close()
	if !strings.Contains(plan, "Index Scan using pages_pkey") || strings.Contains(plan, "Sort") {
		t.Errorf("a page is not an index range scan:\n%s", plan)
	}
}

// Locate maps keys, given in their text form as a change feed reports
// them, to the pages holding them, in the database's own order: for an
// integer key (where text order would put "10" before "9") and for a
// text key.
func TestPostgresLocate(t *testing.T) {
	db := openPostgres(t)
	exec(t, db, `CREATE TABLE ints (id bigint PRIMARY KEY, url text NOT NULL)`)
	exec(t, db, `CREATE TABLE texts (url text PRIMARY KEY)`)
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Table: "ints", Key: "id", Columns: Columns{Loc: "url"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.Locate(ctx, []Key{int64(9), int64(20)}, []Key{"1", "9", "10", "20", "21", int64(15)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 1, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("integer keys: %v, want %v", got, want)
	}
	src, err = SQL(ctx, db, Query{Table: "texts", Columns: Columns{Loc: "url"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err = src.Locate(ctx, []Key{"https://a/m"}, []Key{"https://a/a", "https://a/m", "https://a/z"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("text keys: %v, want %v", got, want)
	}
}
