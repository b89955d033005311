package pgfeed

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The triggers InstallTrigger puts on a table, one per kind of statement
// (a trigger with transition tables takes one event).
var triggerNames = [...]string{"sitemap_feed_insert", "sitemap_feed_update", "sitemap_feed_delete", "sitemap_feed_truncate"}

// maxStatementRows is the most rows one statement may change and still be
// reported by key through a trigger; a bigger one notifies All.
const maxStatementRows = 1000

// batchWait is how long WatchNotify waits for more notifications of a
// transaction after one arrived (the server sends those of a transaction
// together, so this only bounds a split across reads).
const batchWait = 3 * time.Millisecond

// trigger is what InstallTrigger creates for a table.
type trigger struct {
	t       *target
	fn      string // the function, schema-qualified and quoted
	fnName  string // its unquoted name
	channel string
	body    string
}

// triggerFor is the trigger function of t reporting the key column key on
// the channel named after t.
func triggerFor(t *target, key string) (*trigger, error) {
	tr := &trigger{t: t, channel: objectName("sitemap_", t.baseName(), 11)}
	tr.fnName = objectName("sitemap_notify_", t.name, 0)
	tr.fn = pgx.Identifier{t.schema, tr.fnName}.Sanitize()
	k := pgx.Identifier{key}.Sanitize()
	notify := "PERFORM pg_notify('" + tr.channel + "', "
	// Each notification is "<transaction ID> <JSON array of keys>" or
	// "<transaction ID> *" for All; a statement's keys are split across
	// notifications of under 8000 bytes (pg_notify's limit).
	tr.body = `
DECLARE
	keys text[];
	k text;
	buf text := '';
	hdr text := txid_current()::text || ' ';
BEGIN
	IF TG_OP = 'INSERT' THEN
		keys := ARRAY(SELECT ` + k + `::text FROM sitemap_new LIMIT ` + fmt.Sprint(maxStatementRows+1) + `);
	ELSIF TG_OP = 'UPDATE' THEN
		keys := ARRAY(SELECT ` + k + `::text FROM sitemap_old UNION ALL SELECT ` + k + `::text FROM sitemap_new LIMIT ` + fmt.Sprint(2*maxStatementRows+1) + `);
	ELSIF TG_OP = 'DELETE' THEN
		keys := ARRAY(SELECT ` + k + `::text FROM sitemap_old LIMIT ` + fmt.Sprint(maxStatementRows+1) + `);
	END IF;
	IF TG_OP = 'TRUNCATE' OR cardinality(keys) > ` + fmt.Sprint(maxStatementRows) + ` * (CASE TG_OP WHEN 'UPDATE' THEN 2 ELSE 1 END)
			OR array_position(keys, NULL) IS NOT NULL THEN
		` + notify + `hdr || '*');
		RETURN NULL;
	END IF;
	FOREACH k IN ARRAY keys LOOP
		k := to_json(k)::text;
		IF octet_length(k) > 7000 THEN
			` + notify + `hdr || '*');
			RETURN NULL;
		END IF;
		IF octet_length(buf) + octet_length(k) > 7000 THEN
			` + notify + `hdr || '[' || buf || ']');
			buf := '';
		END IF;
		buf := buf || CASE WHEN buf = '' THEN '' ELSE ',' END || k;
	END LOOP;
	IF buf <> '' THEN
		` + notify + `hdr || '[' || buf || ']');
	END IF;
	RETURN NULL;
END
`
	if strings.Contains(tr.body, "$sitemap$") {
		return nil, fmt.Errorf("pgfeed: key column %q: a name with $sitemap$ in it is not supported", key)
	}
	return tr, nil
}

