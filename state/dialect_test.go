package state

import "testing"

// The SQL written once reads as each engine spells it.
func TestDialectRewrite(t *testing.T) {
	for _, c := range []struct{ in, sqlite, pg string }{
		{`SELECT 1 FROM {urls} WHERE loc = ? AND x > ?`, `SELECT 1 FROM urls WHERE loc = ? AND x > ?`, `SELECT 1 FROM sitemap_urls WHERE loc = $1 AND x > $2`},
		{`UPDATE {crawl_urls} SET a = ?2 WHERE loc = ?1 AND b = ?2`, `UPDATE crawl_urls SET a = ?2 WHERE loc = ?1 AND b = ?2`, `UPDATE sitemap_crawl_urls SET a = $2 WHERE loc = $1 AND b = $2`},
		{`loc TEXT{C} PRIMARY KEY){sqlite: WITHOUT ROWID}`, `loc TEXT PRIMARY KEY) WITHOUT ROWID`, `loc TEXT COLLATE "C" PRIMARY KEY)`},
		{`entry {sqlite:BLOB}{pg:BYTEA}`, `entry BLOB`, `entry BYTEA`},
		{`WHERE {pg:loc = ?1 AND }x = ?2`, `WHERE x = ?2`, `WHERE loc = $1 AND x = $2`},
		{`SET {pg:fetched_at = now(), }status = ?, reason = ?`, `SET status = ?, reason = ?`, `SET fetched_at = now(), status = $1, reason = $2`},
		{`value = '{' || ?`, `value = '{' || ?`, `value = '{' || $1`}, // an unclosed brace stays
	} {
		if got := sqliteDialect().rewrite(c.in); got != c.sqlite {
			t.Errorf("SQLite: %s\n got %s\nwant %s", c.in, got, c.sqlite)
		}
		if got := pgDialect().rewrite(c.in); got != c.pg {
			t.Errorf("PostgreSQL: %s\n got %s\nwant %s", c.in, got, c.pg)
		}
	}
}
