package serve

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/xmllint"
	"github.com/sitemapkit/sitemap/serve/pgfeed"
)

// modelRow is one row of the model table.
type modelRow struct {
	url     string
	lastmod int64 // Unix seconds; 0: NULL
	junk    bool  // the lastmod column holds a value that is no date
}

// modelDB is the table under test and the model it must equal: a table
// pages(id, url, updated_at) of SQLite or PostgreSQL, changed at random
// by every kind of write a site makes.
type modelDB struct {
	t       *testing.T
	db      *sql.DB
	pg      bool
	my      bool // MySQL or MariaDB
	rnd     *rand.Rand
	rows    map[int64]modelRow // by id
	nextID  int64
	urlSeq  int
	touched []Key // keys written since the last take (old and new)
	byID    bool  // the pages are cut by id, not by url
	// noTruncate empties the table with DELETE, not TRUNCATE (which
	// fires no trigger on MySQL: the change log feed sees it only at
	// its next check of every page).
	noTruncate bool
}

func (m *modelDB) q(s string) string {
	if !m.pg {
		return s
	}
	var b strings.Builder
	n := 0
	for _, c := range s {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (m *modelDB) exec(tx interface {
	Exec(string, ...any) (sql.Result, error)
}, s string, args ...any) {
	m.t.Helper()
	if _, err := tx.Exec(m.q(s), args...); err != nil {
		m.t.Fatalf("%s: %v", s, err)
	}
}

func (m *modelDB) create() {
	if m.my {
		m.exec(m.db, `CREATE TABLE pages (id bigint PRIMARY KEY, url varchar(255) NOT NULL UNIQUE, updated_at varchar(40))`)
		return
	}
	if m.pg {
		m.exec(m.db, `CREATE TABLE pages (id bigint PRIMARY KEY, url text NOT NULL UNIQUE, updated_at text)`)
	} else {
		m.exec(m.db, `CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, updated_at TEXT)`)
	}
}

func (m *modelDB) lastmodValue(r modelRow) any {
	if r.junk {
		return "n/a"
	}
	if r.lastmod == 0 {
		return nil
	}
	return time.Unix(r.lastmod, 0).UTC().Format("2006-01-02T15:04:05Z")
}

// key is the paging key of a row, as the source gives it.
func (m *modelDB) key(id int64, r modelRow) Key {
	if m.byID {
		return id
	}
	return r.url
}

func (m *modelDB) newURL() string {
	m.urlSeq++
	// Spread over the key space, so inserts land in every page.
	return fmt.Sprintf("https://www.example.com/p/%06d-%d", m.rnd.IntN(1000000), m.urlSeq)
}

func (m *modelDB) randomID() (int64, bool) {
	if len(m.rows) == 0 {
		return 0, false
	}
	ids := make([]int64, 0, len(m.rows))
	for id := range m.rows {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids[m.rnd.IntN(len(ids))], true
}

func (m *modelDB) insert(tx interface {
	Exec(string, ...any) (sql.Result, error)
}) {
	m.nextID++
	r := modelRow{url: m.newURL(), lastmod: 1790000000 + m.rnd.Int64N(1000000)}
	m.exec(tx, `INSERT INTO pages (id, url, updated_at) VALUES (?, ?, ?)`, m.nextID, r.url, m.lastmodValue(r))
	m.rows[m.nextID] = r
	m.touched = append(m.touched, m.key(m.nextID, r))
}

// step makes one random change and says what it was.
func (m *modelDB) step() string {
	k := m.rnd.IntN(100)
	if len(m.rows) > 120 && k < 25 {
		k += 12 // a delete instead of an insert: the table stays small
	}
	switch {
	case k < 25:
		n := 1 + m.rnd.IntN(5)
		for range n {
			m.insert(m.db)
		}
		return fmt.Sprintf("insert %d", n)
	case k < 37:
		id, ok := m.randomID()
		if !ok {
			return "nothing to delete"
		}
		m.touched = append(m.touched, m.key(id, m.rows[id]))
		m.exec(m.db, `DELETE FROM pages WHERE id = ?`, id)
		delete(m.rows, id)
		return "delete"
	case k < 55:
		// A rename keeps the row count and the newest lastmod: what a
		// count(*) and max(lastmod) check cannot see.
		id, ok := m.randomID()
		if !ok {
			return "nothing to rename"
		}
		r := m.rows[id]
		m.touched = append(m.touched, m.key(id, r))
		r.url = m.newURL()
		m.exec(m.db, `UPDATE pages SET url = ? WHERE id = ?`, r.url, id)
		m.rows[id] = r
		m.touched = append(m.touched, m.key(id, r))
		return "rename"
	case k < 70:
		id, ok := m.randomID()
		if !ok {
			return "nothing to date"
		}
		r := m.rows[id]
		switch m.rnd.IntN(4) {
		case 0:
			r.lastmod += 1 + m.rnd.Int64N(100000) // forwards
		case 1:
			r.lastmod -= 1 + m.rnd.Int64N(100000) // backwards
		case 2:
			r.lastmod, r.junk = 0, false
		default:
			r.junk = true
		}
		if r.lastmod != 0 && r.lastmod < 1700000000 {
			r.lastmod = 1700000000
		}
		if !r.junk && r.lastmod == 0 && m.rnd.IntN(2) == 0 {
			r.lastmod = 1790000000
		}
		if r.junk {
			r.lastmod = 0
		}
		m.exec(m.db, `UPDATE pages SET updated_at = ? WHERE id = ?`, m.lastmodValue(r), id)
		m.rows[id] = r
		m.touched = append(m.touched, m.key(id, r))
		return "lastmod"
	case k < 76:
		// The key itself changes (a new id for the same page).
		id, ok := m.randomID()
		if !ok {
			return "nothing to re-key"
		}
		r := m.rows[id]
		m.nextID++
		m.touched = append(m.touched, m.key(id, r), m.key(m.nextID, r))
		m.exec(m.db, `UPDATE pages SET id = ? WHERE id = ?`, m.nextID, id)
		delete(m.rows, id)
		m.rows[m.nextID] = r
		return "re-key"
	case k < 81:
		// Two rows swap their locs in one transaction.
		a, ok1 := m.randomID()
		b, ok2 := m.randomID()
		if !ok1 || !ok2 || a == b {
			return "nothing to swap"
		}
		ra, rb := m.rows[a], m.rows[b]
		tx, err := m.db.Begin()
		if err != nil {
			m.t.Fatal(err)
		}
		m.exec(tx, `UPDATE pages SET url = ? WHERE id = ?`, "swap", a)
		m.exec(tx, `UPDATE pages SET url = ? WHERE id = ?`, ra.url, b)
		m.exec(tx, `UPDATE pages SET url = ? WHERE id = ?`, rb.url, a)
		if err := tx.Commit(); err != nil {
			m.t.Fatal(err)
		}
		m.touched = append(m.touched, m.key(a, ra), m.key(b, rb))
		ra.url, rb.url = rb.url, ra.url
		m.rows[a], m.rows[b] = ra, rb
		m.touched = append(m.touched, m.key(a, ra), m.key(b, rb))
		return "swap"
	case k < 86:
		tx, err := m.db.Begin()
		if err != nil {
			m.t.Fatal(err)
		}
		n := 20 + m.rnd.IntN(60)
		for range n {
			m.insert(tx)
		}
		if err := tx.Commit(); err != nil {
			m.t.Fatal(err)
		}
		return fmt.Sprintf("bulk load %d", n)
	case k < 89:
		// Rows that come and go between two checks.
		tx, err := m.db.Begin()
		if err != nil {
			m.t.Fatal(err)
		}
		m.insert(tx)
		m.exec(tx, `DELETE FROM pages WHERE id = ?`, m.nextID)
		delete(m.rows, m.nextID)
		if err := tx.Commit(); err != nil {
			m.t.Fatal(err)
		}
		return "insert and delete"
	case k < 91:
		for id, r := range m.rows {
			m.touched = append(m.touched, m.key(id, r))
		}
		if (m.pg || m.my) && !m.noTruncate {
			m.exec(m.db, `TRUNCATE pages`)
		} else {
			m.exec(m.db, `DELETE FROM pages`)
		}
		clear(m.rows)
		return "truncate"
	case k < 92:
		for id, r := range m.rows {
			m.touched = append(m.touched, m.key(id, r))
		}
		m.exec(m.db, `DROP TABLE pages`)
		m.create()
		clear(m.rows)
		return "drop and create"
	default:
		// A write that changes nothing.
		id, ok := m.randomID()
		if !ok {
			return "nothing to touch"
		}
		m.exec(m.db, `UPDATE pages SET url = url WHERE id = ?`, id)
		return "no-op update"
	}
}

// seenDoc is what a client kept of one answer.
type seenDoc struct {
	etag, lastModified, sum string
}

// modelClient fetches the handler's documents as crawlers do and checks
// every answer against everything answered before: one ETag names one
// body, a 304 is only for the bytes the client has, Last-Modified moves
// forward when the bytes change.
type modelClient struct {
	t      *testing.T
	h      http.Handler
	rnd    *rand.Rand
	bodies map[string]string  // ETag → body hash, over the whole run
	last   map[string]seenDoc // by path and encoding
}

func (c *modelClient) fetch(path string) string {
	c.t.Helper()
	doc, ok := c.fetchMay(path, false)
	if !ok {
		c.t.Fatalf("%s: not found", path)
	}
	return doc
}

// fetchMay is fetch; with gone set, a 404 (a page emptied between the
// index and the page request, on a live server) returns false.
func (c *modelClient) fetchMay(path string, gone bool) (string, bool) {
	c.t.Helper()
	gz := c.rnd.IntN(2) == 0
	hdr := []string{}
	if gz {
		hdr = append(hdr, "Accept-Encoding", "gzip")
	}
	key := path + "|" + strconv.FormatBool(gz)
	prev, had := c.last[key]
	res := get(c.t, c.h, "GET", path, hdr...)
	if gone && res.StatusCode == 404 {
		return "", false
	}
	if res.StatusCode != 200 {
		c.t.Fatalf("%s: %s %s", path, res.Status, body(c.t, res))
	}
	b := body(c.t, res)
	doc := b
	if gz {
		doc = gunzip(c.t, b)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(b)))
	etag, lm := res.Header.Get("ETag"), res.Header.Get("Last-Modified")
	if s, ok := c.bodies[etag]; ok && s != sum {
		c.t.Fatalf("%s: ETag %s names two different bodies", path, etag)
	}
	c.bodies[etag] = sum
	if had && c.rnd.IntN(4) == 0 {
		// The client revalidates what it has: a 304 only for the same
		// bytes; If-Modified-Since alone never hides changed bytes.
		r2 := get(c.t, c.h, "GET", path, append(hdr, "If-None-Match", prev.etag)...)
		if r2.StatusCode == 304 && prev.sum != sum {
			c.t.Fatalf("%s: 304 for %s, whose bytes changed", path, prev.etag)
		}
		r3 := get(c.t, c.h, "GET", path, append(hdr, "If-Modified-Since", prev.lastModified)...)
		if r3.StatusCode == 304 && prev.sum != sum {
			c.t.Fatalf("%s: 304 for If-Modified-Since %s, the bytes changed (Last-Modified now %s)", path, prev.lastModified, lm)
		}
		if prev.sum != sum {
			t1, _ := http.ParseTime(prev.lastModified)
			t2, _ := http.ParseTime(lm)
			if !t2.After(t1) {
				c.t.Fatalf("%s: the bytes changed and Last-Modified went from %s to %s", path, prev.lastModified, lm)
			}
		}
	}
	c.last[key] = seenDoc{etag, lm, sum}
	return doc, true
}

// check fetches the index and every page and compares them with the
// model: the union of the pages is the table's rows, each once; every page
// holds at most perPage entries; the index gives each page the newest
// lastmod of its entries.
func (c *modelClient) check(m *modelDB, perPage int, validate bool) map[string]int64 {
	c.t.Helper()
	want := map[string]int64{}
	for _, r := range m.rows {
		want[r.url] = r.lastmod
	}
	if len(want) == 0 {
		if res := get(c.t, c.h, "GET", "/sitemap.xml"); res.StatusCode != 404 {
			c.t.Fatalf("an empty table's index: %s", res.Status)
		}
		return want
	}
	idx := c.fetch("/sitemap.xml")
	var files []string // the pages, to validate in one xmllint run
	dir := ""
	if validate {
		xmllint.ValidateBytes(c.t, []byte(idx), xmllint.SiteIndex)
		dir = c.t.TempDir()
		defer func() { xmllint.ValidateFiles(c.t, xmllint.Sitemap, files...) }()
	}
	dec := sitemap.NewDecoder(strings.NewReader(idx), sitemap.DecoderOptions{})
	got := map[string]int64{}
	for {
		it, err := dec.Next()
		if err != nil {
			break
		}
		name := it.Index.Loc[strings.LastIndexByte(it.Index.Loc, '/'):]
		doc := c.fetch(name)
		if validate {
			f := filepath.Join(dir, name[1:])
			if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
				c.t.Fatal(err)
			}
			files = append(files, f)
		}
		var newest time.Time
		n := 0
		pd := sitemap.NewDecoder(strings.NewReader(doc), sitemap.DecoderOptions{})
		for {
			pit, err := pd.Next()
			if err != nil {
				break
			}
			n++
			u := pit.URL
			if _, dup := got[u.Loc]; dup {
				c.t.Fatalf("%s lists %s, listed already", name, u.Loc)
			}
			got[u.Loc] = 0
			if !u.LastMod.IsZero() {
				got[u.Loc] = u.LastMod.Time.Unix()
				if u.LastMod.Time.After(newest) {
					newest = u.LastMod.Time
				}
			}
		}
		if n == 0 || n > perPage {
			c.t.Fatalf("%s lists %d entries (most %d)", name, n, perPage)
		}
		if il := it.Index.LastMod; il.IsZero() != newest.IsZero() || !il.IsZero() && !il.Time.Equal(newest) {
			c.t.Fatalf("the index gives %s lastmod %v; its newest entry has %v", name, il, newest)
		}
	}
	if len(got) != len(want) {
		c.t.Fatalf("the pages list %d URLs, the table has %d", len(got), len(want))
	}
	for u, lm := range want {
		g, ok := got[u]
		if !ok {
			c.t.Fatalf("%s is in the table and in no page", u)
		}
		if g != lm {
			c.t.Fatalf("%s: lastmod %d served, %d in the table", u, g, lm)
		}
	}
	return got
}

// runModel makes steps random changes to the table of m, each followed by
// a check of everything served against the model.
func runModel(t *testing.T, m *modelDB, steps int, watched bool) {
	ctx := context.Background()
	m.create()
	for range 40 {
		m.insert(m.db)
	}
	q := Query{Table: "pages", Columns: Columns{Loc: "url", LastMod: "updated_at"}}
	if m.byID {
		q.Key = "id"
	}
	sqlSrc, err := SQL(ctx, m.db, q)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlSrc.Close() })
	var src Source = sqlSrc
	// Requests never check: each step is followed by one check, as Run
	// makes after a change.
	o := Options{BaseURL: "https://www.example.com/", PerPage: 7, Recheck: time.Hour}
	if watched {
		// The keys each step touched are pushed as a feed would, and only
		// the pages holding them are read.
		src = Watched(sqlSrc, func(ctx context.Context, fn func(Change)) error { <-ctx.Done(); return ctx.Err() })
	}
	// Options.Changed must tell every entry added or changed, and no
	// entry removed.
	changed := map[string]int64{}
	o.Changed = func(urls []sitemap.URL) {
		for _, u := range urls {
			changed[u.Loc] = 0
			if !u.LastMod.IsZero() {
				changed[u.Loc] = u.LastMod.Time.Unix()
			}
		}
	}
	h, err := NewHandler(src, o)
	if err != nil {
		t.Fatal(err)
	}
	// A clock a step moves on by more than Recheck, so each step's check
	// is due (and asks Version: data_version on SQLite).
	clock := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	h.now = func() time.Time { return clock }
	if err := h.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	st := h.allSites()[0]
	c := &modelClient{t: t, h: h, rnd: m.rnd, bodies: map[string]string{}, last: map[string]seenDoc{}}
	m.touched = nil
	served := c.check(m, o.PerPage, true)
	if len(changed) != 0 {
		t.Fatalf("the first build told Changed %d entries", len(changed))
	}
	n := 0
	if err := h.Entries()(ctx, func(u *sitemap.URL) error {
		if _, ok := served[u.Loc]; !ok {
			t.Errorf("Entries gives %s, not served", u.Loc)
		}
		n++
		return nil
	}); err != nil || n != len(served) {
		t.Fatalf("Entries gave %d of %d entries, %v", n, len(served), err)
	}
	for i := range steps {
		clear(changed)
		what := m.step()
		clock = clock.Add(2 * time.Hour)
		keys := m.touched
		m.touched = nil
		all := !watched || strings.HasPrefix(what, "drop") || strings.HasPrefix(what, "truncate")
		if _, err := st.update(ctx, all, watched && all, keys); err != nil {
			t.Fatalf("step %d (%s): %v", i, what, err)
		}
		now := c.check(m, o.PerPage, i%100 == 0)
		for u, lm := range now {
			if old, had := served[u]; !had || old != lm {
				if g, told := changed[u]; !told || g != lm {
					t.Fatalf("step %d (%s): %s added or changed, and not told to Changed", i, what, u)
				}
			}
		}
		for u := range changed {
			if _, ok := now[u]; !ok {
				t.Fatalf("step %d (%s): %s told to Changed, and not served", i, what, u)
			}
		}
		served = now
		if t.Failed() {
			t.Fatalf("after step %d (%s)", i, what)
		}
	}
}

