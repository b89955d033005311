package serve

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// firstQueryError is the error of a source's first query, the one that
// connects: a server that cannot be reached says so and what to check,
// a table that does not exist says to check its name; any other error
// is the driver's, under what was read.
func (s *SQLSource) firstQueryError(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		at := ""
		if op.Addr != nil {
			at = " at " + op.Addr.String()
		}
		return fmt.Errorf("serve: cannot reach the database server%s (%v); check that it runs and listens there, "+
			"and the host and port of the database URL: %w", at, op.Err, err)
	}
	if s.q.Table != "" && noSuchTable(err) {
		return fmt.Errorf("serve: the database has no table %q (%w); check its name, with its schema where "+
			"the database has several (public.pages), or read a query instead", s.q.Table, err)
	}
	return fmt.Errorf("serve: reading the columns of %s: %w", s.what(), err)
}

// noSuchTable reports whether err is a database's "no such table":
// SQLite's message, MySQL's error 1146, PostgreSQL's SQLSTATE 42P01.
func noSuchTable(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1146
	}
	var pe interface{ SQLState() string }
	if errors.As(err, &pe) {
		return pe.SQLState() == "42P01"
	}
	return strings.Contains(err.Error(), "no such table")
}
