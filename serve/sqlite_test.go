package serve

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	_ "modernc.org/sqlite"
)

// sqliteBackend is a table pages(url, updated_at) in a SQLite file.
var sqliteBackend = backend{name: "sqlite", open: func(t *testing.T, rows []row) (Source, func(...row)) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, updated_at TEXT, published INTEGER NOT NULL DEFAULT 1)`)
	// The rows of one call are one transaction: a commit a row made
	// 5,000 rows take minutes of fsyncs on a busy disk.
	insert := func(rs ...row) {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if _, err := tx.Exec(`INSERT INTO pages (url, updated_at) VALUES (?, ?)`, r.loc, r.lastmod.Format("2006-01-02 15:04:05")); err != nil {
				tx.Rollback()
				t.Fatalf("inserting %s: %v", r.loc, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	insert(rows...)
	src, err := SQL(context.Background(), db, Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		t.Fatal(err)
	}
	return src, insert
}}

func openSQLite(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "site.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestSQLite(t *testing.T) { testConformance(t, sqliteBackend) }

// The iterator source, over a slice the test grows.
func TestSeq(t *testing.T) {
	testConformance(t, backend{name: "seq", open: func(t *testing.T, rows []row) (Source, func(...row)) {
		var urls []sitemap.URL
		gen := 0
		add := func(rs ...row) {
			for _, r := range rs {
				urls = append(urls, sitemap.URL{Loc: r.loc, LastMod: sitemap.DateOf(r.lastmod)})
			}
			slices.SortFunc(urls, func(a, b sitemap.URL) int { return strings.Compare(a.Loc, b.Loc) })
			gen++
		}
		add(rows...)
		seq := func(yield func(*sitemap.URL, error) bool) {
			for i := range urls {
				u := urls[i]
				if !yield(&u, nil) {
					return
				}
			}
		}
		return Seq(seq, func(context.Context) (string, error) { return string(rune('a' + gen)), nil }), add
	}})
}

// A query, its columns by position, relative locs resolved against
// BaseURL, and the other fields mapped.
func TestSQLiteQuery(t *testing.T) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (path TEXT PRIMARY KEY, updated_at INTEGER, freq TEXT, prio REAL, ext TEXT, published INTEGER)`)
	exec(t, db, `INSERT INTO pages VALUES ('/b', 1790000000, 'daily', 0.8, '{"images":[{"loc":"https://cdn.example.com/b.jpg"}]}', 1), ('/a', NULL, NULL, NULL, NULL, 1), ('/hidden', NULL, NULL, NULL, NULL, 0)`)
	ctx := context.Background()
	src, err := SQL(ctx, db, Query{Query: `SELECT path, updated_at, freq, prio, ext FROM pages WHERE published = 1;`, Columns: Columns{ChangeFreq: "freq", Priority: "prio", Ext: "ext"}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	doc := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	want := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://www.example.com/a</loc></url>
<url><loc>https://www.example.com/b</loc><lastmod>2026-09-21T14:13:20Z</lastmod><changefreq>daily</changefreq><priority>0.8</priority><image:image><image:loc>https://cdn.example.com/b.jpg</image:loc></image:image></url>
</urlset>
`
	if doc != want {
		t.Errorf("page:\n%s\nwant\n%s", doc, want)
	}
	// The errors say what is wrong without the package's name: sitemap
	// generate --db reads through SQL too.
	for _, c := range []struct {
		q    Query
		want string
	}{
		{Query{Table: "pages", Columns: Columns{Loc: "url"}}, `table pages has no column "url"`},
		{Query{Table: "nosuch"}, `the database has no table "nosuch"`},
		{Query{Table: "pages"}, "table pages has no loc column"},
		{Query{}, "give a table or a query"},
	} {
		if _, err := SQL(ctx, db, c.q); err == nil {
			t.Errorf("%+v: no error", c.q)
		} else if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want it to begin %q", c.q, err, c.want)
		}
	}
}

// The change check runs at most once per Recheck: within it, a new row is
// not seen and no query reaches the database; pages are what was built.
// Just past it, a request is answered from the pages and starts the check;
// long past it, the request waits for the check.
func TestRecheck(t *testing.T) {
	src, insert := sqliteBackend.open(t, testRows(5))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	h.now = func() time.Time { return now }
	n := func() int { return len(locs(body(t, get(t, h, "GET", "/sitemap-1.xml")))) }
	if n() != 5 {
		t.Fatal("want 5 entries")
	}
	insert(row{"https://www.example.com/p/0041", now})
	etag := get(t, h, "HEAD", "/sitemap.xml").Header.Get("ETag")
	now = now.Add(30 * time.Minute)
	if get(t, h, "HEAD", "/sitemap.xml").Header.Get("ETag") != etag || n() != 5 {
		t.Error("the change check ran before Recheck elapsed")
	}
	now = now.Add(30*time.Minute + time.Second)
	// The request that finds the pages just stale is answered from them
	// and starts the check in the background.
	if get(t, h, "HEAD", "/sitemap.xml").Header.Get("ETag") != etag {
		t.Error("a request waited for the change check")
	}
	h.bg.Wait()
	if get(t, h, "HEAD", "/sitemap.xml").Header.Get("ETag") == etag {
		t.Error("the change check did not run after Recheck elapsed")
	}
	if n() != 6 {
		t.Error("want 6 entries")
	}
	insert(row{"https://www.example.com/p/0042", now})
	now = now.Add(2 * time.Hour)
	if n() != 7 {
		t.Error("a request long after Recheck was answered from pages older than the bound")
	}
}

// slowVersion is a source whose change check takes d and is counted.
type slowVersion struct {
	Source
	d      time.Duration
	checks atomic.Int32
}

func (s *slowVersion) Version(ctx context.Context) (string, error) {
	s.checks.Add(1)
	time.Sleep(s.d)
	return s.Source.Version(ctx)
}

// A slow change check stretches Recheck to 4 times its duration, so the
// checks never take more than a fifth of the source's time.
func TestRecheckSlowCheck(t *testing.T) {
	inner, _ := sqliteBackend.open(t, testRows(5))
	src := &slowVersion{Source: inner, d: 100 * time.Millisecond}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	h.now = func() time.Time { return now }
	get(t, h, "HEAD", "/sitemap.xml")
	if n := src.checks.Load(); n != 1 {
		t.Fatalf("%d checks at the first request, want 1", n)
	}
	// Past Recheck but within 4 times the 100 ms check: trusted.
	now = now.Add(300 * time.Millisecond)
	get(t, h, "HEAD", "/sitemap.xml")
	h.bg.Wait()
	if n := src.checks.Load(); n != 1 {
		t.Errorf("%d checks 300 ms after a 100 ms check, want 1", n)
	}
	now = now.Add(time.Minute)
	get(t, h, "HEAD", "/sitemap.xml")
	h.bg.Wait()
	if n := src.checks.Load(); n != 2 {
		t.Errorf("%d checks a minute later, want 2", n)
	}
}

// TestSQLiteTextLastmodNotADate: a text lastmod column holding a value
// that is no date ("n/a", which sorts above every "2026-…") costs only
// that row its lastmod: the index keeps the page's newest real date. The
// database's max() over the text had given "n/a", and the page no lastmod.
func TestSQLiteTextLastmodNotADate(t *testing.T) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL, updated_at TEXT)`)
	exec(t, db, `INSERT INTO pages (url, updated_at) VALUES ('https://www.example.com/a', '2026-03-04'), ('https://www.example.com/b', 'n/a'), ('https://www.example.com/c', '2026-01-02')`)
	src, err := SQL(context.Background(), db, Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	idx := body(t, get(t, h, "GET", "/sitemap.xml"))
	if !strings.Contains(idx, "<lastmod>2026-03-04</lastmod>") {
		t.Errorf("index:\n%s\nwant the page's lastmod 2026-03-04", idx)
	}
	page := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	if !strings.Contains(page, "<url><loc>https://www.example.com/b</loc></url>") || !strings.Contains(page, "<lastmod>2026-01-02</lastmod>") {
		t.Errorf("page:\n%s", page)
	}
}

// A column renamed while serving is an error of the check (told to
// CheckError, the pages built before kept), never its own name served as
// every row's loc: SQLite reads "url" as a string when no column has that
// name.
func TestSQLiteColumnRenamed(t *testing.T) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT UNIQUE, updated_at TEXT)`)
	exec(t, db, `INSERT INTO pages (url, updated_at) VALUES ('https://www.example.com/a', '2025-01-01'), ('https://www.example.com/b', '2025-01-02')`)
	src, err := SQL(context.Background(), db, Query{Table: "pages"})
	if err != nil {
		t.Fatal(err)
	}
	var told []error
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: -1, CheckError: func(err error) { told = append(told, err) }})
	if err != nil {
		t.Fatal(err)
	}
	before := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	exec(t, db, `ALTER TABLE pages RENAME COLUMN url TO link`)
	res := get(t, h, "GET", "/sitemap-1.xml")
	if b := body(t, res); res.StatusCode != 200 || b != before || strings.Contains(b, "/url<") {
		t.Errorf("after the rename: %s\n%s", res.Status, b)
	}
	if h.Err() == nil || len(told) != 1 || told[0] == nil {
		t.Errorf("the failed check: Err %v, told %v", h.Err(), told)
	}
	exec(t, db, `ALTER TABLE pages RENAME COLUMN link TO url`)
	get(t, h, "GET", "/sitemap-1.xml")
	if h.Err() != nil || len(told) != 2 || told[1] != nil {
		t.Errorf("after the column came back: Err %v, told %v", h.Err(), told)
	}
}

// A database file moved into the served one's place (build, then mv) is
// read at the next check.
func TestSQLiteFileReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "site.sqlite")
	create := func(p, loc string) {
		db, err := sql.Open("sqlite", p)
		if err != nil {
			t.Fatal(err)
		}
		exec(t, db, `CREATE TABLE pages (url TEXT PRIMARY KEY)`)
		exec(t, db, `INSERT INTO pages VALUES (?)`, loc)
		db.Close()
	}
	create(path, "https://www.example.com/old")
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	src, err := SQL(context.Background(), db, Query{Table: "pages", Columns: Columns{Loc: "url"}})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := locs(body(t, get(t, h, "GET", "/sitemap-1.xml"))); len(got) != 1 || got[0] != "https://www.example.com/old" {
		t.Fatalf("before: %v", got)
	}
	create(filepath.Join(dir, "new.sqlite"), "https://www.example.com/new")
	if err := os.Rename(filepath.Join(dir, "new.sqlite"), path); err != nil {
		t.Fatal(err)
	}
	if got := locs(body(t, get(t, h, "GET", "/sitemap-1.xml"))); len(got) != 1 || got[0] != "https://www.example.com/new" {
		t.Errorf("after the new file was moved into place: %v", got)
	}
}

// Locate on SQLite gives each key the number of page bounds below it, in
// the key column's collation (NOCASE here: "b" sorts between "A" and
// "C"), a key equal to a bound on that bound's page; with more bounds
// than a compound SELECT may have (500) and more keys and bounds than
// one statement may bind (32,766), against a model.
func TestSQLiteLocate(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (url TEXT COLLATE NOCASE PRIMARY KEY, n INTEGER UNIQUE)`)
	exec(t, db, `INSERT INTO pages VALUES ('A', 1), ('C', 3)`)
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "url", Columns: Columns{Loc: "url"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.Locate(ctx, []Key{"b", "D"}, []Key{"a", "B", "c", "d", "e", "E"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 1, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("NOCASE: Locate = %v, want %v", got, want)
	}

	src, err = SQL(ctx, db, Query{Table: "pages", Key: "n", Columns: Columns{Loc: "url"}})
	if err != nil {
		t.Fatal(err)
	}
	var uppers, keys []Key
	for i := range 20_000 {
		uppers = append(uppers, int64(10*i)) // page i holds (10(i-1), 10i]
	}
	var want []int
	for k := int64(-5); k < 200_100; k += 7 {
		keys = append(keys, k)
		want = append(want, min(int((k+9)/10), len(uppers)))
		if k < 0 {
			want[len(want)-1] = 0
		}
	}
	got, err = src.Locate(ctx, uppers, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("key %v: page %d, want %d (of %d keys)", keys[i], got[i], want[i], len(keys))
			}
		}
		t.Fatalf("Locate gave %d pages for %d keys", len(got), len(keys))
	}
}