// modelSteps is the number of random steps of each model test: a few
// hundred in -short mode, thousands otherwise (SITEMAP_MODEL_STEPS sets
// it).
func modelSteps(t *testing.T, full int) int {
	if s := os.Getenv("SITEMAP_MODEL_STEPS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if testing.Short() {
		return full / 10
	}
	return full
}

// The model test on SQLite: every page served equals a fresh build from
// the table's committed rows after every kind of change (a check of
// every page, behind data_version; and, watched, only the pages holding
// the keys written).
func TestModelSQLite(t *testing.T) {
	for _, c := range []struct {
		name          string
		byID, watched bool
	}{{"by url", false, false}, {"by id", true, false}, {"by url, watched", false, true}, {"by id, watched", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			// No fsync per commit: the test is about what is served, and
			// a commit still moves data_version.
			db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "site.sqlite")+"?_pragma=synchronous(off)&_pragma=journal_mode(wal)")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			m := &modelDB{t: t, db: db, rnd: rand.New(rand.NewPCG(seed, 1)), rows: map[int64]modelRow{}, byID: c.byID}
			runModel(t, m, modelSteps(t, 300), c.watched)
		})
	}
}

// The same on PostgreSQL.
func TestModelPostgres(t *testing.T) {
	for _, c := range []struct {
		name          string
		byID, watched bool
	}{{"by url", false, false}, {"by id, watched", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			db := openPostgres(t)
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			m := &modelDB{t: t, db: db, pg: true, rnd: rand.New(rand.NewPCG(seed, 2)), rows: map[int64]modelRow{}, byID: c.byID}
			runModel(t, m, modelSteps(t, 300), c.watched)
		})
	}
}

