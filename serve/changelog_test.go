package serve

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/mariatest"
)

// counted is a source whose page reads are counted.
type counted struct {
	Source
	reads atomic.Int64
}

func (c *counted) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	c.reads.Add(1)
	return c.Source.Entries(ctx, after, upto, fn)
}

func (c *counted) Watch(ctx context.Context, fn func(Change)) error {
	return c.Source.(Watcher).Watch(ctx, fn)
}

func (c *counted) Locate(ctx context.Context, uppers, keys []Key) ([]int, error) {
	return c.Source.(Locator).Locate(ctx, uppers, keys)
}

func openSQLiteFile(t testing.TB) (*sql.DB, string) {
	path := filepath.Join(t.TempDir(), "site.sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(off)&_pragma=journal_mode(wal)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// The model test through the change log of InstallTriggers and Run, as
// sitemap serve runs a SQLite table with the triggers: after each random
// change (a rename, a re-key, a truncate, a dropped and created table, a
// bulk load…), the pages equal the table within the bound (5 seconds),
// every answer meanwhile checked against those before it.
func TestModelSQLiteTrigger(t *testing.T) {
	for _, byID := range []bool{false, true} {
		t.Run("byID="+strconv.FormatBool(byID), func(t *testing.T) {
			db, _ := openSQLiteFile(t)
			runModelTrigger(t, &modelDB{t: t, db: db, byID: byID}, 100)
		})
	}
}

// The same on MariaDB, through the same change log (MySQL's triggers,
// the log polled by its newest seq). TRUNCATE fires no trigger there:
// the model empties the table with DELETE (TestMySQLTriggerTruncate).
func TestModelMySQLTrigger(t *testing.T) {
	for _, byID := range []bool{false, true} {
		t.Run("byID="+strconv.FormatBool(byID), func(t *testing.T) {
			runModelTrigger(t, &modelDB{t: t, db: openMySQL(t), my: true, noTruncate: true, byID: byID}, 50)
		})
	}
}

// runModelTrigger runs steps random changes of m's table through the
// change log feed, each in the pages within 5 seconds.
func runModelTrigger(t *testing.T, m *modelDB, steps int) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	m.rnd, m.rows = rand.New(rand.NewPCG(seed, 4)), map[int64]modelRow{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
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
	defer sqlSrc.Close()
	if err := InstallTriggers(ctx, m.db, sqlSrc.ChangeTables()...); err != nil {
		t.Fatal(err)
	}
	o := Options{BaseURL: "https://www.example.com/", PerPage: 7, Recheck: time.Second}
	o.FeedError = func(err error) { t.Errorf("the feed failed: %v", err) }
	h, err := NewHandler(WatchChanges(sqlSrc, &ChangeFeed{Poll: 20 * time.Millisecond}), o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	c := &modelClient{t: t, h: h, rnd: m.rnd, bodies: map[string]string{}, last: map[string]seenDoc{}}
	var worst time.Duration
	for i := range modelSteps(t, steps) {
		what := m.step()
		start := time.Now()
		for !c.matches(m) {
			if time.Since(start) > 20*time.Second {
				c.check(m, 7, false) // says what differs
				t.Fatalf("step %d (%s): the pages still differ from the table 20 s after the commit", i, what)
			}
			time.Sleep(5 * time.Millisecond)
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

// bigSQLite is a table pages(id, url, updated_at) of n rows.
func bigSQLite(t testing.TB, db *sql.DB, n int) {
	for _, q := range []string{
		`CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, updated_at TEXT)`,
		`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ` + strconv.Itoa(n) + `)
		 INSERT INTO pages SELECT i, printf('https://www.example.com/p/%08d', i), '2026-01-01T00:00:00Z' FROM c`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// With the triggers, a commit to a large table shows within the bound
// and only the pages it touched are read: an UPDATE of one row's lastmod
// reads one page, a rename (the key column is id) one, a re-key two.
// 20,000 rows (SITEMAP_ROWS=1000000 for a million).
func TestSQLiteTriggerReadsTouchedPages(t *testing.T) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("SITEMAP_ROWS")); err == nil && v > 20_000 {
		n = v
	}
	db, _ := openSQLiteFile(t)
	bigSQLite(t, db, n)
	readsTouchedPages(t, db, Query{Table: "pages", Key: "id", Columns: Columns{Loc: "url", LastMod: "updated_at"}}, n, []touchCase{
		{`UPDATE pages SET updated_at = '2026-06-01T00:00:00Z' WHERE id = 4242`, "https://www.example.com/p/00004242", "2026-06-01T00:00:00Z", false, 1, false},
		{`UPDATE pages SET url = 'https://www.example.com/renamed' WHERE id = 777`, "https://www.example.com/renamed", "", false, 1, false},
		{`UPDATE pages SET id = 99000000 WHERE id = 12`, "https://www.example.com/p/00000012", "", true, 2, false},
		{`INSERT INTO pages VALUES (0, 'https://www.example.com/new', NULL)`, "https://www.example.com/new", "", false, 1, false},
	})
}

// touchCase is a write and what it must show: loc served (with lastmod
// when not empty; the last entry when last is set) after reads page reads.
type touchCase struct {
	q, loc, lastmod string
	last            bool
	reads           int64
	gone            bool // loc must no longer be served
}

// readsTouchedPages serves q of db (its tables with the triggers
// installed now) through WatchChanges and runs the cases.
func readsTouchedPages(t *testing.T, db *sql.DB, q Query, rows int, cases []touchCase) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sqlSrc, err := SQL(ctx, db, q)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlSrc.Close()
	if err := InstallTriggers(ctx, db, sqlSrc.ChangeTables()...); err != nil {
		t.Fatal(err)
	}
	src := &counted{Source: WatchChanges(sqlSrc, &ChangeFeed{})}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	// The first build, and the check of every page the feed asks at
	// start (two refreshes): until they are done and the reads stop. (The
	// reads alone could pause longer than a poll before the check began
	// on a busy machine, and the check was counted as the first change's.)
	deadline := time.Now().Add(2 * time.Minute)
	for prev := int64(-1); prev != src.reads.Load() || h.Pages() == 0 || h.stats.refreshes.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("the pages were not built: %d reads", src.reads.Load())
		}
		prev = src.reads.Load()
		time.Sleep(500 * time.Millisecond)
	}
	pages := h.Pages()
	// served reports whether loc is served with lastmod (when not
	// empty), and is the last entry when last is set: the pages' bytes
	// searched as served, not decoded (a decode of every entry at each
	// look would take the CPU the change needs, under -race).
	served := func(loc, lastmod string, last bool) bool {
		res := get(t, h, "GET", "/sitemap.xml")
		if res.StatusCode != 200 {
			return false
		}
		want := "<loc>" + loc + "</loc>"
		if lastmod != "" {
			want += "<lastmod>" + lastmod + "</lastmod>"
		}
		pages := locs(body(t, res))
		for i, p := range pages {
			doc := body(t, get(t, h, "GET", p[strings.LastIndexByte(p, '/'):]))
			if strings.Contains(doc, want) {
				return !last || i == len(pages)-1 && strings.LastIndex(doc, "<loc>") == strings.Index(doc, want)
			}
		}
		return false
	}
	for _, c := range cases {
		before := src.reads.Load()
		start := time.Now()
		if _, err := db.Exec(c.q); err != nil {
			t.Fatal(err)
		}
		for served(c.loc, c.lastmod, c.last) == c.gone {
			if time.Since(start) > 20*time.Second {
				t.Fatalf("%s: not served 20 s after the commit", c.q)
			}
			time.Sleep(20 * time.Millisecond)
		}
		took := time.Since(start)
		time.Sleep(300 * time.Millisecond)
		if got := src.reads.Load() - before; got != c.reads {
			t.Errorf("%s: %d pages read, want %d (of %d)", c.q, got, c.reads, pages)
		}
		t.Logf("%d rows, %d pages: %s: served after %s", rows, pages, c.q, took.Round(time.Millisecond))
	}
}

// A program serves a SQLite table and reads only the pages each commit
// touched: the triggers are installed once (they stay in the database
// until RemoveTriggers), and the source watches their change log. The
// same runs on MySQL and MariaDB.
func ExampleWatchChanges() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "site.sqlite"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT)`)
	db.Exec(`INSERT INTO pages VALUES ('https://www.example.com/', '2026-01-01')`)
	src, err := SQL(ctx, db, Query{Table: "pages"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	if err := InstallTriggers(ctx, db, src.ChangeTables()...); err != nil {
		fmt.Println(err)
		return
	}
	ok, _ := TriggersInstalled(ctx, db, "pages")
	fmt.Println("triggers installed:", ok)
	h, err := NewHandler(WatchChanges(src, &ChangeFeed{}), Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	runCtx, stop := context.WithTimeout(ctx, 100*time.Millisecond)
	defer stop()
	h.Run(runCtx) // in a program: go h.Run(ctx), and serve h
	if err := RemoveTriggers(ctx, db, "pages"); err != nil {
		fmt.Println(err)
		return
	}
	ok, _ = TriggersInstalled(ctx, db, "pages")
	fmt.Println("triggers installed:", ok)
	// Output:
	// triggers installed: true
	// triggers installed: false
}

// wpPosts makes a table shaped as WordPress's wp_posts (its columns and
// indexes as WordPress 6.1 creates them, the text columns left out) with n
// published posts, in one INSERT … SELECT.
func wpPosts(t testing.TB, db *sql.DB, n int) {
	exec(t, db, "CREATE TABLE wp_posts (ID bigint(20) unsigned NOT NULL AUTO_INCREMENT, post_author bigint(20) unsigned NOT NULL DEFAULT 0, "+
		"post_date_gmt datetime NOT NULL DEFAULT '0000-00-00 00:00:00', post_title text NOT NULL, post_status varchar(20) NOT NULL DEFAULT 'publish', "+
		"post_name varchar(200) NOT NULL DEFAULT '', post_modified_gmt datetime NOT NULL DEFAULT '0000-00-00 00:00:00', post_parent bigint(20) unsigned NOT NULL DEFAULT 0, "+
		"post_type varchar(20) NOT NULL DEFAULT 'post', PRIMARY KEY (ID), KEY post_name (post_name(191)), KEY type_status_date (post_type, post_status, post_date_gmt, ID), "+
		"KEY post_parent (post_parent), KEY post_author (post_author)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci")
	digits := "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
	exec(t, db, "INSERT INTO wp_posts (ID, post_date_gmt, post_title, post_name, post_modified_gmt) "+
		"SELECT i, '2026-01-01 00:00:00', CONCAT('Post ', i), CONCAT('post-', i), '2026-01-01 00:00:00' FROM "+
		"(SELECT 1 + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 100000 * g.d AS i FROM "+
		digits+" a, "+digits+" b, "+digits+" c, "+digits+" e, "+digits+" f, "+digits+" g) AS s WHERE i <= ?", n)
}

// wpQuery is a WordPress-shaped query (the posts at /%postname%/) with
// the change table of the preset's posts.
var wpQuery = Query{Query: "SELECT ID AS id, CONCAT('https://www.example.com/', post_name, '/') AS loc, post_modified_gmt AS lastmod FROM wp_posts " +
	"WHERE post_status = 'publish' AND post_type IN ('post', 'page')", Key: "id", Columns: Columns{Loc: "loc", LastMod: "lastmod"},
	Changes: []ChangeTable{{Table: "wp_posts", Key: "ID"}}}

// On MariaDB, with the triggers on a WordPress-shaped wp_posts of
// 100,000 posts served through a query, a commit shows within the bound
// and only the pages it touched are read: an edit, a rename, an
// unpublished post and a new one (ID 0: the next AUTO_INCREMENT, at the
// end) each read one page.
func TestMySQLTriggerReadsTouchedPages(t *testing.T) {
	db := openMySQL(t)
	n := 100_000
	wpPosts(t, db, n)
	readsTouchedPages(t, db, wpQuery, n, []touchCase{
		{`UPDATE wp_posts SET post_modified_gmt = '2026-06-01 00:00:00' WHERE ID = 4242`, "https://www.example.com/post-4242/", "2026-06-01T00:00:00Z", false, 1, false},
		{`UPDATE wp_posts SET post_name = 'renamed' WHERE ID = 777`, "https://www.example.com/renamed/", "", false, 1, false},
		{`UPDATE wp_posts SET post_status = 'draft' WHERE ID = 50000`, "https://www.example.com/post-50000/", "", false, 1, true},
		{`INSERT INTO wp_posts (ID, post_title, post_name, post_modified_gmt) VALUES (0, 'New', 'new', '2026-07-01 00:00:00')`, "https://www.example.com/new/", "", false, 1, false},
	})
}

// On MySQL the triggers keep what the writers see: the insert id a CMS
// reads after its INSERT is its own row's, not the change log's; the log
// keeps about ChangeLogRows rows; RemoveTriggers leaves no trigger and no
// log. TRUNCATE fires no trigger: ChangeFeed.Full's check of every page
// serves it.
func TestMySQLTriggers(t *testing.T) {
	db := openMySQL(t)
	ctx := context.Background()
	exec(t, db, "CREATE TABLE pages (id bigint AUTO_INCREMENT PRIMARY KEY, url varchar(200) NOT NULL)")
	exec(t, db, "INSERT INTO pages (url) VALUES ('https://www.example.com/a')")
	if err := InstallTriggers(ctx, db, ChangeTable{Table: "pages", Key: "id"}); err != nil {
		t.Fatal(err)
	}
	// The log's seq runs ahead of the table's id.
	exec(t, db, "ALTER TABLE "+ChangeLog+" AUTO_INCREMENT = 5000")
	res, err := db.Exec("INSERT INTO pages (url) VALUES ('https://www.example.com/b')")
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := res.LastInsertId(); id != 2 {
		t.Errorf("the INSERT's insert id is %d, want 2 (the table's, not the log's)", id)
	}
	var lid int64
	c, _ := db.Conn(ctx)
	c.ExecContext(ctx, "INSERT INTO pages (url) VALUES ('https://www.example.com/c')")
	c.QueryRowContext(ctx, "SELECT LAST_INSERT_ID()").Scan(&lid)
	c.Close()
	if lid != 3 {
		t.Errorf("LAST_INSERT_ID() after the INSERT is %d, want 3", lid)
	}
	// Pruning: at every 1,000th log row, the rows more than
	// ChangeLogRows behind go.
	exec(t, db, "INSERT INTO "+ChangeLog+" (seq, tbl, `key`) VALUES (?, 'pages', '1')", 2*ChangeLogRows-1)
	exec(t, db, "UPDATE pages SET url = 'https://www.example.com/z' WHERE id = 1") // one row: seq 2*ChangeLogRows
	var low int64
	if err := db.QueryRow("SELECT min(seq) FROM " + ChangeLog).Scan(&low); err != nil || low <= ChangeLogRows {
		t.Errorf("the log's oldest row is %d (%v), want past %d", low, err, ChangeLogRows)
	}
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "id"})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	h, err := NewHandler(WatchChanges(src, &ChangeFeed{Poll: 20 * time.Millisecond, Full: 500 * time.Millisecond}), Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(rctx) }()
	for h.Pages() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	exec(t, db, "TRUNCATE pages")
	deadline := time.Now().Add(30 * time.Second)
	for get(t, h, "GET", "/sitemap.xml").StatusCode != 404 {
		if time.Now().After(deadline) {
			t.Fatal("the truncated table is still served after 30 s (ChangeFeed.Full 500 ms)")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if err := RemoveTriggers(ctx, db, "pages"); err != nil {
		t.Fatal(err)
	}
	var trig, logs int
	db.QueryRow("SELECT (SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()), (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?)", ChangeLog).Scan(&trig, &logs)
	if trig != 0 || logs != 0 {
		t.Errorf("after RemoveTriggers: %d triggers, %d change logs", trig, logs)
	}
	if ok, err := TriggersInstalled(ctx, db, "pages"); ok || err != nil {
		t.Errorf("TriggersInstalled = %v, %v", ok, err)
	}
}

// On MySQL a table dropped and created again (its triggers gone with it)
// is seen at the next poll, whichever poll sees the drop: the triggers
// are put back and every page checked, so the new rows are served and
// the writes after are followed.
func TestMySQLTriggerDropCreate(t *testing.T) {
	db := openMySQL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	create := "CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL)"
	exec(t, db, create)
	exec(t, db, "INSERT INTO pages VALUES (1, 'https://www.example.com/a')")
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "id"})
	if err != nil {
		t.Fatal(err)
	}
	if err := InstallTriggers(ctx, db, src.ChangeTables()...); err != nil {
		t.Fatal(err)
	}
	o := Options{BaseURL: "https://www.example.com/", Recheck: time.Hour}
	o.FeedError = func(err error) { t.Errorf("the feed failed: %v", err) }
	h, err := NewHandler(WatchChanges(src, &ChangeFeed{Poll: 20 * time.Millisecond}), o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	servedWithin := func(loc string) {
		t.Helper()
		start := time.Now()
		for !strings.Contains(body(t, get(t, h, "GET", "/sitemap-1.xml")), "<loc>"+loc+"</loc>") {
			if time.Since(start) > 20*time.Second {
				t.Fatalf("%s not served 20 s after the commit", loc)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	servedWithin("https://www.example.com/a")
	for i, pause := range []time.Duration{0, 300 * time.Millisecond} {
		exec(t, db, "DROP TABLE pages")
		time.Sleep(pause) // 0: the drop and the create in one poll
		exec(t, db, create)
		exec(t, db, "INSERT INTO pages VALUES (?, ?)", 2, fmt.Sprintf("https://www.example.com/new-%d", i))
		servedWithin(fmt.Sprintf("https://www.example.com/new-%d", i))
		// The rows may be served by the check of every page after the
		// drop, before the poll that sees the table again puts the
		// triggers back.
		for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			if ok, err := TriggersInstalled(ctx, db, "pages"); ok || err != nil {
				break
			}
			if time.Since(start) > 20*time.Second {
				t.Fatal("the triggers were not put back 20 s after the table was created again")
			}
		}
		exec(t, db, "UPDATE pages SET url = ? WHERE id = 2", fmt.Sprintf("https://www.example.com/after-%d", i))
		servedWithin(fmt.Sprintf("https://www.example.com/after-%d", i))
	}
}

// A serve whose user may read but not make triggers (the CMS's own
// user) follows the log; when the table is dropped and created again
// the feed says the triggers cannot be put back and fails, so the
// handler checks every page each Recheck: the new rows are served all
// the same.
func TestMySQLTriggerNoPrivilege(t *testing.T) {
	url := mariatest.DB(t)
	root, err := OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	name := url[strings.LastIndexByte(url, '/')+1:]
	user := "r" + name[len(name)-12:]
	exec(t, root, "CREATE USER '"+user+"'@'%' IDENTIFIED BY 'pw'")
	defer root.Exec("DROP USER '" + user + "'@'%'")
	exec(t, root, "GRANT SELECT ON `"+name+"`.* TO '"+user+"'@'%'")
	exec(t, root, "CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL)")
	exec(t, root, "INSERT INTO pages VALUES (1, 'https://www.example.com/a')")
	if err := InstallTriggers(context.Background(), root, ChangeTable{Table: "pages", Key: "id"}); err != nil {
		t.Fatal(err)
	}
	db, err := OpenDB(strings.Replace(url, "mysql://root@", "mysql://"+user+":pw@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := InstallTriggers(context.Background(), db, ChangeTable{Table: "pages", Key: "id"}); err == nil || !strings.Contains(err.Error(), "TRIGGER privilege") {
		t.Errorf("InstallTriggers without the privilege: %v, want the privilege named", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, err := SQL(ctx, db, Query{Table: "pages", Key: "id"})
	if err != nil {
		t.Fatal(err)
	}
	feedErr := make(chan error, 1)
	o := Options{BaseURL: "https://www.example.com/", Recheck: 100 * time.Millisecond}
	o.FeedError = func(err error) {
		select {
		case feedErr <- err:
		default: // told already: it is tried again, and fails again
		}
	}
	h, err := NewHandler(WatchChanges(src, &ChangeFeed{Poll: 20 * time.Millisecond}), o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() { cancel(); <-done }()
	servedWithin := func(loc string) {
		t.Helper()
		start := time.Now()
		for !strings.Contains(body(t, get(t, h, "GET", "/sitemap-1.xml")), "<loc>"+loc+"</loc>") {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s not served 10 s after the commit", loc)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	exec(t, root, "UPDATE pages SET url = 'https://www.example.com/b' WHERE id = 1")
	servedWithin("https://www.example.com/b")
	exec(t, root, "DROP TABLE pages")
	exec(t, root, "CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL)")
	exec(t, root, "INSERT INTO pages VALUES (1, 'https://www.example.com/c')")
	select {
	case err := <-feedErr:
		if !strings.Contains(err.Error(), "cannot be put back") {
			t.Errorf("the feed failed with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the feed did not fail 10 s after its triggers went")
	}
	servedWithin("https://www.example.com/c")
}
