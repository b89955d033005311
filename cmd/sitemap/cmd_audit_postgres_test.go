package main

import (
	"database/sql"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// audit --state postgres://… audits into the database, as the library
// does: the same output as with a SQLite file, and a second run resumes
// from it (nothing asked again).
func TestAuditPostgresState(t *testing.T) {
	srv := auditSite(t)
	db := pgtest.DB(t)
	run := func(st string) string {
		t.Helper()
		code, out, stderr := runCLI(t, "", "audit", srv.URL+"/", "--format", "jsonl", "--rate", "0", "--state", st)
		if code != exitProblems {
			t.Fatalf("audit --state %s: exit %d, want 1 (a 404 is an error)\n%s", st, code, stderr)
		}
		return out
	}
	want := run(t.TempDir() + "/s.db")
	if got := run(db); got != want {
		t.Errorf("audit with a PostgreSQL state:\n%s\nwith SQLite:\n%s", got, want)
	}
	// The audit is in the database, not in a file named after the URL.
	if _, err := os.Stat("postgres:"); err == nil {
		os.RemoveAll("postgres:")
		t.Errorf("audit --state %s made a directory postgres: here", db)
	}
	conn, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var tables int
	if err := conn.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_name LIKE '%audit_urls'`).Scan(&tables); err != nil || tables == 0 {
		t.Errorf("no audit table in the database (%d tables, %v)", tables, err)
	}
	if got := run(db); got != want {
		t.Errorf("second audit on the PostgreSQL state:\n%s\nfirst:\n%s", got, want)
	}
}

// audit --history --state postgres://… keeps the history in the
// database: the second run finds the stale and the churning page, as
// with a state file.
func TestAuditPostgresHistory(t *testing.T) { testAuditHistory(t, pgtest.DB(t)) }
