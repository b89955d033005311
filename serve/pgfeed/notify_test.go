package pgfeed

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The triggers see the old row whatever the replica identity: a renamed
// key is reported as its old and new value. Installing twice is the same as
// once; installing for another key replaces the function.
func TestWatchNotifyKeyNotInIdentity(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	ctx := context.Background()
	exec(t, db, `CREATE TABLE pages (id serial PRIMARY KEY, url text UNIQUE NOT NULL, title text)`)
	for range 2 {
		if err := InstallTrigger(ctx, db, "pages", "id"); err != nil {
			t.Fatal(err)
		}
	}
	if err := InstallTrigger(ctx, db, "pages", "url"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_trigger WHERE tgrelid = 'pages'::regclass AND tgname LIKE 'sitemap_feed_%'`); n != 4 {
		t.Fatalf("%d triggers, want 4", n)
	}
	r := follow(t, notifyFeed, Options{ConnString: dsn, Table: "pages", Key: "url"})
	r.expect(t, all)
	exec(t, db, `INSERT INTO pages (url) VALUES ('/a'), ('/b')`)
	r.expect(t, keys("/a", "/b"))
	exec(t, db, `UPDATE pages SET url = '/c' WHERE url = '/a'`)
	r.expect(t, keys("/a", "/c"))
	exec(t, db, `DELETE FROM pages WHERE url = '/b'`)
	r.expect(t, keys("/b"))
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
}

// WatchNotify refuses a table without the triggers, or with triggers for
// another key, saying how to install them; a removal while it runs ends it.
func TestWatchNotifyTriggers(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	ctx := context.Background()
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY, url text)`)
	o := Options{ConnString: dsn, Table: "pages", Key: "id"}
	nop := func(Change) {}
	err := WatchNotify(ctx, o, nop)
	if err == nil || !strings.Contains(err.Error(), `table pages has no change feed triggers: install them as the table's owner with pgfeed.InstallTrigger(ctx, db, "pages", "id"), or sitemap serve --db … --table pages --key id --install-trigger`) {
		t.Fatalf("without triggers: %v", err)
	}
	if err := InstallTrigger(ctx, db, "pages", "url"); err != nil {
		t.Fatal(err)
	}
	err = WatchNotify(ctx, o, nop)
	if err == nil || !strings.Contains(err.Error(), "report another key column than id") {
		t.Fatalf("triggers of another key: %v", err)
	}
	exec(t, db, `ALTER TABLE pages DISABLE TRIGGER sitemap_feed_delete`)
	err = WatchNotify(ctx, Options{ConnString: dsn, Table: "pages", Key: "url"}, nop)
	if err == nil || !strings.Contains(err.Error(), "lacks some of its change feed triggers (or some are disabled)") {
		t.Fatalf("a trigger disabled: %v", err)
	}
	exec(t, db, `ALTER TABLE pages ENABLE TRIGGER sitemap_feed_delete`)

	if err := InstallTrigger(ctx, db, "pages", "id"); err != nil {
		t.Fatal(err)
	}
	r := follow(t, notifyFeed, o)
	r.expect(t, all)
	for range 2 { // removing twice is fine
		if err := RemoveTrigger(ctx, db, "pages"); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.ended(t); err == nil || !strings.Contains(err.Error(), "no change feed triggers") {
		t.Fatalf("after RemoveTrigger: %v", err)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_trigger WHERE tgrelid = 'pages'::regclass AND NOT tgisinternal`); n != 0 {
		t.Errorf("%d triggers left", n)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_proc WHERE proname LIKE 'sitemap_notify_%'`); n != 0 {
		t.Errorf("%d functions left", n)
	}
	if err := RemoveTrigger(ctx, db, "missing"); err != nil {
		t.Errorf("RemoveTrigger of a missing table: %v", err)
	}
	if err := InstallTrigger(ctx, db, "missing", "id"); err == nil || !strings.Contains(err.Error(), `table "missing" not found`) {
		t.Errorf("InstallTrigger of a missing table: %v", err)
	}
}

// A role that does not own the table is told whom to ask.
func TestInstallTriggerRefused(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	var dbname string
	if err := db.QueryRow("SELECT current_database()").Scan(&dbname); err != nil {
		t.Fatal(err)
	}
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
	role := "trig_" + strings.TrimPrefix(dbname, "pgtest_")
	other := openAs(t, newRole(t, db, dsn, role, ""))
	err := InstallTrigger(context.Background(), other, "pages", "id")
	if err == nil || !strings.Contains(err.Error(), "not allowed to install the change feed's triggers on pages") ||
		!strings.Contains(err.Error(), "run it as the table's owner (role postgres)") {
		t.Fatalf("got %v", err)
	}
}

// A lost connection is followed by All (what was committed meanwhile is
// not known), then by changes again.
func TestReconnects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    variant
		kill string // ends the feed's connection on the server
		log  string
	}{
		{logicalFeed, `SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = current_database()`,
			"following pages again"},
		{notifyFeed, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'sitemap change feed'`,
			"listening to sitemap_pages again"},
	} {
		t.Run(tc.v.name, func(t *testing.T) {
			t.Parallel()
			db, dsn := openDB(t)
			exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
			o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
			tc.v.prepare(t, db, o)
			r := follow(t, tc.v, o)
			r.expect(t, all)
			exec(t, db, `INSERT INTO pages VALUES (1)`)
			r.expect(t, keys("1"))
			if n := count(t, db, `SELECT count(*) FROM (`+tc.kill+`) s`); n != 1 {
				t.Fatalf("terminated %d connections, want 1", n)
			}
			r.expect(t, all)
			exec(t, db, `INSERT INTO pages VALUES (2)`)
			r.expect(t, keys("2"))
			if err := r.stop(t); err != nil {
				t.Fatal(err)
			}
			logs := strings.Join(r.logged(), "\n")
			if !strings.Contains(logs, "was lost") || !strings.Contains(logs, tc.log) {
				t.Errorf("the log does not tell of the reconnection:\n%s", logs)
			}
			if n := count(t, db, `SELECT count(*) FROM pg_replication_slots WHERE database = current_database()`); n != 0 {
				t.Errorf("%d slots left", n)
			}
		})
	}
}

// A slow fn costs no change: what commits meanwhile comes merged in the next
// call.
func TestSlowCallerGetsMergedChanges(t *testing.T) {
	t.Parallel()
	for _, v := range []variant{logicalFeed, notifyFeed} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			db, dsn := openDB(t)
			exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
			o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
			v.prepare(t, db, o)
			started, release := make(chan struct{}), make(chan struct{})
			got := make(chan Change, 100)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- v.watch(ctx, o, func(c Change) {
					if c.All {
						close(started)
						<-release // the caller's full check, while rows come in
					}
					got <- c
				}, testTuning)
			}()
			defer func() { cancel(); <-done }()
			select {
			case <-started:
			case err := <-done:
				t.Fatal(err)
			}
			for i := range 5 {
				exec(t, db, `INSERT INTO pages VALUES ($1)`, i)
			}
			time.Sleep(200 * time.Millisecond) // let the feed read them while fn blocks
			close(release)
			if c := <-got; !c.All {
				t.Fatalf("first call %s, want All", show(c))
			}
			var seen []string
			for len(seen) < 5 {
				select {
				case c := <-got:
					if c.All {
						t.Fatal("All after the start")
					}
					seen = append(seen, c.Keys...)
				case <-time.After(10 * time.Second):
					t.Fatalf("got %q, want 5 keys", seen)
				}
			}
			if !same(Change{Keys: seen}, keys("0", "1", "2", "3", "4")) {
				t.Fatalf("got %q", seen)
			}
		})
	}
}