// served fetches every document as check does (every answer checked
// against those before) and reports whether the pages list exactly the
// table's rows with their lastmods; it does not fail the test on a
// difference.
func (c *modelClient) matches(m *modelDB) bool {
	c.t.Helper()
	want := map[string]int64{}
	for _, r := range m.rows {
		want[r.url] = r.lastmod
	}
	res := get(c.t, c.h, "GET", "/sitemap.xml")
	if res.StatusCode == 404 {
		return len(want) == 0
	}
	idx, ok := c.fetchMay("/sitemap.xml", true)
	if !ok {
		return len(want) == 0
	}
	got := map[string]int64{}
	for _, l := range locs(idx) {
		doc, ok := c.fetchMay(l[strings.LastIndexByte(l, '/'):], true)
		if !ok {
			return false // the pages changed meanwhile: look again
		}
		pd := sitemap.NewDecoder(strings.NewReader(doc), sitemap.DecoderOptions{})
		for {
			it, err := pd.Next()
			if err != nil {
				break
			}
			got[it.URL.Loc] = 0
			if !it.URL.LastMod.IsZero() {
				got[it.URL.Loc] = it.URL.LastMod.Time.Unix()
			}
		}
	}
	if len(got) != len(want) {
		return false
	}
	for u, lm := range want {
		if g, ok := got[u]; !ok || g != lm {
			return false
		}
	}
	return true
}

