package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// firstQueryError is the error of a source's first query, the one that
// connects: a server that cannot be reached says so and what to check,
// a table that does not exist says to check its name and lists the
// tables the database has; any other error is the driver's, under what
// was read. The errors do not name the package or a command: both
// `sitemap serve` and `sitemap generate` read a database through it.
func (s *SQLSource) firstQueryError(ctx context.Context, err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		at := ""
		if op.Addr != nil {
			at = " at " + op.Addr.String()
		}
		return fmt.Errorf("cannot reach the database server%s (%v); check that it runs and listens there, "+
			"and the host and port of the database URL: %w", at, op.Err, err)
	}
	if s.q.Table != "" && noSuchTable(err) {
		return noTableError{fmt.Errorf("the database has no table %q (%w); %s: check the name, with its schema where "+
			"the database has several (public.pages), or read a query instead", s.q.Table, err, s.tablesHint(ctx))}
	}
	return fmt.Errorf("reading the columns of %s: %w", s.what(), err)
}

// noTableError is the error of a Query.Table the database does not have
// (OpenSQL names the flag, --table, before it).
type noTableError struct{ error }

func (e noTableError) Unwrap() error { return e.error }

// tablesHint says which tables (and views) the database has, at most
// maxListed of them: "its tables are a, b", "it has no tables", or, when
// they cannot be listed, "its tables could not be listed (ERROR)".
func (s *SQLSource) tablesHint(ctx context.Context) string {
	names, err := s.tableNames(ctx)
	switch {
	case err != nil:
		return fmt.Sprintf("its tables could not be listed (%v)", err)
	case len(names) == 0:
		return "it has no tables (is it the right database?)"
	}
	return "its tables are " + listColumns(names)
}

// tableNames lists the tables and views of the database the source
// reads, in order: on PostgreSQL those of the current schema by name
// and the others as SCHEMA.NAME, leaving out the system catalogs.
func (s *SQLSource) tableNames(ctx context.Context) ([]string, error) {
	var q string
	switch s.q.Dialect {
	case SQLite:
		q = `SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`
	case MySQL:
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name`
	default:
		q = `SELECT CASE WHEN table_schema = current_schema() THEN table_name ELSE table_schema || '.' || table_name END AS n
			FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
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
