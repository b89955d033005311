package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The state's SQL is written once, for both engines, in SQLite's
// spelling with three marks that a [dialect] rewrites:
//
//   - ? and ?N are placeholders (PostgreSQL: $1, $2 … and $N);
//   - {name} is a table or index (PostgreSQL: sitemap_name, so that
//     the state's tables live beside an application's own);
//   - {C} is the collation of byte order (PostgreSQL: COLLATE "C";
//     SQLite compares bytes already), {pg:text} text PostgreSQL alone
//     reads, {sqlite:text} text SQLite alone reads (text holds no
//     braces, and numbered placeholders only).
//
// What the engines do differently beyond the spelling is a field of
// the dialect: a batch of rows upserted in one statement (PostgreSQL's
// unnest) or one prepared statement a row in the open transaction
// (SQLite, in-process), a list given to IN, a batch of statements sent
// in one round trip, and which errors mean "try the transaction again".
type dialect struct {
	// pg is set for PostgreSQL.
	pg bool
	// inList is the SQL of "col is one of the list bound at ?": a list
	// given as bindList returns it.
	inList func(col string) string
	// bindList is the value inList's placeholder takes.
	bindList func(locs []string) any
	// upsertMany writes rows of cols into table, replacing the rows of
	// the same key (its first nkey columns): rows hold no key twice.
	upsertMany func(ctx context.Context, x sess, table string, cols []string, nkey int, rows [][]any) error
	// batch runs stmts in order, in x's transaction, in one round trip
	// where the engine can (a failure names the statement's index).
	batch func(ctx context.Context, x sess, stmts []stmt) (int, error)
	// conflict wraps an error of a transaction the database ended
	// because of another one with ErrConflict.
	conflict func(error) error
}

// stmt is one statement of a batch.
type stmt struct {
	q    string
	args []any
}

// rewrite returns q in d's spelling (see dialect).
func (d *dialect) rewrite(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 32)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			if !d.pg {
				b.WriteString(q[i:j])
			} else if j > i+1 {
				b.WriteString("$" + q[i+1:j])
			} else {
				n++
				b.WriteString("$" + strconv.Itoa(n))
			}
			i = j - 1
		case c == '{':
			j := strings.IndexByte(q[i:], '}')
			if j < 0 { // no mark: a brace of the SQL
				b.WriteByte(c)
				continue
			}
			tok := q[i+1 : i+j]
			i += j
			switch {
			case tok == "C":
				if d.pg {
					b.WriteString(` COLLATE "C"`)
				}
			case strings.HasPrefix(tok, "pg:"):
				if d.pg {
					b.WriteString(d.rewrite(tok[3:]))
				}
			case strings.HasPrefix(tok, "sqlite:"):
				if !d.pg {
					b.WriteString(d.rewrite(tok[7:]))
				}
			case d.pg:
				b.WriteString("sitemap_" + tok)
			default:
				b.WriteString(tok)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sqliteDialect is SQLite's (modernc.org/sqlite). Its calls are made
// with the DB's mutex held (one connection).
func sqliteDialect() *dialect {
	upserts := map[string]string{} // by table: its columns are always the same
	return &dialect{
		inList: func(col string) string { return col + ` IN (SELECT value FROM json_each(?))` },
		bindList: func(locs []string) any {
			b, _ := json.Marshal(locs) // strings always marshal
			return string(b)
		},
		upsertMany: func(ctx context.Context, x sess, table string, cols []string, nkey int, rows [][]any) error {
			q, ok := upserts[table]
			if !ok {
				q = `INSERT INTO {` + table + `} (` + strings.Join(cols, ", ") + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) + `)` + onConflict(cols, nkey)
				upserts[table] = q
			}
			for _, r := range rows {
				if _, err := x.exec(ctx, q, r...); err != nil {
					return err
				}
			}
			return nil
		},
		batch: func(ctx context.Context, x sess, stmts []stmt) (int, error) {
			for i, st := range stmts {
				if _, err := x.exec(ctx, st.q, st.args...); err != nil {
					return i, err
				}
			}
			return 0, nil
		},
		conflict: func(err error) error { return err },
	}
}

// onConflict is the upsert clause of cols whose first nkey are the key.
func onConflict(cols []string, nkey int) string {
	var b strings.Builder
	b.WriteString(" ON CONFLICT (" + strings.Join(cols[:nkey], ", ") + ")")
	if nkey == len(cols) {
		b.WriteString(" DO NOTHING")
		return b.String()
	}
	b.WriteString(" DO UPDATE SET ")
	for i, c := range cols[nkey:] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = excluded." + c)
	}
	return b.String()
}

// rewrites caches the rewritten SQL of a DB (one entry per statement of
// the package: a bounded set).
type rewrites struct {
	d *dialect
	m sync.Map // string -> string
}

func (r *rewrites) of(q string) string {
	if v, ok := r.m.Load(q); ok {
		return v.(string)
	}
	s := r.d.rewrite(q)
	r.m.Store(q, s)
	return s
}

// execer is what a statement runs on: SQLite's one connection, a
// PostgreSQL pool, or a transaction of it.
type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// sess runs the package's SQL (see dialect) on x: a read outside a
// transaction or the statements of one. On SQLite every statement is
// prepared once on the connection (its parse costs more than running an
// upsert); pgx keeps its own cache of prepared statements per connection.
type sess struct {
	s *DB
	x execer
	// c is the connection a PostgreSQL transaction runs on (for batch).
	c *sql.Conn
}

func (x sess) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	s := x.s
	st, ok := s.stmts[q]
	if !ok {
		var err error
		if st, err = s.conn.PrepareContext(ctx, s.sql.of(q)); err != nil {
			return nil, fmt.Errorf("prepare %q: %w", q, err)
		}
		s.stmts[q] = st
	}
	return st, nil
}

// exec runs q and returns the number of rows it changed.
func (x sess) exec(ctx context.Context, q string, args ...any) (int64, error) {
	var res sql.Result
	var err error
	if x.s.conn != nil {
		var st *sql.Stmt
		if st, err = x.prepared(ctx, q); err == nil {
			res, err = st.ExecContext(ctx, args...)
		}
	} else {
		res, err = x.x.ExecContext(ctx, x.s.sql.of(q), args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (x sess) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if x.s.conn != nil {
		st, err := x.prepared(ctx, q)
		if err != nil {
			return nil, err
		}
		return st.QueryContext(ctx, args...)
	}
	return x.x.QueryContext(ctx, x.s.sql.of(q), args...)
}

// row is QueryRow: its Scan returns the error of preparing q too.
func (x sess) row(ctx context.Context, q string, args ...any) row {
	if x.s.conn != nil {
		st, err := x.prepared(ctx, q)
		if err != nil {
			return row{err: err}
		}
		return row{r: st.QueryRowContext(ctx, args...)}
	}
	return row{r: x.x.QueryRowContext(ctx, x.s.sql.of(q), args...)}
}

// num scans an integer column into *p directly (database/sql would
// format it and parse it again for an int).
func num(p *int) sql.Scanner { return intScanner{p} }

type intScanner struct{ p *int }

func (s intScanner) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		*s.p = int(v)
	case nil:
		*s.p = 0
	default:
		var n sql.NullInt64
		if err := n.Scan(src); err != nil {
			return err
		}
		*s.p = int(n.Int64)
	}
	return nil
}

type row struct {
	r   *sql.Row
	err error
}

func (r row) Scan(dst ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.r.Scan(dst...)
}

// scanAll calls scan for every row of rows and closes them.
func scanAll(rows *sql.Rows, err error, scan func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
