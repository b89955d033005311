package pgfeed

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A key column outside the replica identity: the server sends no old key,
// so every UPDATE and DELETE is All (said once in the log), never a guess;
// INSERTs keep their keys. A publication the user made is left in place.
func TestWatchKeyNotInIdentity(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE pages (id serial PRIMARY KEY, url text UNIQUE NOT NULL, title text)`)
	exec(t, db, `CREATE PUBLICATION mine FOR TABLE pages`)
	r := follow(t, logicalFeed, Options{ConnString: dsn, Table: "pages", Key: "url", Name: "mine", Create: true})
	r.expect(t, all)
	exec(t, db, `INSERT INTO pages (url) VALUES ('/a'), ('/b')`)
	r.expect(t, keys("/a", "/b"))
	exec(t, db, `UPDATE pages SET title = 'x' WHERE url = '/a'`)
	r.expect(t, all)
	exec(t, db, `UPDATE pages SET url = '/c' WHERE url = '/a'`)
	r.expect(t, all)
	exec(t, db, `DELETE FROM pages WHERE url = '/b'`)
	r.expect(t, all)
	exec(t, db, `INSERT INTO pages (url) VALUES ('/d')`)
	r.expect(t, keys("/d"))

	// REPLICA IDENTITY FULL sends the old row: the keys come back.
	exec(t, db, `ALTER TABLE pages REPLICA IDENTITY FULL`)
	exec(t, db, `UPDATE pages SET url = '/e' WHERE url = '/c'`)
	r.expect(t, keys("/c", "/e"))
	exec(t, db, `DELETE FROM pages WHERE url = '/e'`)
	r.expect(t, keys("/e"))

	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	// Only the replica identity is asserted: a slot created while other
	// tests' transactions run also logs that it waits for them.
	var logs []string
	for _, l := range r.logged() {
		if strings.Contains(l, "replica identity") {
			logs = append(logs, l)
		}
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "column url of pages is not in the table's replica identity") ||
		!strings.Contains(logs[0], `ALTER TABLE "public"."pages" REPLICA IDENTITY FULL`) {
		t.Errorf("want one line naming the column and ALTER TABLE … REPLICA IDENTITY, got %q", logs)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_publication WHERE pubname = 'mine'`); n != 1 {
		t.Error("Watch dropped a publication it did not create")
	}
}

// Two feeds of one table at once each get every change; the publication
// goes when the last one ends, not before.
func TestWatchTwoFeeds(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE "Site Pages" (id bigint PRIMARY KEY)`)
	o := Options{ConnString: dsn, Table: "Site Pages", Key: "id", Create: true}
	a := follow(t, logicalFeed, o)
	a.expect(t, all)
	b := follow(t, logicalFeed, o)
	b.expect(t, all)
	exec(t, db, `INSERT INTO "Site Pages" VALUES (1)`)
	a.expect(t, keys("1"))
	b.expect(t, keys("1"))
	pub := objectName("sitemap_", "Site Pages", 11)
	if err := a.stop(t); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_publication WHERE pubname = $1`, pub); n != 1 {
		t.Fatal("the first feed to end dropped the publication the other one uses")
	}
	exec(t, db, `UPDATE "Site Pages" SET id = 2`)
	b.expect(t, keys("1", "2"))
	if err := b.stop(t); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM pg_publication WHERE pubname = $1`, pub); n != 0 {
		t.Error("the last feed left the publication")
	}
	if n := count(t, db, `SELECT count(*) FROM pg_replication_slots WHERE database = current_database()`); n != 0 {
		t.Errorf("%d slots left", n)
	}
}

// A dropped table ends either feed with an error saying so; Watch then
// drops the publication it created.
func TestDroppedTable(t *testing.T) {
	t.Parallel()
	for _, v := range []variant{logicalFeed, notifyFeed} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			db, dsn := openDB(t)
			exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
			o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
			v.prepare(t, db, o)
			r := follow(t, v, o)
			r.expect(t, all)
			exec(t, db, `INSERT INTO pages VALUES (7)`)
			r.expect(t, keys("7"))
			exec(t, db, `DROP TABLE pages`)
			err := r.ended(t)
			if err == nil || !strings.Contains(err.Error(), "table pages was dropped or renamed while the feed followed it") {
				t.Fatalf("got %v", err)
			}
			if n := count(t, db, `SELECT count(*) FROM pg_publication`); n != 0 {
				t.Error("the publication is left")
			}
		})
	}
}

// While other tables change and the followed one does not, the feed still
// tells the server how far it has read, so the slot does not hold the WAL.
func TestWatchReleasesWAL(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
	exec(t, db, `CREATE TABLE busy (id int PRIMARY KEY, body text)`)
	r := follow(t, logicalFeed, Options{ConnString: dsn, Table: "pages", Key: "id", Create: true})
	r.expect(t, all)
	exec(t, db, `INSERT INTO busy SELECT i, repeat('x', 1000) FROM generate_series(1, 5000) i`)
	var written string
	if err := db.QueryRow(`SELECT pg_current_wal_lsn()::text`).Scan(&written); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for count(t, db, `SELECT count(*) FROM pg_replication_slots WHERE database = current_database() AND confirmed_flush_lsn >= $1::pg_lsn`, written) == 0 {
		if time.Now().After(deadline) {
			var slot string
			db.QueryRow(`SELECT slot_name || ' ' || confirmed_flush_lsn || ' ' || restart_lsn FROM pg_replication_slots WHERE database = current_database()`).Scan(&slot)
			t.Fatalf("30s after the writes to another table, the slot (%s) has not confirmed %s", slot, written)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A transaction of more rows than a Change takes keys is one All, and the
// feed goes on.
func TestWatchBulkLoad(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
	r := follow(t, logicalFeed, Options{ConnString: dsn, Table: "pages", Key: "id", Create: true})
	r.expect(t, all)
	n := testTuning.maxKeys
	exec(t, db, `INSERT INTO pages SELECT generate_series(1, $1)`, n+1)
	r.expect(t, all)
	exec(t, db, `INSERT INTO pages SELECT generate_series($1, $1 + 9)`, n+2)
	var ten []string
	for i := range 10 {
		ten = append(ten, strconv.Itoa(n+2+i))
	}
	r.expect(t, keys(ten...))
}

// Watch starts once the transactions running when it began have ended, and
// says what it waits for meanwhile; their changes are covered by the first
// All.
func TestWatchWaitsForRunningTransactions(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO pages VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	r := follow(t, logicalFeed, Options{ConnString: dsn, Table: "pages", Key: "id", Create: true})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(r.logged(), "\n"), "waits for the transactions running on the server to end") {
		if time.Now().After(deadline) {
			t.Fatalf("nothing logged while the slot waits: %q", r.logged())
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case c := <-r.changes:
		t.Fatalf("the feed started (%s) while a transaction that wrote was running", show(c))
	default:
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	r.expect(t, all)
	exec(t, db, `INSERT INTO pages VALUES (2)`)
	r.expect(t, keys("2"))
}