// The model test through PostgreSQL's own change feed (logical decoding,
// serve/pgfeed) and Run, as sitemap serve --feed logical runs: after each
// random change, the pages equal the table within the bound (5 seconds),
// every answer meanwhile checked against those before it.
func TestModelPostgresFeed(t *testing.T) {
	db, dsn := openPostgresDSN(t)
	exec(t, db, `ALTER DATABASE `+pgDatabase(t, db)+` SET synchronous_commit = on`)
	db.Close()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	m := &modelDB{t: t, db: db, pg: true, rnd: rand.New(rand.NewPCG(seed, 3)), rows: map[int64]modelRow{}, byID: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.create()
	for range 40 {
		m.insert(m.db)
	}
	sqlSrc, err := SQL(ctx, db, Query{Table: "pages", Key: "id", Columns: Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		t.Fatal(err)
	}
	src := Watched(sqlSrc, func(ctx context.Context, fn func(Change)) error {
		return pgfeed.Watch(ctx, pgfeed.Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}, func(c pgfeed.Change) {
			keys := make([]Key, len(c.Keys))
			for i, k := range c.Keys {
				keys[i] = k
			}
			fn(Change{Keys: keys, All: c.All})
		})
	})
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 7, Recheck: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	c := &modelClient{t: t, h: h, rnd: m.rnd, bodies: map[string]string{}, last: map[string]seenDoc{}}
	var worst time.Duration
	for i := range modelSteps(t, 150) {
		what := m.step()
		start := time.Now()
		for !c.matches(m) {
			if time.Since(start) > 20*time.Second {
				c.check(m, 7, false) // says what differs
				t.Fatalf("step %d (%s): the pages still differ from the table 20 s after the commit", i, what)
			}
			time.Sleep(10 * time.Millisecond)
		}
		worst = max(worst, time.Since(start))
	}
	c.check(m, 7, true)
	t.Logf("the pages equalled the table at most %s after a commit", worst)
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run returned %v", err)
	}
}

// pgDatabase is the name of db's database, quoted.
func pgDatabase(t *testing.T, db *sql.DB) string {
	var name string
	if err := db.QueryRow(`SELECT quote_ident(current_database())`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}
