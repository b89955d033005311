package serve

import (
	"context"
	"testing"
)

// BenchmarkRebuildPage is the cost of one change on a PostgreSQL table:
// the page holding the changed key (5,000 rows, the default) read, encoded, hashed
// and (its bytes changed) kept again.
func BenchmarkRebuildPage(b *testing.B) {
	db := openPostgres(b)
	exec(b, db, `CREATE TABLE pages (id bigint PRIMARY KEY, url text NOT NULL, updated_at timestamptz NOT NULL)`)
	exec(b, db, `INSERT INTO pages SELECT i, 'https://www.example.com/articles/' || i || '/some-title-of-the-article', timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second' FROM generate_series(1, 50000) i`)
	exec(b, db, `ANALYZE pages`)
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "id", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		b.Fatal(err)
	}
	h, err := NewHandler(Watched(src, nil), Options{BaseURL: "https://www.example.com/", Recheck: -1})
	if err != nil {
		b.Fatal(err)
	}
	if err := h.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
	st := h.allSites()[0]
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		exec(b, db, `UPDATE pages SET updated_at = updated_at + interval '1 day' WHERE id = $1`, 1+i%50000)
		if _, err := st.update(ctx, false, false, []Key{int64(1 + i%50000)}); err != nil {
			b.Fatal(err)
		}
	}
}