// InstallTrigger makes table report its changes for WatchNotify: a function
// named sitemap_notify_<table> in the table's schema and four
// statement-level AFTER triggers (INSERT, UPDATE, DELETE with their
// transition tables; TRUNCATE) calling it. Each statement sends, when its
// transaction commits, one pg_notify (more for keys past 7,000 bytes) with
// the old and new values of the key column of the rows it changed, on the
// channel sitemap_<table> (see Options.Name); TRUNCATE, a statement of more
// than 1,000 rows, a NULL key or a key of over 7,000 bytes sends All
// instead (pg_notify takes under 8,000 bytes, and a key is never cut).
//
// Writers pay for it: each statement's rows are kept for the trigger (in
// memory up to work_mem, then on disk) and its keys sent (BenchmarkTriggerCost
// measures it: about 0.1 ms more for a single-row INSERT on an idle machine).
// A transaction that changes the table can then no longer be prepared for
// two-phase commit (PostgreSQL refuses PREPARE TRANSACTION after NOTIFY).
//
// It is idempotent: run again (with another key column, or after an upgrade
// of this package) it replaces them, in one transaction. It needs
// ownership of the table (or the TRIGGER privilege on it) and CREATE on its
// schema; the error says which role to run it as.
func InstallTrigger(ctx context.Context, db *sql.DB, table, key string) error {
	return withConn(ctx, db, func(c *pgx.Conn) error {
		t, err := resolve(ctx, c, Options{Table: table, Key: key})
		if err != nil {
			return err
		}
		tr, err := triggerFor(t, key)
		if err != nil {
			return err
		}
		stmts := []string{
			"CREATE OR REPLACE FUNCTION " + tr.fn + "() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $sitemap$" + tr.body + "$sitemap$",
			"COMMENT ON FUNCTION " + tr.fn + "() IS 'sitemap change feed of " + strings.ReplaceAll(t.String(), "'", "''") + ": NOTIFY " + tr.channel + "; remove with pgfeed.RemoveTrigger'",
		}
		for _, n := range triggerNames {
			stmts = append(stmts, "DROP TRIGGER IF EXISTS "+n+" ON "+t.quoted())
		}
		on := " ON " + t.quoted() + " "
		run := " FOR EACH STATEMENT EXECUTE FUNCTION " + tr.fn + "()"
		stmts = append(stmts,
			"CREATE TRIGGER "+triggerNames[0]+" AFTER INSERT"+on+"REFERENCING NEW TABLE AS sitemap_new"+run,
			"CREATE TRIGGER "+triggerNames[1]+" AFTER UPDATE"+on+"REFERENCING OLD TABLE AS sitemap_old NEW TABLE AS sitemap_new"+run,
			"CREATE TRIGGER "+triggerNames[2]+" AFTER DELETE"+on+"REFERENCING OLD TABLE AS sitemap_old"+run,
			"CREATE TRIGGER "+triggerNames[3]+" AFTER TRUNCATE"+on+run)
		if err := inTx(ctx, c, stmts); err != nil {
			return triggerError("install the change feed's triggers on", t, err)
		}
		return nil
	})
}

// RemoveTrigger removes what InstallTrigger put on table; it does nothing
// where there is nothing to remove.
func RemoveTrigger(ctx context.Context, db *sql.DB, table string) error {
	return withConn(ctx, db, func(c *pgx.Conn) error {
		var oid *uint32
		var schema, name string
		err := c.QueryRow(ctx, `SELECT c.oid, n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE c.oid = to_regclass($1)`, quoteTable(table)).Scan(&oid, &schema, &name)
		if err == pgx.ErrNoRows {
			return nil // no table, no triggers
		}
		if err != nil {
			return fmt.Errorf("pgfeed: looking up table %q: %w", table, err)
		}
		t := &target{oid: *oid, schema: schema, name: name}
		var stmts []string
		for _, n := range triggerNames {
			stmts = append(stmts, "DROP TRIGGER IF EXISTS "+n+" ON "+t.quoted())
		}
		stmts = append(stmts, "DROP FUNCTION IF EXISTS "+pgx.Identifier{schema, objectName("sitemap_notify_", name, 0)}.Sanitize()+"()")
		if err := inTx(ctx, c, stmts); err != nil {
			return triggerError("remove the change feed's triggers from", t, err)
		}
		return nil
	})
}

// triggerError says what to do when the triggers could not be changed.
func triggerError(what string, t *target, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42501" {
		var owner string
		if t.owner != "" {
			owner = " (role " + t.owner + ")"
		}
		return fmt.Errorf("pgfeed: not allowed to %s %s (%s): run it as the table's owner%s, or have the owner GRANT TRIGGER ON %s to this role, which also needs CREATE on schema %s",
			what, t, pe.Message, owner, t.quoted(), pgx.Identifier{t.schema}.Sanitize())
	}
	return fmt.Errorf("pgfeed: %s %s: %w", what, t, err)
}

