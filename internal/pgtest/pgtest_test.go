package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// TestDB checks that each call gives a new, empty, writable database.
func TestDB(t *testing.T) {
	ctx := context.Background()
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the second database has %d tables, want a fresh one", n)
	}
	var v int
	if err := cb.QueryRow(ctx, "SHOW server_version_num").Scan(new(string)); err != nil {
		t.Fatal(err)
	}
	if err := ca.QueryRow(ctx, "SELECT x FROM t").Scan(&v); err != nil || v != 1 {
		t.Fatalf("read back %d, %v", v, err)
	}
}

// The server this package starts allows logical decoding (serve/pgfeed's
// tests create replication slots on it).
func TestLogicalDecoding(t *testing.T) {
	dsn := DB(t)
	if shared == nil {
		t.Skipf("%s points at an existing server: its settings are its own", EnvURL)
	}
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for name, want := range map[string]string{"wal_level": "logical", "max_replication_slots": "64", "max_wal_senders": "64"} {
		var got string
		if err := c.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}
