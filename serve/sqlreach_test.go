package serve

import (
	"context"
	"database/sql"
	"net"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// TestSQLUnreachableServer: a --db server that does not answer (nothing
// listens on the port) is said as such, with what to check, not only as
// the driver's "dial tcp …: connection refused" under "reading the
// columns of table pages"; and a table that does not exist says to check
// its name.
func TestSQLUnreachableServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // a port nothing listens on
	for _, dsn := range []string{"mysql://u:p@" + addr + "/db", "postgres://u:p@" + addr + "/db?connect_timeout=5"} {
		db, err := OpenDB(dsn)
		if err != nil {
			t.Fatal(err)
		}
		_, err = SQL(context.Background(), db, Query{Table: "pages"})
		db.Close()
		if err == nil || !strings.Contains(err.Error(), "cannot reach the database server at "+addr) ||
			!strings.Contains(err.Error(), "check that it runs") {
			t.Errorf("%s: %v", dsn, err)
		}
	}
	db, err := OpenDB(crawlState(t, 1, 0, 0, true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = SQL(context.Background(), db, Query{Table: "pagez"})
	if err == nil || !strings.Contains(err.Error(), `the database has no table "pagez"`) {
		t.Errorf("missing table: %v", err)
	}
}

// TestSQLNoSuchTable: a --table the database does not have is said
// without the package's name (sitemap generate --db says it too), with
// the tables the database has, on SQLite, PostgreSQL (where a table of
// another schema is named with its schema) and MariaDB.
func TestSQLNoSuchTable(t *testing.T) {
	ctx := context.Background()
	lite := openSQLite(t)
	exec(t, lite, `CREATE TABLE pages (loc TEXT PRIMARY KEY)`)
	exec(t, lite, `CREATE VIEW live AS SELECT loc FROM pages`)
	empty := openSQLite(t)
	pg, err := OpenDB(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if _, err := pg.ExecContext(ctx, `CREATE TABLE pages (loc TEXT PRIMARY KEY); CREATE SCHEMA shop; CREATE TABLE shop.items (loc TEXT)`); err != nil {
		t.Fatal(err)
	}
	my := openMySQL(t)
	for _, q := range []string{`CREATE TABLE wp_posts (ID BIGINT PRIMARY KEY)`, `CREATE TABLE wp_options (option_id BIGINT PRIMARY KEY)`} {
		if _, err := my.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		db    *sql.DB
		table string
		want  string
	}{
		{"sqlite", lite, "nope", "; its tables are live, pages: check the name"},
		{"sqlite empty", empty, "nope", "; it has no tables (is it the right database?): check the name"},
		{"postgres", pg, "nope", "; its tables are pages, shop.items: check the name"},
		{"mariadb", my, "posts", "; its tables are wp_options, wp_posts: check the name"},
	} {
		_, err := SQL(ctx, c.db, Query{Table: c.table})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, `the database has no table "`+c.table+`" (`) || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %s\nwant it to begin 'the database has no table %q' and hold %q", c.name, msg, c.table, c.want)
		}
	}
}
