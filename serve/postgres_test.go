package serve

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/sitemapkit/sitemap/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

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

// On a PostgreSQL table the change check counts the rows only when the
// server's write counters of the table moved: a second check of an
// unchanged table is not a scan, an insert is seen (once the writer's
// statistics are reported), and so is a TRUNCATE.
func TestPostgresChangeCounters(t *testing.T) {
	db := openPostgres(t)
	exec(t, db, `CREATE TABLE pages (url text PRIMARY KEY, updated_at timestamptz NOT NULL)`)
	exec(t, db, `INSERT INTO pages SELECT 'https://www.example.com/p/' || i, timestamptz '2026-11-01 00:00:00+00' FROM generate_series(1, 100) i`)
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		t.Fatal(err)
	}
	// changed waits (up to a minute: the statistics delay) for a check
	// that differs from v.
	changed := func(v string) string {
		t.Helper()
		for range 600 {
			nv, err := src.Version(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if nv != v {
				return nv
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("the change check still says %q", v)
		return ""
	}
	// Wait for the INSERT's statistics, so the counters hold still.
	for i := 0; ; i++ {
		var n int64
		if err := db.QueryRow(`SELECT n_tup_ins FROM pg_stat_all_tables WHERE relid = 'pages'::regclass`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 100 {
			break
		}
		if i == 600 {
			t.Fatalf("the server reports %d rows inserted, want 100", n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	v1, err := src.Version(ctx)
	if err != nil || !strings.HasPrefix(v1, "100|") {
		t.Fatalf("first check: %q, %v", v1, err)
	}
	if src.noCounters {
		t.Fatal("the table's write counters were not found")
	}
	// Same counters: no count (the version of an unchanged table was kept
	// although the rows, on this path, are not read).
	f := src.fulls
	for range 5 {
		if v, _ := src.Version(ctx); v != v1 {
			t.Fatalf("an unchanged table's version moved: %q, %q", v1, v)
		}
	}
	if src.fulls != f {
		t.Errorf("%d counts of an unchanged table", src.fulls-f)
	}
	exec(t, db, `INSERT INTO pages VALUES ('https://www.example.com/new', timestamptz '2026-11-02 00:00:00+00')`)
	v2 := changed(v1)
	if !strings.HasPrefix(v2, "101|") {
		t.Errorf("after the insert: %q", v2)
	}
	exec(t, db, `TRUNCATE pages`)
	if v3 := changed(v2); !strings.HasPrefix(v3, "0|") {
		t.Errorf("after the truncate: %q", v3)
	}
}