// A loc column that is not unique, served without a unique --key: each
// URL is listed once (L-17 told to Skipped for the repeats), and the
// pages stay the same when read again after a change elsewhere, however
// the page boundaries fall among the repeats.
func TestSQLiteRepeatedKeyListedOnce(t *testing.T) {
	db := openSQLite(t)
	exec(t, db, `CREATE TABLE pages (url TEXT NOT NULL, updated_at TEXT)`)
	want := map[string]bool{}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		u := fmt.Sprintf("https://www.example.com/p%02d", i)
		want[u] = true
		for range 1 + i%3 {
			if _, err := tx.Exec(`INSERT INTO pages VALUES (?, '2026-01-01')`, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	src, err := SQL(context.Background(), db, Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 3, Recheck: -1, Skipped: func(loc string, err error) {
		if ee, ok := err.(*sitemap.EntryError); !ok || ee.Rule != rules.L17 {
			t.Errorf("%s skipped: %v", loc, err)
		}
		skipped = append(skipped, loc)
	}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		names, byName := pages(t, h)
		seen := map[string]bool{}
		for _, n := range names {
			for _, l := range byName[n] {
				if seen[l] {
					t.Errorf("%s: %s listed twice", when, l)
				}
				seen[l] = true
			}
		}
		if len(seen) != len(want) {
			t.Errorf("%s: %d URLs listed, want %d", when, len(seen), len(want))
		}
	}
	check("first build")
	if len(skipped) != 19 { // p01, p04, … once; p02, p05, … twice
		t.Errorf("%d repeats told, want 19: %v", len(skipped), skipped)
	}
	exec(t, db, `INSERT INTO pages VALUES ('https://www.example.com/p00a', '2026-02-01')`)
	want["https://www.example.com/p00a"] = true
	check("after an insert")
	exec(t, db, `UPDATE pages SET updated_at = '2026-03-01' WHERE url = 'https://www.example.com/p19'`)
	check("after an update")
}
