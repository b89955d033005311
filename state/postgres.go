package state

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	sitemap "github.com/sitemapkit/sitemap"
)

// PostgresOptions tunes [OpenPostgres]. The zero value is ready to use.
type PostgresOptions struct {
	// BatchSize is the number of records buffered before they are written
	// in one statement (default 5000). A crash loses at most this many
	// writes.
	BatchSize int
	// MaxDelay is the longest a write stays buffered while the store is in
	// use (default 2s); it is checked on every call.
	MaxDelay time.Duration
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
	// MaxConns caps the connection pool (default 8).
	MaxConns int32
}

// pgSchemaVersion is the schema version this program writes; a database
// with a newer one is refused rather than misread.
const pgSchemaVersion = 8

// pgMigrations[v] brings a database of version v-1 to version v. Each runs
// in the transaction that records the new version, so a migration is
// applied whole or not at all, and by one opener at a time (the others
// wait on the version row's lock). The SQL is what CockroachDB accepts
// too: no advisory locks, no PL/pgSQL, no PostgreSQL-only types.
var pgMigrations = [pgSchemaVersion + 1]string{
	1: schema,
	2: submissionsSchema,
	3: crawlSchema,
	4: leaseSchema,
	5: `ALTER TABLE sitemap_crawl_hosts ADD COLUMN IF NOT EXISTS paused_until TIMESTAMPTZ`,
	6: auditSchema,
	7: auditHistorySchema,
	8: changesSchema,
}

// IsPostgres reports whether name is a PostgreSQL connection URL
// (postgres:// or postgresql://).
func IsPostgres(name string) bool {
	return len(name) > 11 && (name[:11] == "postgres://" || len(name) > 13 && name[:13] == "postgresql://")
}

// OpenPostgres connects to the database of url (postgres://user:pass@host:port/db?…,
// any setting pgx reads, including the PG* environment variables for
// what the URL leaves out), creates or migrates the schema, and returns
// the state: a pool of connections (through pgx's database/sql driver)
// shared by any number of processes. Its tables are named sitemap_*, so
// the database may hold others.
func OpenPostgres(ctx context.Context, url string, o PostgresOptions) (*Postgres, error) {
	if o.BatchSize <= 0 {
		o.BatchSize = 5000
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 8
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("state: %s: %w (use postgres://user:password@host:5432/database)", Redact(url), err)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(int(o.MaxConns))
	db.SetMaxIdleConns(int(o.MaxConns)) // keep them: each holds its prepared statements
	s := newDB(db, pgDialect(), options{batch: o.BatchSize, maxDelay: o.MaxDelay, precision: o.Precision})
	if err := s.migratePG(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("state: %s: %w", Redact(url), err)
	}
	return s, nil
}

// Redact returns name for messages: a PostgreSQL URL without its
// password; anything else as it is.
func Redact(name string) string {
	if !IsPostgres(name) {
		return name
	}
	cfg, err := pgx.ParseConfig(name)
	if err != nil {
		return "postgres://…" // unparsable: it may hold a password anywhere
	}
	if cfg.Password == "" {
		return name
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

// migratePG applies the migrations the database lacks, each in one
// transaction holding the version row's lock.
func (s *DB) migratePG(ctx context.Context) error {
	// Two openers creating the table at once can both pass IF NOT EXISTS
	// and one fail on the catalog's unique index: try again.
	var err error
	for range 3 {
		_, err = s.db.ExecContext(ctx, s.d.rewrite(metaSchema))
		if err == nil {
			_, err = s.db.ExecContext(ctx, `INSERT INTO sitemap_meta (key, value) VALUES ('schema_version', '0') ON CONFLICT (key) DO NOTHING`)
		}
		if err == nil || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM sitemap_meta WHERE key = 'schema_version' FOR UPDATE`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	have, err := strconv.Atoi(v)
	if err != nil || have > pgSchemaVersion {
		return fmt.Errorf("the database has state schema version %q; this program reads version %d or older (upgrade it)", v, pgSchemaVersion)
	}
	if have == pgSchemaVersion {
		return nil
	}
	for n := have + 1; n <= pgSchemaVersion; n++ {
		if _, err := tx.ExecContext(ctx, s.d.rewrite(pgMigrations[n])); err != nil {
			return fmt.Errorf("migrate the state to schema version %d: %w", n, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sitemap_meta SET value = $1 WHERE key = 'schema_version'`, strconv.Itoa(pgSchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// pgDialect is PostgreSQL's, through pgx: lists and batches of rows go
// as arrays (one statement for the batch, unnest), batches of
// statements as one pipelined round trip.
func pgDialect() *dialect {
	return &dialect{
		pg:       true,
		inList:   func(col string) string { return col + ` = ANY(?::text[])` },
		bindList: func(locs []string) any { return locs },
		upsertMany: func(ctx context.Context, x sess, table string, cols []string, nkey int, rows [][]any) error {
			if len(rows) == 0 {
				return nil
			}
			arrays := make([]any, len(cols))
			casts := make([]string, len(cols))
			for c := range cols {
				arrays[c], casts[c] = pgArray(rows, c)
			}
			q := `INSERT INTO {` + table + `} (` + strings.Join(cols, ", ") + `) SELECT * FROM unnest(` + strings.Join(casts, ", ") + `)` + onConflict(cols, nkey)
			_, err := x.exec(ctx, q, arrays...)
			return err
		},
		batch: func(ctx context.Context, x sess, stmts []stmt) (int, error) {
			failed := 0
			err := x.c.Raw(func(dc any) error {
				var b pgx.Batch
				for _, st := range stmts {
					b.Queue(x.s.sql.of(st.q), st.args...)
				}
				br := dc.(*stdlib.Conn).Conn().SendBatch(ctx, &b)
				for i := range stmts {
					if _, err := br.Exec(); err != nil {
						failed = i
						br.Close()
						return err
					}
				}
				return br.Close()
			})
			return failed, err
		},
		conflict: func(err error) error {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") && !errors.Is(err, ErrConflict) {
				return fmt.Errorf("%w: %w", ErrConflict, err)
			}
			return err
		},
	}
}

// pgArray is column c of rows as one array parameter, with the cast
// that names its type.
func pgArray(rows [][]any, c int) (any, string) {
	p := "?" + strconv.Itoa(c+1)
	switch rows[0][c].(type) {
	case int64:
		a := make([]int64, len(rows))
		for i, r := range rows {
			a[i] = r[c].(int64)
		}
		return a, p + "::int8[]"
	case bool:
		a := make([]bool, len(rows))
		for i, r := range rows {
			a[i] = r[c].(bool)
		}
		return a, p + "::bool[]"
	case []byte:
		a := make([][]byte, len(rows))
		for i, r := range rows {
			a[i] = r[c].([]byte)
		}
		return a, p + "::bytea[]"
	}
	a := make([]string, len(rows))
	for i, r := range rows {
		a[i], _ = r[c].(string)
	}
	return a, p + "::text[]"
}
