package pgfeed

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/sitemapkit/sitemap/internal/pgtest"
)

func TestMain(m *testing.M) {
	if dsn := os.Getenv(childEnv); dsn != "" {
		os.Exit(child(dsn))
	}
	pgtest.Main(m)
}

// openDB returns a new, empty database of the test binary's server and its
// connection URL.
func openDB(t testing.TB) (*sql.DB, string) {
	t.Helper()
	dsn := pgtest.DB(t)
	// The test server runs with synchronous_commit=off, under which a WAL
	// sender sees a commit only when the WAL writer flushes it (up to 200
	// ms later); the tests' writers commit as a default server does.
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	db, err := sql.Open("pgx", dsn+sep+"synchronous_commit=on")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func count(t testing.TB, db *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// needLogical skips a logical decoding test on a server of
// SITEMAP_TEST_POSTGRES without wal_level=logical (the server pgtest starts
// has it).
func needLogical(t testing.TB, db *sql.DB) {
	t.Helper()
	var level string
	if err := db.QueryRow("SHOW wal_level").Scan(&level); err != nil {
		t.Fatal(err)
	}
	if level != "logical" {
		if os.Getenv(pgtest.EnvRequire) == "1" {
			t.Fatalf("the test server has wal_level=%s; logical decoding needs logical", level)
		}
		t.Skipf("the server of %s has wal_level=%s; logical decoding needs logical", pgtest.EnvURL, level)
	}
}

// variant is one of the two feeds, as the tests run it.
type variant struct {
	name string
	// prepare readies db's table for the feed (the triggers, for WatchNotify).
	prepare func(t testing.TB, db *sql.DB, o Options)
	watch   func(ctx context.Context, o Options, fn func(Change), tu tuning) error
}

var (
	logicalFeed = variant{name: "logical", watch: watch,
		prepare: func(t testing.TB, db *sql.DB, o Options) { needLogical(t, db) }}
	notifyFeed = variant{name: "notify", watch: watchNotify,
		prepare: func(t testing.TB, db *sql.DB, o Options) {
			if err := InstallTrigger(context.Background(), db, o.Table, o.Key); err != nil {
				t.Fatal(err)
			}
		}}
)

// testTuning checks the table often, so tests of a dropped table or a
// column change take a fraction of a second.
var testTuning = tuning{check: 100 * time.Millisecond, status: 100 * time.Millisecond, maxKeys: 2000, slowLog: 300 * time.Millisecond}

// recorder runs a feed and keeps what it reports.
type recorder struct {
	changes chan Change
	done    chan error
	cancel  context.CancelFunc

	mu   sync.Mutex
	logs []string
}

// follow starts the feed v on o; the test ends it with stop (or cleanup).
func follow(t testing.TB, v variant, o Options) *recorder {
	t.Helper()
	r := &recorder{changes: make(chan Change, 10000), done: make(chan error, 1)}
	o.Logf = func(format string, args ...any) {
		r.mu.Lock()
		r.logs = append(r.logs, fmt.Sprintf(format, args...))
		r.mu.Unlock()
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		r.done <- v.watch(ctx, o, func(c Change) {
			if !c.All {
				c.Keys = slices.Clone(c.Keys)
			}
			r.changes <- c
		}, testTuning)
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// next is the feed's next change; it fails t after 10 s.
func (r *recorder) next(t testing.TB) Change {
	t.Helper()
	select {
	case c := <-r.changes:
		return c
	case err := <-r.done:
		r.done <- err
		t.Fatalf("the feed ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no change within 10s")
	}
	return Change{}
}

// stop ends the feed and returns what it returned.
func (r *recorder) stop(t testing.TB) error {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the feed did not end within 20s of its context")
		return nil
	}
}

// ended waits for the feed to end on its own and returns its error.
func (r *recorder) ended(t testing.TB) error {
	t.Helper()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the feed did not end within 10s")
		return nil
	}
}

func (r *recorder) logged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.logs)
}

// keys is a Change of keys (order does not matter in comparisons).
func keys(k ...string) Change { return Change{Keys: k} }

var all = Change{All: true}

func show(c Change) string {
	if c.All {
		return "All"
	}
	if len(c.Keys) > 6 {
		return fmt.Sprintf("%d keys %q…", len(c.Keys), c.Keys[:6])
	}
	return fmt.Sprintf("%q", c.Keys)
}

