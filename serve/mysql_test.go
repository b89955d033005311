package serve

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/mariatest"
)

// openMySQL returns a new, empty database of the test binary's MariaDB,
// opened as OpenDB opens a mysql:// URL.
func openMySQL(t testing.TB) *sql.DB {
	t.Helper()
	db, err := OpenDB(mariatest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// mysqlBackend is a table pages(url, updated_at datetime) on a real
// MariaDB server, read through a query.
var mysqlBackend = backend{name: "mysql", open: func(t *testing.T, rows []row) (Source, func(...row)) {
	db := openMySQL(t)
	exec(t, db, "CREATE TABLE pages (id bigint AUTO_INCREMENT PRIMARY KEY, url varchar(255) NOT NULL UNIQUE, updated_at datetime, published bool NOT NULL DEFAULT true)")
	insert := func(rs ...row) {
		for _, r := range rs {
			exec(t, db, `INSERT INTO pages (url, updated_at) VALUES (?, ?)`, r.loc, r.lastmod)
		}
	}
	insert(rows...)
	src, err := SQL(context.Background(), db, Query{Query: `SELECT url, updated_at FROM pages WHERE published`})
	if err != nil {
		t.Fatal(err)
	}
	return src, insert
}}

// The same conformance as SQLite and PostgreSQL, on MariaDB.
func TestMySQL(t *testing.T) { testConformance(t, mysqlBackend) }

// The model test on MariaDB: every page served equals a fresh build from
// the table's committed rows after every kind of change, by a check of
// every page (MySQL has no data_version) and, watched, of the pages
// holding the keys written (Locate in the key column's collation).
func TestModelMySQL(t *testing.T) {
	for _, c := range []struct {
		name          string
		byID, watched bool
		steps         int // a check of every page is a query per page
	}{{"by url", false, false, 60}, {"by id, watched", true, true, 150}, {"by url, watched", false, true, 150}} {
		t.Run(c.name, func(t *testing.T) {
			db := openMySQL(t)
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			m := &modelDB{t: t, db: db, my: true, rnd: rand.New(rand.NewPCG(seed, 4)), rows: map[int64]modelRow{}, byID: c.byID}
			runModel(t, m, modelSteps(t, c.steps), c.watched)
		})
	}
}

// Pages are cut in the key column's own collation: a case-insensitive
// key orders "b" between "A" and "C", and Locate agrees with the pages;
// DATETIME and TIMESTAMP lastmods are read as UTC; bytes (VARBINARY
// titles, as MediaWiki stores them) are text.
func TestMySQLCollationAndTypes(t *testing.T) {
	url := mariatest.DB(t)
	db, err := OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The rows are written in another session time zone: what is read
	// is the same instants.
	dsn, err := mariatest.DSN(url)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("mysql", dsn+"&time_zone=%27%2B05%3A00%27")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	exec(t, w, `CREATE TABLE pages (title varchar(100) COLLATE utf8mb4_unicode_ci PRIMARY KEY, raw varbinary(100) NOT NULL, at datetime, ts timestamp NULL)`)
	for i, title := range []string{"A", "b", "C", "d", "É", "f"} {
		exec(t, w, `INSERT INTO pages VALUES (?, ?, '2026-11-02 10:00:00', FROM_UNIXTIME(?))`, title, "https://www.example.com/"+strings.ToLower(title), 1793613600+i)
	}
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "title", Columns: Columns{Loc: "raw", LastMod: "ts"}})
	if err != nil {
		t.Fatal(err)
	}
	var keys []Key
	var lastmods []string
	err = src.Entries(ctx, nil, nil, func(k Key, u *sitemap.URL) error {
		keys = append(keys, k)
		lastmods = append(lastmods, u.LastMod.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strSlice(keys), ","); got != "A,b,C,d,É,f" {
		t.Errorf("keys in order %s, want the collation's A,b,C,d,É,f", got)
	}
	if lastmods[0] != "2026-11-02T10:00:00Z" {
		t.Errorf("TIMESTAMP read as %s, want 2026-11-02T10:00:00Z", lastmods[0])
	}
	// "c" and "e" sort with "C" and "É": after the page ending "b",
	// and in the page ending "d" / "f".
	idx, err := src.Locate(ctx, []Key{"b", "d"}, []Key{"a", "c", "e", "E", "B"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := idx, []int{0, 1, 2, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("Locate = %v, want %v", got, want)
	}
	src2, err := SQL(ctx, db, Query{Table: "pages", Key: "title", Columns: Columns{Loc: "raw", LastMod: "at"}})
	if err != nil {
		t.Fatal(err)
	}
	err = src2.Entries(ctx, "C", "É", func(k Key, u *sitemap.URL) error {
		if u.LastMod.String() != "2026-11-02T10:00:00Z" {
			t.Errorf("DATETIME read as %s", u.LastMod)
		}
		if k != "d" && k != "É" {
			t.Errorf("(C, É] holds %v", k)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func strSlice(ks []Key) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i], _ = k.(string)
	}
	return out
}

// OpenDB reads mysql:// URLs: escaped passwords, the default port, a
// socket; an error never shows the password.
func TestMySQLConfig(t *testing.T) {
	c, err := MySQLConfig("mysql://wp:p%40ss@db.example.com/wordpress?tls=skip-verify")
	if err != nil {
		t.Fatal(err)
	}
	if c.User != "wp" || c.Passwd != "p@ss" || c.Addr != "db.example.com:3306" || c.DBName != "wordpress" || c.TLSConfig != "skip-verify" || !c.ParseTime {
		t.Errorf("config %+v", c)
	}
	c, err = MySQLConfig("mysql://root@/wiki?socket=/run/mysqld/mysqld.sock")
	if err != nil || c.Net != "unix" || c.Addr != "/run/mysqld/mysqld.sock" {
		t.Errorf("socket: %+v, %v", c, err)
	}
	for _, bad := range []string{"mysql://u:secret@host/", "mysql://u:secret@host:3306/a/b"} {
		_, err := MySQLConfig(bad)
		if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "database") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if got := RedactDSN("mysql://u:secret@host/db"); got != "mysql://u:…@host/db" {
		t.Errorf("RedactDSN = %s", got)
	}
}

// A row committed in MariaDB is in its page within a few rechecks of
// Handler.Run: the bound of a source without a feed.
func TestMySQLRunBound(t *testing.T) {
	db := openMySQL(t)
	exec(t, db, "CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL, updated_at datetime)")
	for i := range 30 {
		exec(t, db, "INSERT INTO pages VALUES (?, ?, '2026-11-02 10:00:00')", i, fmt.Sprintf("https://www.example.com/p/%02d", i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "id"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	for _, c := range []struct{ q, page, want string }{
		{"UPDATE pages SET updated_at = '2026-11-20 08:00:00' WHERE id = 15", "/sitemap-2.xml", "<lastmod>2026-11-20T08:00:00Z</lastmod>"},
		{"UPDATE pages SET url = 'https://www.example.com/renamed' WHERE id = 25", "/sitemap-3.xml", "<loc>https://www.example.com/renamed</loc>"},
	} {
		exec(t, db, c.q)
		start := time.Now()
		for !strings.Contains(body(t, get(t, h, "GET", c.page)), c.want) {
			if time.Since(start) > 20*time.Second {
				t.Fatalf("%s: %s still lacks %s 20 s after the commit", c.q, c.page, c.want)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: in its page after %s", c.q, time.Since(start).Round(time.Millisecond))
	}
	cancel()
	<-done
}