// withConn runs f on a pgx connection of db.
func withConn(ctx context.Context, db *sql.DB, f func(*pgx.Conn) error) error {
	sc, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("pgfeed: %w", err)
	}
	defer sc.Close()
	var inner error
	err = sc.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("pgfeed: the database/sql driver is %T: open the database with pgx's (import _ \"github.com/jackc/pgx/v5/stdlib\"; sql.Open(\"pgx\", …))", dc)
		}
		inner = f(c.Conn())
		return nil
	})
	if err != nil {
		return err
	}
	return inner
}

// inTx runs stmts in one transaction.
func inTx(ctx context.Context, c *pgx.Conn, stmts []string) error {
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// WatchNotify follows the committed changes of o.Table through the
// notifications of the triggers InstallTrigger put on it, and calls fn with
// them, as Watch does: first Change{All: true} once it listens, then one call
// per committed transaction that touched the table (several merged while fn
// runs), until ctx is done (it returns nil) or the feed fails.
//
// It checks at start, and every 2 seconds, that the triggers are installed
// for o.Key and that the table is still there: a table dropped or renamed,
// or triggers removed, end it with an error saying what to do. A change of
// the table's columns (which the triggers do not see) is reported as All
// by that check. A lost connection is retried (after 0.1 s, doubling up to
// 5 s, each failure through o.Logf), and the first call after it is All:
// notifications sent while nobody listened are lost. It uses o.ConnString,
// o.Table, o.Key and o.Logf; not o.Name (the channel is named after the
// table) nor o.Create (InstallTrigger is a separate, explicit step).
//
// LISTEN needs a connection of its own to PostgreSQL: not through a
// transaction-pooling proxy such as PgBouncer in its usual mode.
func WatchNotify(ctx context.Context, o Options, fn func(Change)) error {
	return watchNotify(ctx, o, fn, defaults())
}

func watchNotify(ctx context.Context, o Options, fn func(Change), tu tuning) error {
	if fn == nil {
		return errors.New("pgfeed: WatchNotify needs a function to call with the changes")
	}
	n := &listener{o: o, logf: logger(o), tu: tu}
	c, err := n.connect(ctx)
	if err != nil {
		return err
	}
	q := newQueue(tu.maxKeys)
	q.putAll()
	return run(ctx, q, fn, func(ctx context.Context) error { return n.listen(ctx, c, q) })
}

// listener is one WatchNotify.
type listener struct {
	o    Options
	logf func(string, ...any)
	tu   tuning
	t    *target // as found at the first connection
	tr   *trigger
}

// connect opens a connection, checks the table and its triggers, and listens.
func (n *listener) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := connect(ctx, n.o.ConnString)
	if err != nil {
		return nil, err
	}
	if err := n.setup(ctx, c); err != nil {
		c.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return c, nil
}

func (n *listener) setup(ctx context.Context, c *pgx.Conn) error {
	t, err := resolve(ctx, c, n.o)
	if err != nil {
		return err
	}
	if n.t != nil && t.oid != n.t.oid {
		return fmt.Errorf("pgfeed: table %s was dropped and created again while the feed was reconnecting: start the feed again", t)
	}
	if n.t == nil {
		n.t = t
	}
	tr, err := triggerFor(t, n.o.Key)
	if err != nil {
		return err
	}
	n.tr = tr
	// Listen first, then check: a trigger installed in between is seen.
	if _, err := c.Exec(ctx, "LISTEN "+pgx.Identifier{tr.channel}.Sanitize()); err != nil {
		return fmt.Errorf("pgfeed: LISTEN %s: %w", tr.channel, err)
	}
	return n.installed(ctx, c)
}

// installed checks that the triggers of InstallTrigger(…, table, key) are on
// the table, enabled, and call the function this version of the package
// writes.
func (n *listener) installed(ctx context.Context, c *pgx.Conn) error {
	tr := n.tr
	install := fmt.Sprintf("install them as the table's owner with pgfeed.InstallTrigger(ctx, db, %q, %q), or sitemap serve --db … --table %s --key %s --install-trigger", n.o.Table, n.o.Key, n.o.Table, n.o.Key)
	var src string
	var triggers int
	err := c.QueryRow(ctx, `SELECT p.prosrc, (SELECT count(*) FROM pg_trigger
			WHERE tgrelid = $3 AND tgname = ANY ($4) AND tgenabled <> 'D' AND tgfoid = p.oid)
		FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace
		WHERE s.nspname = $1 AND p.proname = $2 AND p.pronargs = 0`,
		tr.t.schema, tr.fnName, tr.t.oid, triggerNames[:]).Scan(&src, &triggers)
	if err == pgx.ErrNoRows {
		return fmt.Errorf("pgfeed: table %s has no change feed triggers: %s", tr.t, install)
	}
	if err != nil {
		return fmt.Errorf("pgfeed: checking the triggers of %s: %w", tr.t, err)
	}
	switch {
	case triggers == 0:
		return fmt.Errorf("pgfeed: table %s has no change feed triggers: %s", tr.t, install)
	case triggers < len(triggerNames):
		return fmt.Errorf("pgfeed: table %s lacks some of its change feed triggers (or some are disabled): %s", tr.t, install)
	case src != tr.body:
		return fmt.Errorf("pgfeed: the change feed triggers of %s report another key column than %s, or were installed by another version: %s", tr.t, n.o.Key, install)
	}
	return nil
}

// listen reads notifications until ctx is done, putting the keys of each
// transaction in q; it reconnects when the connection is lost.
func (n *listener) listen(ctx context.Context, c *pgx.Conn, q *queue) error {
	defer func() {
		if c != nil {
			c.Close(context.WithoutCancel(ctx))
		}
	}()
	there := &stillThere{t: n.t, q: q, cols: n.t.columns, why: "its triggers went with it"}
	b := &txBatch{q: q, set: keyset{limit: n.tu.maxKeys}}
	for {
		err := n.receive(ctx, c, b, there)
		b.flush()
		if ctx.Err() != nil {
			return nil
		}
		if !c.IsClosed() {
			return err
		}
		n.logf("pgfeed: the connection that listens to %s was lost (%v); connecting again", n.tr.channel, err)
		c, err = n.reconnect(ctx)
		if err != nil || c == nil {
			return err
		}
		q.putAll() // what was notified meanwhile is lost
	}
}

// receive reads the notifications of c into b until ctx is done or c fails,
// and checks the table and its triggers every so often.
func (n *listener) receive(ctx context.Context, c *pgx.Conn, b *txBatch, there *stillThere) error {
	nextCheck := time.Now().Add(n.tu.check)
	for {
		until := nextCheck
		if b.have {
			until = time.Now().Add(batchWait)
		}
		wctx, cancel := context.WithDeadline(ctx, until)
		nt, err := c.WaitForNotification(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil && pgconn.Timeout(err) && !c.IsClosed():
			b.flush()
			if time.Now().Before(nextCheck) {
				continue
			}
			if err := there.check(ctx, c); err != nil {
				return err
			}
			if err := n.installed(ctx, c); err != nil {
				return err
			}
			nextCheck = time.Now().Add(n.tu.check)
		case err != nil:
			return err
		default:
			b.add(nt.Payload)
		}
	}
}

// txBatch gathers the notifications of one transaction: each is
// "<transaction ID> <JSON array of keys>" or "<transaction ID> *".
type txBatch struct {
	q    *queue
	tx   string
	set  keyset
	have bool
}

func (b *txBatch) add(payload string) {
	tx, keys, _ := strings.Cut(payload, " ")
	if b.have && tx != b.tx {
		b.flush()
	}
	b.tx, b.have = tx, true
	var ks []*string
	if keys == "*" || json.Unmarshal([]byte(keys), &ks) != nil {
		b.set.setAll()
		return
	}
	for _, k := range ks {
		if k == nil {
			b.set.setAll()
			return
		}
		b.set.add(*k)
	}
}

func (b *txBatch) flush() {
	if b.have {
		b.q.put(&b.set)
		b.set.reset()
		b.have = false
	}
}

// reconnect connects again until it listens (nil, nil when ctx ends first).
// A connection that fails is retried; a table or trigger that is no longer
// right is an error.
func (n *listener) reconnect(ctx context.Context) (*pgx.Conn, error) {
	wait := 100 * time.Millisecond
	for {
		c, err := connect(ctx, n.o.ConnString)
		if err == nil {
			err = n.setup(ctx, c)
			if err == nil {
				n.logf("pgfeed: listening to %s again; reporting a change of the whole table, since notifications sent meanwhile are lost", n.tr.channel)
				return c, nil
			}
			lost := c.IsClosed()
			c.Close(context.WithoutCancel(ctx))
			if !lost && ctx.Err() == nil {
				return nil, err
			}
		}
		if ctx.Err() != nil {
			return nil, nil
		}
		n.logf("pgfeed: connecting to listen to %s failed (%v); trying again in %v", n.tr.channel, err, wait)
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}
