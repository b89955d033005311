package serve

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// droppedValues is a Query.Dropped that keeps what it is told.
type droppedValues struct {
	mu  sync.Mutex
	got []droppedValue
}

type droppedValue struct {
	key                Key
	loc                string
	field, rule, value string
	msg                string
}

func (d *droppedValues) hook(key Key, loc string, err *sitemap.EntryError) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, droppedValue{key, loc, err.Field, string(err.Rule), err.Value, err.Error()})
}

// distinct returns the drops told, each (key, field) once, in order.
func (d *droppedValues) distinct() []droppedValue {
	d.mu.Lock()
	defer d.mu.Unlock()
	seen := map[string]bool{}
	var out []droppedValue
	for _, x := range d.got {
		k := fmt.Sprint(x.key, "\x00", x.field)
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// forgivingTable creates pages(id, url, updated_at, priority, ext) on db
// with n good rows, /p/0000 … and one more per bad row given as
// (updated_at, priority, ext) SQL literals, keyed by id.
func forgivingTable(t *testing.T, db *sql.DB, pg bool, n int, bad ...[3]string) {
	t.Helper()
	typ := "TEXT"
	if pg {
		typ = "text"
	}
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url `+typ+` NOT NULL, updated_at `+typ+`, priority `+typ+`, ext `+typ+`)`)
	var b strings.Builder
	for i := range n {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `(%d, 'https://www.example.com/p/%04d', '2026-11-%02d', '0.5', '{"images":[{"loc":"https://cdn.example.com/%d.jpg"}]}')`, i+1, i, 1+i%28, i)
	}
	exec(t, db, `INSERT INTO pages VALUES `+b.String())
	for i, r := range bad {
		exec(t, db, fmt.Sprintf(`INSERT INTO pages VALUES (%d, 'https://www.example.com/bad/%d', %s, %s, %s)`, n+i+1, i, r[0], r[1], r[2]))
	}
}

// checkForgiving serves the table forgivingTable made (Columns found by
// name) and checks that every row of the rows there are is served, the good ones whole, and
// that each bad value was told once per row with its rule, never in a
// response.
func checkForgiving(t *testing.T, db *sql.DB, rows int, want []droppedValue) {
	t.Helper()
	d := &droppedValues{}
	src, err := SQL(context.Background(), db, Query{Table: "pages", Key: "id", Dropped: d.hook})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 400, Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Refresh(context.Background()); err != nil {
		t.Fatalf("Refresh: %v (serve would refuse to start)", err)
	}
	names, byName := pages(t, h)
	total := 0
	for _, name := range names {
		total += len(byName[name])
		res := get(t, h, "GET", name)
		doc := body(t, res)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %s", name, res.Status)
		}
		for _, w := range want {
			if w.value != "" && strings.Contains(doc, w.value) {
				t.Errorf("%s holds the dropped value %q", name, w.value)
			}
		}
		if strings.Contains(doc, "<url><loc>https://www.example.com/p/") && !strings.Contains(doc, "<image:loc>https://cdn.example.com/") {
			t.Errorf("%s: the good rows lost their images", name)
		}
	}
	if total != rows {
		t.Errorf("%d entries served, want all %d rows", total, rows)
	}
	got := d.distinct()
	if len(got) != len(want) {
		t.Fatalf("told %d drops, want %d:\n%v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if fmt.Sprint(g.key) != fmt.Sprint(w.key) || g.loc != w.loc || g.field != w.field || g.rule != w.rule || g.value != w.value || !strings.Contains(g.msg, w.msg) {
			t.Errorf("drop %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestSQLiteForgivingExt: one row whose ext is not JSON among 1,000 good
// ones: every row is served (the bad one without its extensions), and the
// one problem is told with its rule, SRC-06. Before, its whole page
// answered 503 with the row and the parser's error in the body, and a
// Refresh (serve's start) failed.
func TestSQLiteForgivingExt(t *testing.T) {
	db := openSQLite(t)
	forgivingTable(t, db, false, 1000, [3]string{"'2026-11-05'", "0.3", `'{"images": [oops'`})
	checkForgiving(t, db, 1001, []droppedValue{
		{int64(1001), "https://www.example.com/bad/0", "ext", "SRC-06", `{"images": [oops`, "is not a JSON object of extension fields"},
	})
}

// TestSQLiteForgivingValues: a lastmod that is no date, a priority that is
// no number, an ext that is JSON but no object, and an ext object with one
// image and one video that do not fit: each costs that value only, told
// with its rule (M-01, P-01, SRC-06, IM-01, V-01), the long value cut.
func TestSQLiteForgivingValues(t *testing.T) {
	db := openSQLite(t)
	long := strings.Repeat("x", 5000)
	forgivingTable(t, db, false, 50,
		[3]string{"'n/a'", "'high'", "NULL"},
		[3]string{"'" + long + "'", "NULL", `'[1, 2]'`},
		[3]string{"'2026-11-05'", "'0.2'", `'{"images":[{"loc":"https://cdn.example.com/ok.jpg"},{"loc":5}],"videos":"none","news":null}'`},
	)
	checkForgiving(t, db, 53, []droppedValue{
		{int64(51), "https://www.example.com/bad/0", "lastmod", "M-01", "n/a", "is not a date"},
		{int64(51), "https://www.example.com/bad/0", "priority", "P-01", "high", "is not a number"},
		{int64(52), "https://www.example.com/bad/1", "lastmod", "M-01", long[:maxDroppedValue] + "…", "is not a date"},
		{int64(52), "https://www.example.com/bad/1", "ext", "SRC-06", "[1, 2]", "it is a JSON array"},
		{int64(53), "https://www.example.com/bad/2", "images[1]", "IM-01", "", "images[1].loc is a JSON number"},
		{int64(53), "https://www.example.com/bad/2", "videos", "V-01", "", "videos is a JSON string"},
	})
	// The image that fits is kept.
	src, _ := SQL(context.Background(), db, Query{Table: "pages", Key: "id"})
	var u *sitemap.URL
	src.Entries(context.Background(), int64(52), int64(53), func(_ Key, e *sitemap.URL) error { c := *e; u = &c; return nil })
	if u == nil || len(u.Images) != 1 || u.Images[0].Loc != "https://cdn.example.com/ok.jpg" || u.LastMod.String() != "2026-11-05" || u.Priority == nil || *u.Priority != 0.2 {
		t.Errorf("row 53: %+v", u)
	}
}

// TestPostgresForgivingRows: the same on PostgreSQL, with a jsonb ext
// column (a JSON array in it) and a text lastmod that is no date.
func TestPostgresForgivingRows(t *testing.T) {
	db := openPostgres(t)
	forgivingTable(t, db, true, 1000, [3]string{"'soon'", "'n/a'", `'{"images": [oops'`})
	checkForgiving(t, db, 1001, []droppedValue{
		{int64(1001), "https://www.example.com/bad/0", "lastmod", "M-01", "soon", "is not a date"},
		{int64(1001), "https://www.example.com/bad/0", "priority", "P-01", "n/a", "is not a number"},
		{int64(1001), "https://www.example.com/bad/0", "ext", "SRC-06", `{"images": [oops`, "is not a JSON object"},
	})
	exec(t, db, `CREATE TABLE docs (url text PRIMARY KEY, ext jsonb)`)
	exec(t, db, `INSERT INTO docs VALUES ('https://www.example.com/a', '[{"loc": "https://cdn.example.com/a.jpg"}]'), ('https://www.example.com/b', '{"alternates": [{"hreflang": "de", "href": "https://www.example.com/de/b"}]}')`)
	d := &droppedValues{}
	src, err := SQL(context.Background(), db, Query{Table: "docs", Dropped: d.hook})
	if err != nil {
		t.Fatal(err)
	}
	doc := servePage(t, src)
	if strings.Count(doc, "<url>") != 2 || !strings.Contains(doc, `hreflang="de"`) {
		t.Errorf("page:\n%s", doc)
	}
	if got := d.distinct(); len(got) != 1 || got[0].rule != "SRC-06" || got[0].loc != "https://www.example.com/a" {
		t.Errorf("drops: %+v", got)
	}
}

// TestSQLiteMediaWikiTouched: MediaWiki's timestamps (page_touched,
// YYYYMMDDHHMMSS in a BLOB on SQLite) are read as UTC dates, and the
// column is found by its name; changefreq is read in any case.
func TestSQLiteMediaWikiTouched(t *testing.T) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE page (page_id INTEGER PRIMARY KEY, url TEXT, page_touched BLOB, changefreq TEXT)`)
	exec(t, db, `INSERT INTO page VALUES (1, 'https://www.example.com/wiki/A', CAST('20261102103000' AS BLOB), 'Weekly')`)
	d := &droppedValues{}
	src, err := SQL(context.Background(), db, Query{Table: "page", Key: "page_id", Dropped: d.hook})
	if err != nil {
		t.Fatal(err)
	}
	doc := servePage(t, src)
	if !strings.Contains(doc, "<lastmod>2026-11-02T10:30:00Z</lastmod><changefreq>weekly</changefreq>") {
		t.Errorf("page:\n%s", doc)
	}
	if got := d.distinct(); len(got) != 0 {
		t.Errorf("drops: %+v", got)
	}
}

// TestDropLogOncePerRow: a DropLog logs a value once per row key, field
// and value however often it is told, counts every time by rule, and past
// its bound counts without logging (one line says so).
func TestDropLogOncePerRow(t *testing.T) {
	var w bytes.Buffer
	l := NewDropLog(&w, 3)
	l.Prefix = "sitemap serve: "
	bad := func(v string) *sitemap.EntryError {
		return &sitemap.EntryError{Field: "lastmod", Rule: "M-01", Value: v, Message: "is not a date"}
	}
	for range 3 {
		l.Dropped(int64(7), "https://www.example.com/a", bad("n/a"))
		l.Dropped("https://www.example.com/b", "https://www.example.com/b", bad("n/a\x1b[31m"))
	}
	l.Dropped(int64(7), "https://www.example.com/a", bad("later")) // a new value of the same row
	want := `sitemap serve: https://www.example.com/a: warning M-01: lastmod "n/a" is not a date (row key 7)
sitemap serve: https://www.example.com/b: warning M-01: lastmod "n/a\x1b[31m" is not a date
sitemap serve: https://www.example.com/a: warning M-01: lastmod "later" is not a date (row key 7)
`
	if w.String() != want {
		t.Errorf("log:\n%s\nwant\n%s", w.String(), want)
	}
	w.Reset()
	for i := range 1000 {
		l.Dropped(int64(100+i), "https://www.example.com/c", &sitemap.EntryError{Field: "priority", Rule: "P-01", Value: "x", Message: "is not a number"})
	}
	l.EncoderDropped("https://www.example.com/d", "images[0]", &sitemap.EntryError{Field: "images[0].loc", Rule: "L-16", Value: "javascript:x", Message: "is not http"})
	if got := w.String(); got != "sitemap serve: more than 3 values were left out of rows; further ones are counted, not logged\n" {
		t.Errorf("past the bound:\n%s", got)
	}
	if len(l.seen) != 3 {
		t.Errorf("%d values remembered, want the bound 3", len(l.seen))
	}
	var m bytes.Buffer
	l.WriteMetrics(&m)
	for _, s := range []string{`sitemap_serve_dropped_values_total{rule="M-01"} 7`, `sitemap_serve_dropped_values_total{rule="P-01"} 1000`,
		`sitemap_serve_dropped_values_total{rule="L-16"} 1`, "sitemap_serve_dropped_values_logged_total 3"} {
		if !strings.Contains(m.String(), s+"\n") {
			t.Errorf("metrics lack %q:\n%s", s, m.String())
		}
	}
}
