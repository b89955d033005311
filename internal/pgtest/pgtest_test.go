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
