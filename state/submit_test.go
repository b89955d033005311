package state

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// ledger is the submissions ledger both backends keep (what package
// indexnow uses).
type ledger interface {
	Store
	Submitted(ctx context.Context, loc, version string) (bool, error)
	RecordSubmissions(ctx context.Context, subs []Submission) error
	SentSince(ctx context.Context, since time.Time) (int64, error)
}

func TestSubmissions(t *testing.T) { eachBackend(t, testSubmissions) }

func testSubmissions(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{}).(ledger)
	defer s.Close()
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	err := s.RecordSubmissions(ctx, []Submission{
		{Loc: "https://x/a", Version: "1", At: now, Status: 200, Outcome: OutcomeSent},
		{Loc: "https://x/b", Version: "1", At: now, Status: 422, Outcome: OutcomeFailed},
		{Loc: "https://x/c", Version: "1", At: now.Add(-48 * time.Hour), Status: 202, Outcome: OutcomeSent},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		loc, version string
		want         bool
	}{{"https://x/a", "1", true}, {"https://x/a", "2", false}, {"https://x/b", "1", false}, {"https://x/c", "1", true}} {
		if got, err := s.Submitted(ctx, tc.loc, tc.version); err != nil || got != tc.want {
			t.Errorf("Submitted(%s, %s) = %v, %v", tc.loc, tc.version, got, err)
		}
	}
	if n, err := s.SentSince(ctx, now.Add(-24*time.Hour)); err != nil || n != 1 {
		t.Errorf("SentSince = %d, %v", n, err)
	}
}

// A file of schema version 1 (before submissions) is migrated when opened.
func TestMigrateVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "st.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(sqliteDialect().rewrite(schema)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO meta(key, value) VALUES('schema_version', '1')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenSQLite(ctx, path, SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RecordSubmissions(ctx, []Submission{{Loc: "https://x/a", Version: "v", At: time.Now(), Outcome: OutcomeSent}}); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := s.conn.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != "2" {
		t.Fatalf("schema version %q, %v", v, err)
	}
}
