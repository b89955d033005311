package pgfeed

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// newRole creates a role that may log in, with the given attributes, for
// the test's lifetime, and returns dsn connecting as it.
func newRole(t *testing.T, db *sql.DB, dsn, name, attrs string) string {
	t.Helper()
	exec(t, db, "CREATE ROLE "+name+" LOGIN "+attrs)
	t.Cleanup(func() {
		db.Exec("DROP OWNED BY " + name)
		db.Exec("DROP ROLE " + name)
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(name)
	return u.String()
}

// Each way Watch cannot start, on the real server, ends in an error that
// names the fix, and leaves no slot behind.
func TestWatchErrors(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	var dbname string
	if err := db.QueryRow("SELECT current_database()").Scan(&dbname); err != nil {
		t.Fatal(err)
	}
	exec(t, db, `CREATE TABLE pages (id text PRIMARY KEY, title text)`)
	exec(t, db, `CREATE TABLE nokey (url text, title text)`)
	exec(t, db, `CREATE TABLE other (id text PRIMARY KEY)`)
	exec(t, db, `CREATE PUBLICATION elsewhere FOR TABLE other`)
	exec(t, db, `CREATE PUBLICATION inserts FOR TABLE pages WITH (publish = 'insert')`)
	exec(t, db, `CREATE VIEW v AS SELECT * FROM pages`)
	suffix := strings.TrimPrefix(dbname, "pgtest_")
	plain := newRole(t, db, dsn, "plain_"+suffix, "")
	replicator := newRole(t, db, dsn, "repl_"+suffix, "REPLICATION")

	for _, tc := range []struct {
		name string
		o    Options
		want []string
	}{
		{"no table", Options{Table: "missing", Key: "id"}, []string{`table "missing" not found in database ` + dbname, "search_path"}},
		{"no such key column", Options{Table: "pages", Key: "url"}, []string{`table pages has no column "url" (the key); it has id, title`}},
		{"a view", Options{Table: "v", Key: "id"}, []string{"v is not a table"}},
		{"no table named", Options{Key: "id"}, []string{"Options.Table"}},
		{"bad name", Options{Table: "pages", Key: "id", Name: "My-Feed"}, []string{`Options.Name "My-Feed"`, "lower-case letters"}},
		{"no publication", Options{Table: "pages", Key: "id"},
			[]string{"publication sitemap_pages does not exist", `CREATE PUBLICATION sitemap_pages FOR TABLE "public"."pages"`, "Options.Create"}},
		{"publication of another table", Options{Table: "pages", Key: "id", Name: "elsewhere", Create: true},
			[]string{"publication elsewhere exists but does not publish table pages", `ALTER PUBLICATION elsewhere ADD TABLE "public"."pages"`}},
		{"publication of inserts only", Options{Table: "pages", Key: "id", Name: "inserts"},
			[]string{"insert true, update false", "ALTER PUBLICATION inserts SET (publish = 'insert, update, delete, truncate')"}},
		{"no replica identity", Options{Table: "nokey", Key: "url", Create: true},
			[]string{"has no replica identity", `ALTER TABLE "public"."nokey" REPLICA IDENTITY FULL`, "InstallTrigger"}},
		{"role without REPLICATION", Options{ConnString: plain, Table: "pages", Key: "id", Create: true},
			[]string{"ALTER ROLE plain_" + suffix + " REPLICATION", "WatchNotify"}},
		{"not the table's owner", Options{ConnString: replicator, Table: "pages", Key: "id", Create: true},
			[]string{"role repl_" + suffix + " may not create publication sitemap_pages", "needs ownership of table pages, which role postgres owns",
				`have postgres run CREATE PUBLICATION sitemap_pages FOR TABLE "public"."pages"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.o.ConnString == "" {
				tc.o.ConnString = dsn
			}
			called := false
			err := Watch(context.Background(), tc.o, func(Change) { called = true })
			if err == nil {
				t.Fatal("Watch started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
			if called {
				t.Error("fn was called")
			}
		})
	}
	if n := count(t, db, `SELECT count(*) FROM pg_replication_slots WHERE database = current_database()`); n != 0 {
		t.Errorf("%d replication slots left", n)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_publication WHERE pubname LIKE 'sitemap%'`); n != 0 {
		t.Errorf("%d publications created", n)
	}
}

// The errors of the replication connection that the test server cannot
// produce (it has logical decoding and room) name their fix too.
func TestReplicationErrors(t *testing.T) {
	settings := func(name string) string {
		return map[string]string{"wal_level": "replica", "max_replication_slots": "10", "max_wal_senders": "10"}[name]
	}
	pg := func(code, msg string) error {
		return fmt.Errorf("wrapped: %w", &pgconn.PgError{Severity: "ERROR", Code: code, Message: msg})
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{pg("55000", "logical decoding requires wal_level >= logical"),
			"set wal_level = logical in postgresql.conf and restart PostgreSQL (current: replica)"},
		{pg("53400", "all replication slots are in use"),
			"all replication slots of the server are in use (max_replication_slots = 10): drop those no longer used (SELECT slot_name, active FROM pg_replication_slots) or raise max_replication_slots"},
		{pg("55000", "replication slots can only be used if max_replication_slots > 0"), "raise max_replication_slots in postgresql.conf"},
		{pg("53300", "number of requested standby connections exceeds max_wal_senders (currently 10)"),
			"all WAL senders of the server are in use (max_wal_senders = 10): raise max_wal_senders in postgresql.conf and restart PostgreSQL"},
		{pg("42501", "must be superuser or replication role to start walsender"), "ALTER ROLE feeder REPLICATION"},
		{pg("42501", "permission denied to start WAL sender"), "ALTER ROLE feeder REPLICATION"},
		{pg("XX000", "something else"), "pgfeed: replication connection: wrapped: ERROR: something else (SQLSTATE XX000)"},
	} {
		got := replicationError(tc.err, "feeder", settings).Error()
		if !strings.Contains(got, tc.want) {
			t.Errorf("%v:\ngot  %s\nwant %s", tc.err, got, tc.want)
		}
	}
	if got := errNoReplication(`Web App`).Error(); !strings.Contains(got, `ALTER ROLE "Web App" REPLICATION`) {
		t.Errorf("a role that needs quoting: %s", got)
	}
}

// Names of publications, slots and channels are valid PostgreSQL names,
// distinct for distinct tables.
func TestObjectName(t *testing.T) {
	seen := map[string]string{}
	for _, tc := range []struct{ in, want string }{
		{"pages", "sitemap_pages"},
		{"app_pages", "sitemap_app_pages"},
		{"app.pages", ""},
		{"Pages", ""},
		{"pägës", ""},
		{strings.Repeat("a", 80), ""},
		{strings.Repeat("a", 81), ""},
	} {
		got := objectName("sitemap_", tc.in, 11)
		if tc.want != "" && got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
		if !validName(got) || len(got) > 52 {
			t.Errorf("%q: %q is not a valid name with room for a slot's suffix", tc.in, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%q and %q share the name %q", tc.in, other, got)
		}
		seen[got] = tc.in
	}
}

// openAs opens dsn (another role's) for the test's lifetime.
func openAs(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
