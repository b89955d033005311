package serve

import (
	"context"
	"strconv"
	"strings"
)

// Pages implements [Pager]: one query numbers the rows in key order and
// aggregates them by page in the database (count, last key, newest
// lastmod, the bytes of the escaped locs plus what the other fields may
// take), so one row per page comes back instead of one per entry. A source
// with an Ext column returns no pages: the handler measures its entries.
// So does one whose newest lastmod of a page is not a date dateOf reads:
// the database's max() of a text column compares text, and a value that
// is not a date ("n/a", "2026-1-5") can sort above every real one, which
// would cost the page its lastmod; measured entry by entry, each value is
// read as a date or dropped alone.
func (s *SQLSource) Pages(ctx context.Context, perPage int) ([]PageStat, error) {
	c := s.q.Columns
	if c.Ext != "" {
		return nil, nil
	}
	loc := quoteIdent(c.Loc)
	cr, length := "chr(13)", "octet_length"
	if s.q.Dialect == SQLite {
		cr, length = "char(13)", "length" // of a TEXT value: its bytes only after CAST AS BLOB
	}
	esc := "replace(replace(replace(replace(replace(replace(" + loc + `, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '''', '&apos;'), '"', '&quot;'), ` + cr + ", '&#xD;')"
	if s.q.Dialect == SQLite {
		esc = "CAST(" + esc + " AS BLOB)"
	}
	lm := "NULL"
	if c.LastMod != "" {
		lm = quoteIdent(c.LastMod)
	}
	size := "coalesce(" + length + "(" + esc + "), 0) + " + strconv.Itoa(entryOverhead) +
		" + CASE WHEN " + loc + " LIKE 'http%' THEN 0 ELSE " + strconv.Itoa(relativeSlack) + " END"
	q := "SELECT count(*), max(k), max(lm), sum(sz) FROM (SELECT " + s.key + " AS k, " + lm + " AS lm, " + size +
		" AS sz, (row_number() OVER (ORDER BY " + s.key + ") - 1) / " + strconv.Itoa(perPage) + " AS g FROM " + s.from +
		") t GROUP BY g ORDER BY g"
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PageStat
	for rows.Next() {
		var n, bytes int64
		var last, newest any
		if err := rows.Scan(&n, &last, &newest, &bytes); err != nil {
			return nil, err
		}
		lm := dateOf(newest)
		if lm.IsZero() && newest != nil && strings.TrimSpace(text(newest)) != "" {
			return nil, rows.Err() // a text max() that is no date: measure entry by entry
		}
		out = append(out, PageStat{Count: int(n), Last: last, LastMod: lm, Bytes: bytes})
	}
	return out, rows.Err()
}
