package serve

import (
	"context"
	"net"
	"strings"
	"testing"
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