func same(a, b Change) bool {
	if a.All || b.All {
		return a.All == b.All
	}
	x, y := slices.Clone(a.Keys), slices.Clone(b.Keys)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// expect checks that the feed's next changes are want, in order.
func (r *recorder) expect(t testing.TB, want ...Change) {
	t.Helper()
	for _, w := range want {
		if got := r.next(t); !same(got, w) {
			t.Fatalf("got %s, want %s", show(got), show(w))
		}
	}
}

// step is what the tests do to the table, and what a feed must report.
type step struct {
	name   string
	sql    []string
	want   []Change
	notify []Change // what WatchNotify reports, when it differs
}

var longKey = "k" + strings.Repeat("x", 9000)

func manyKeys(n int) []string {
	var k []string
	for i := range n {
		k = append(k, fmt.Sprintf("bulk%04d", i))
	}
	return k
}

// steps run in order on pages(id text PRIMARY KEY, title text) and
// other(id text PRIMARY KEY, title text), both empty at the start. Each ends
// with the changes it must cause, so a change reported where none is due
// fails the next step.
var steps = []step{
	{name: "insert", sql: []string{`INSERT INTO pages VALUES ('a', 'A')`}, want: []Change{keys("a")}},
	{name: "update of another column", sql: []string{`UPDATE pages SET title = 'A2' WHERE id = 'a'`}, want: []Change{keys("a")}},
	{name: "update of the key", sql: []string{`UPDATE pages SET id = 'b' WHERE id = 'a'`}, want: []Change{keys("a", "b")}},
	{name: "delete", sql: []string{`DELETE FROM pages WHERE id = 'b'`}, want: []Change{keys("b")}},
	{name: "transaction", sql: []string{`BEGIN; INSERT INTO pages VALUES ('c', 'C'); INSERT INTO pages VALUES ('d', 'D'); UPDATE pages SET title = 'C2' WHERE id = 'c'; DELETE FROM pages WHERE id = 'd'; COMMIT`},
		want: []Change{keys("c", "d")}},
	{name: "statement of several rows", sql: []string{`INSERT INTO pages SELECT 'm' || i, 'M' FROM generate_series(1, 3) i`}, want: []Change{keys("m1", "m2", "m3")}},
	{name: "savepoint rolled back", sql: []string{`BEGIN; INSERT INTO pages VALUES ('s1', 'S'); SAVEPOINT a; INSERT INTO pages VALUES ('s2', 'S'); ROLLBACK TO a; COMMIT`},
		want: []Change{keys("s1")}},
	{name: "rollback", sql: []string{`BEGIN; INSERT INTO pages VALUES ('e', 'E'); ROLLBACK`, `INSERT INTO pages VALUES ('f', 'F')`}, want: []Change{keys("f")}},
	{name: "empty update", sql: []string{`UPDATE pages SET title = 'none' WHERE id = 'nothing'`, `UPDATE pages SET title = 'F2' WHERE id = 'f'`}, want: []Change{keys("f")}},
	{name: "another table", sql: []string{`INSERT INTO other VALUES ('g', 'G')`, `UPDATE other SET title = 'G2'`, `INSERT INTO pages VALUES ('h', 'H')`}, want: []Change{keys("h")}},
	{name: "both tables in one transaction", sql: []string{`BEGIN; INSERT INTO other VALUES ('g2', 'G'); INSERT INTO pages VALUES ('h2', 'H'); COMMIT`}, want: []Change{keys("h2")}},
	{name: "odd key", sql: []string{`INSERT INTO pages VALUES (E'q''"\n, é]', 'Q')`}, want: []Change{keys("q'\"\n, é]")}},
	{name: "long key", sql: []string{`INSERT INTO pages VALUES ('k' || repeat('x', 9000), 'L')`}, want: []Change{keys(longKey)},
		notify: []Change{all}}, // pg_notify takes under 8000 bytes: All, never a cut key
	{name: "bulk insert", sql: []string{`INSERT INTO pages SELECT 'bulk' || lpad(i::text, 4, '0'), 'B' FROM generate_series(0, 1499) i`},
		want: []Change{keys(manyKeys(1500)...)}, notify: []Change{all}}, // more than 1,000 rows in a statement
	{name: "truncate", sql: []string{`TRUNCATE pages`}, want: []Change{all}},
	{name: "add column", sql: []string{`ALTER TABLE pages ADD COLUMN extra int`},
		want:   nil,            // logical decoding sees the new columns with the next change
		notify: []Change{all}}, // the periodic check sees them
	{name: "change after add column", sql: []string{`INSERT INTO pages VALUES ('i', 'I', 1)`}, want: []Change{all}, notify: []Change{keys("i")}},
	{name: "after the schema change", sql: []string{`UPDATE pages SET extra = 2 WHERE id = 'i'`}, want: []Change{keys("i")}},
}

// testFeed runs the steps through feed v, then stops it.
func testFeed(t *testing.T, v variant) *sql.DB {
	db, dsn := openDB(t)
	exec(t, db, `CREATE TABLE pages (id text PRIMARY KEY, title text)`)
	exec(t, db, `CREATE TABLE other (id text PRIMARY KEY, title text)`)
	o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
	v.prepare(t, db, o)
	if v.name == "notify" { // the other table reports too, on its own channel
		v.prepare(t, db, Options{Table: "other", Key: "id"})
	}
	r := follow(t, v, o)
	r.expect(t, all)
	for _, s := range steps {
		for _, q := range s.sql {
			exec(t, db, q)
		}
		want := s.want
		if v.name == "notify" && s.notify != nil {
			want = s.notify
		}
		for _, w := range want {
			if got := r.next(t); !same(got, w) {
				t.Fatalf("%s: got %s, want %s", s.name, show(got), show(w))
			}
		}
	}
	// Nothing more: a last insert is the next change.
	exec(t, db, `INSERT INTO pages VALUES ('z', 'Z', 3)`)
	r.expect(t, keys("z"))
	if err := r.stop(t); err != nil {
		t.Fatalf("Watch returned %v after its context ended; want nil", err)
	}
	// A slot created while other tests' transactions run logs that it
	// waits for them; nothing else is logged.
	for _, l := range r.logged() {
		if !strings.Contains(l, "waits for the transactions running on the server to end") {
			t.Errorf("logged %q", l)
		}
	}
	// Its connections end with it.
	deadline := time.Now().Add(30 * time.Second)
	for count(t, db, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, appName) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("a connection of the feed is still open 30s after it returned")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return db
}

// The logical feed reports each committed transaction's keys, and All where
// it cannot know them; cancelling it leaves no slot and drops the
// publication it created.
func TestWatch(t *testing.T) {
	t.Parallel()
	db := testFeed(t, logicalFeed)
	if n := count(t, db, `SELECT count(*) FROM pg_replication_slots WHERE database = current_database()`); n != 0 {
		t.Errorf("%d replication slots left after Watch returned", n)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_publication WHERE pubname = 'sitemap_pages'`); n != 0 {
		t.Errorf("the publication Watch created is still there after it returned")
	}
}

// The trigger feed reports the same.
func TestWatchNotify(t *testing.T) {
	t.Parallel()
	testFeed(t, notifyFeed)
}

// Changes that wait for fn merge: keys once each, in the order first seen;
// All absorbs keys; past maxKeys, All.
func TestQueueMerges(t *testing.T) {
	q := newQueue(0)
	if _, ok := q.take(); ok {
		t.Fatal("an empty queue gave a change")
	}
	q.put(&keyset{keys: []string{"a", "b"}})
	q.put(&keyset{keys: []string{"b", "c"}})
	if c, ok := q.take(); !ok || c.All || !slices.Equal(c.Keys, []string{"a", "b", "c"}) {
		t.Fatalf("got %v %v", c, ok)
	}
	if _, ok := q.take(); ok {
		t.Fatal("a change taken twice")
	}
	q.put(&keyset{keys: []string{"a"}})
	q.putAll()
	q.put(&keyset{keys: []string{"d"}})
	if c, ok := q.take(); !ok || !c.All || c.Keys != nil {
		t.Fatalf("got %v %v, want All", c, ok)
	}
	var big keyset
	for i := range maxKeys {
		big.add(fmt.Sprint(i))
	}
	if big.all || len(big.keys) != maxKeys {
		t.Fatalf("%d keys: all=%v", maxKeys, big.all)
	}
	big.add("0")
	if big.all {
		t.Fatal("a key seen again counted")
	}
	big.add("one more")
	if !big.all || big.keys != nil {
		t.Fatal("past maxKeys, not All")
	}
}
