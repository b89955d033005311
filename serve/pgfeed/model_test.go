package pgfeed

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
	"time"
)

// A copy of the table kept only by re-reading the rows each change names
// (the whole table on All), as a sitemap server rebuilds its pages, stays
// equal to the table through random transactions: inserts, updates of the
// key and of other columns, deletes, statements of many rows, bulk loads,
// TRUNCATE, rollbacks. A change the feed misses leaves the copy stale and
// fails the test.
func TestFeedKeepsCopy(t *testing.T) {
	t.Parallel()
	for _, v := range []variant{logicalFeed, notifyFeed} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			rnd := rand.New(rand.NewPCG(seed, seed))
			db, dsn := openDB(t)
			exec(t, db, `CREATE TABLE pages (id text PRIMARY KEY, title text)`)
			o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
			v.prepare(t, db, o)
			r := follow(t, v, o)
			copy := map[string]string{}
			apply := func(c Change) {
				if c.All {
					copy = readRows(t, db, `SELECT id, title FROM pages`)
					return
				}
				for _, k := range c.Keys {
					delete(copy, k)
				}
				maps.Copy(copy, readRows(t, db, `SELECT id, title FROM pages WHERE id = ANY ($1)`, c.Keys))
			}
			key := func() string { return fmt.Sprintf("k%02d", rnd.IntN(40)) }
			ops := []func() (string, []any){
				func() (string, []any) {
					return `INSERT INTO pages VALUES ($1, $2) ON CONFLICT DO NOTHING`, []any{key(), fmt.Sprint(rnd.IntN(1000))}
				},
				func() (string, []any) {
					return `UPDATE pages SET title = $2 WHERE id = $1`, []any{key(), fmt.Sprint(rnd.IntN(1000))}
				},
				func() (string, []any) {
					return `UPDATE pages SET id = $2 WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM pages WHERE id = $2)`, []any{key(), key()}
				},
				func() (string, []any) { return `DELETE FROM pages WHERE id = $1`, []any{key()} },
				func() (string, []any) { return `UPDATE pages SET title = title || 'x' WHERE id < $1`, []any{key()} },
				func() (string, []any) { return `DELETE FROM pages WHERE id > $1 AND id < $2`, []any{key(), key()} },
			}
			for step := range 100 {
				tx, err := db.Begin()
				if err != nil {
					t.Fatal(err)
				}
				var did []string
				switch n := rnd.IntN(100); {
				case n < 2:
					did = append(did, "TRUNCATE")
					mustExec(t, tx, `TRUNCATE pages`)
				case n < 4:
					did = append(did, "bulk")
					mustExec(t, tx, `INSERT INTO pages SELECT 'bulk' || i, 'b' FROM generate_series(1, 1200) i ON CONFLICT DO NOTHING`)
					mustExec(t, tx, `DELETE FROM pages WHERE id LIKE 'bulk%' AND id > $1`, "bulk"+fmt.Sprint(rnd.IntN(1200)))
				default:
					for range 1 + rnd.IntN(4) {
						q, args := ops[rnd.IntN(len(ops))]()
						did = append(did, fmt.Sprint(q, args))
						mustExec(t, tx, q, args...)
					}
				}
				if rnd.IntN(10) == 0 {
					tx.Rollback()
					did = append(did, "ROLLBACK")
				} else if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				want := readRows(t, db, `SELECT id, title FROM pages`)
				deadline := time.After(10 * time.Second)
				for !maps.Equal(copy, want) {
					select {
					case c := <-r.changes:
						apply(c)
					case err := <-r.done:
						t.Fatalf("step %d: the feed ended: %v", step, err)
					case <-deadline:
						t.Fatalf("step %d (%q): the copy is stale 10s after the commit:\ncopy  %v\ntable %v", step, did, copy, want)
					}
				}
			}
		})
	}
}

func mustExec(t *testing.T, tx *sql.Tx, q string, args ...any) {
	t.Helper()
	if _, err := tx.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func readRows(t *testing.T, db *sql.DB, q string, args ...any) map[string]string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		m[k] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}
