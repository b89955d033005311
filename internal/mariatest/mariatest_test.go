package mariatest

import (
	"database/sql"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// Each call gives a new, empty, writable utf8mb4 database.
func TestDB(t *testing.T) {
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	open := func(u string) *sql.DB {
		dsn, err := DSN(u)
		if err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	da, db := open(a), open(b)
	if _, err := da.Exec("CREATE TABLE t (x varchar(20)); INSERT INTO t VALUES ('Zürich & 🌍')"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the second database has %d tables, want a fresh one", n)
	}
	var v string
	if err := da.QueryRow("SELECT x FROM t").Scan(&v); err != nil || v != "Zürich & 🌍" {
		t.Fatalf("read back %q, %v", v, err)
	}
	var cs string
	if err := da.QueryRow("SELECT @@character_set_database").Scan(&cs); err != nil || cs != "utf8mb4" {
		t.Fatalf("character set %q, %v", cs, err)
	}
}

// DSN keeps the user, password, address and database of a URL.
func TestDSN(t *testing.T) {
	got, err := DSN("mysql://wp:s%40cret@127.0.0.1:3306/wordpress")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wp:s@cret@tcp(127.0.0.1:3306)/wordpress", "parseTime=true", "multiStatements=true"} {
		if !strings.Contains(got, want) {
			t.Errorf("DSN = %q, lacks %q", got, want)
		}
	}
	if _, err := DSN("postgres://x@y/z"); err == nil {
		t.Error("a postgres URL was taken")
	}
}
