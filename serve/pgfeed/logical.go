package pgfeed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// statusEvery is how often the feed tells the server how far it has read,
// so the server can release the WAL before it (well under the server's
// wal_sender_timeout, 60 s by default).
const statusEvery = 10 * time.Second

// slowSlot is how long creating the slot may take before the feed says what
// it waits for.
const slowSlot = 5 * time.Second

// pubComment marks a publication created by a feed: a later feed with
// Options.Create may drop it (after a crash of the one that created it).
const pubComment = "created by sitemap (serve/pgfeed) for its change feed; dropped when the last feed using it ends"

// validName reports whether s is what Options.Name may hold: 1 to 63
// lower-case letters, digits and _ (a function, not a regexp in a
// package variable: every command would compile it at start).
func validName(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Watch follows the committed changes of o.Table by logical decoding and
// calls fn with them, until ctx is done (it returns nil) or the feed fails
// (it returns why, after fn has had the changes committed before).
//
// It checks the server first and says what to change when it cannot work:
// wal_level, the role's REPLICATION attribute, the publication (named
// o.Name; created when missing only with o.Create, which needs ownership of
// the table), the table and its key column, free replication slots and WAL
// senders. Creating the slot waits for the transactions running on the
// server at that moment to end (after 5 s, o.Logf says so and how to find
// them). Its first call, made once the slot exists,
// is Change{All: true}: anything committed before it must be checked in
// full; every transaction committed after it comes in a later call.
//
// The old key of an UPDATE or DELETE comes only when the key column is in the
// table's replica identity (the primary key, unless ALTER TABLE … REPLICA
// IDENTITY chose otherwise). When it is not, Watch says so once through
// o.Logf and reports such changes as All. A table without any replica
// identity is refused when Watch would create its publication (PostgreSQL
// would then refuse the table's UPDATEs and DELETEs).
//
// A lost connection (a restart of the server, the network) is opened again
// with a new slot (after 0.1 s, doubling up to 5 s, each failure through
// o.Logf), and the first call after it is All: what was committed meanwhile
// is not known. Watch returns an error when the table is dropped or renamed
// (call it again to follow the new one), and when the server refuses
// something on reconnection. When it returns, its replication slot is gone,
// and so is the publication it created unless another feed of that name
// still runs.
//
// The replication connection must reach PostgreSQL itself, not a
// transaction-pooling proxy such as PgBouncer in its usual mode.
func Watch(ctx context.Context, o Options, fn func(Change)) error {
	return watch(ctx, o, fn, defaults())
}

func watch(ctx context.Context, o Options, fn func(Change), tu tuning) error {
	if fn == nil {
		return errors.New("pgfeed: Watch needs a function to call with the changes")
	}
	f := &logical{o: o, logf: logger(o), tu: tu}
	q := newQueue(tu.maxKeys)
	if err := f.start(ctx); err != nil {
		f.close(ctx)
		return err
	}
	defer f.close(ctx)
	q.putAll() // the slot exists: what was committed before it is unknown
	f.q = q
	there := &stillThere{t: f.t, q: q, why: "logical decoding of the table stopped with it"}
	read := func(ctx context.Context) error {
		for {
			err := f.stream(ctx)
			if err == nil || ctx.Err() != nil {
				return nil
			}
			if !f.repl.IsClosed() {
				return err
			}
			f.logf("pgfeed: the replication connection was lost (%v); connecting again", err)
			if err := f.reopen(ctx); err != nil || ctx.Err() != nil {
				return err
			}
			f.logf("pgfeed: following %s again (slot %s); reporting a change of the whole table, since what was committed meanwhile is not known", f.t, f.slot)
			q.putAll()
		}
	}
	check := func(ctx context.Context) error {
		tick := time.NewTicker(tu.check)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
			if f.db.IsClosed() { // lost: the stream reports that; try again on each tick
				db, err := connect(ctx, o.ConnString)
				if err != nil {
					continue
				}
				f.db = db
			}
			if err := there.check(ctx, f.db); err != nil && ctx.Err() == nil && !f.db.IsClosed() {
				return err
			}
		}
	}
	return run(ctx, q, fn, read, check)
}

// logical is one Watch: its connections, its table, its slot.
type logical struct {
	o        Options
	logf     func(string, ...any)
	tu       tuning
	q        *queue
	db       *pgx.Conn      // queries: checks, the publication
	repl     *pgconn.PgConn // the replication connection
	t        *target
	role     string
	pub      string // publication name
	slot     string
	created  bool // the publication is one a feed created (and this feed may drop)
	start0   pglogrepl.LSN
	settings map[string]string // of the server, read at the start

	rel     rel      // what the stream said of the table last
	relCols []column // the table's columns as the stream sent them last
	warned  bool     // the missing old key was logged
}

// start checks the server, makes sure of the publication, opens the
// replication connection, creates the slot and starts the stream.
func (f *logical) start(ctx context.Context) error {
	o := f.o
	if o.Name != "" && !validName(o.Name) {
		return fmt.Errorf("pgfeed: Options.Name %q names a publication and a replication slot: use at most 63 lower-case letters, digits and _", o.Name)
	}
	db, err := connect(ctx, o.ConnString)
	if err != nil {
		return err
	}
	f.db = db
	var walLevel, slots, senders string
	var mayReplicate bool
	if err := db.QueryRow(ctx, `SELECT current_setting('wal_level'), current_setting('max_replication_slots'), current_setting('max_wal_senders'),
			current_user, rolreplication OR rolsuper
		FROM pg_roles WHERE rolname = current_user`).Scan(&walLevel, &slots, &senders, &f.role, &mayReplicate); err != nil {
		return fmt.Errorf("pgfeed: %w", err)
	}
	f.settings = map[string]string{"wal_level": walLevel, "max_replication_slots": slots, "max_wal_senders": senders}
	t, err := resolve(ctx, db, o)
	if err != nil {
		return err
	}
	f.t = t
	if walLevel != "logical" {
		return errWalLevel(walLevel)
	}
	if !mayReplicate {
		return errNoReplication(f.role)
	}
	f.pub = o.Name
	if f.pub == "" {
		f.pub = objectName("sitemap_", t.baseName(), 11)
	}
	if err := f.publication(ctx); err != nil {
		return err
	}
	f.relCols = t.columns
	f.rel = rel{keyIdx: -1, keyInID: t.keyInID}
	for i, c := range t.columns {
		if c.name == o.Key {
			f.rel.keyIdx = i
		}
	}
	if !t.keyInID {
		f.warnIdentity()
	}

	if err := f.openStream(ctx); err != nil {
		return replicationError(err, f.role, f.setting)
	}
	return nil
}

// openStream opens the replication connection, creates the slot and starts
// the stream; its errors are the server's, as they come.
func (f *logical) openStream(ctx context.Context) error {
	cfg, err := pgconn.ParseConfig(f.o.ConnString)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["replication"] = "database"
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = appName
	}
	repl, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	f.repl = repl
	pid := "_" + strconv.FormatUint(uint64(repl.PID()), 10)
	f.slot = f.pub
	if len(f.slot) > 63-len(pid) {
		f.slot = f.slot[:63-len(pid)]
	}
	f.slot += pid
	// A logical slot starts at a point where no transaction that has
	// written is running: it waits for those running now.
	slow := time.AfterFunc(f.tu.slowLog, func() {
		f.logf("pgfeed: creating replication slot %s waits for the transactions running on the server to end; the oldest: SELECT pid, xact_start, state, query FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY xact_start", f.slot)
	})
	res, err := pglogrepl.CreateReplicationSlot(ctx, repl, f.slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Temporary: true, Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
	slow.Stop()
	if err != nil {
		return err
	}
	f.start0, err = pglogrepl.ParseLSN(res.ConsistentPoint)
	if err != nil {
		return fmt.Errorf("slot %s: %w", f.slot, err)
	}
	return pglogrepl.StartReplication(ctx, repl, f.slot, f.start0, pglogrepl.StartReplicationOptions{
		Mode:       pglogrepl.LogicalReplication,
		PluginArgs: []string{"proto_version '1'", "publication_names '" + f.pub + "'"},
	})
}

// reopen replaces a lost replication connection, retrying while the server
// cannot be reached (after 0.1 s, doubling up to 5 s). It returns nil when
// ctx ends first.
func (f *logical) reopen(ctx context.Context) error {
	wait := 100 * time.Millisecond
	for {
		f.repl.Close(ctx)
		err := f.openStream(ctx)
		if err == nil || ctx.Err() != nil {
			return nil
		}
		if !lost(err) {
			return replicationError(err, f.role, f.setting)
		}
		f.logf("pgfeed: opening the replication connection again failed (%v); trying again in %v", err, wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// lost reports whether err, from connecting or creating a slot, means the
// server cannot be reached now (a network error, a server shutting down or
// starting up), rather than a refusal.
func lost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57")
	}
	return true
}

// setting is the value of a server setting as read at the start, "?" when
// unknown.
func (f *logical) setting(name string) string {
	if v, ok := f.settings[name]; ok {
		return v
	}
	return "?"
}

// publication makes sure the publication exists and publishes every change
// of the table, creating it when allowed.
func (f *logical) publication(ctx context.Context) error {
	t := f.t
	var ins, upd, del, trunc bool
	var comment *string
	err := f.db.QueryRow(ctx, `SELECT pubinsert, pubupdate, pubdelete, pubtruncate, obj_description(oid, 'pg_publication')
		FROM pg_publication WHERE pubname = $1`, f.pub).Scan(&ins, &upd, &del, &trunc, &comment)
	if err == pgx.ErrNoRows {
		if !f.o.Create {
			return errNoPublication(f.pub, t)
		}
		if !t.hasIdent {
			return errNoIdentity(t)
		}
		with := ""
		if t.kind == "p" {
			with = " WITH (publish_via_partition_root = true)"
		}
		_, err := f.db.Exec(ctx, "CREATE PUBLICATION "+f.pub+" FOR TABLE "+t.quoted()+with)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42710" { // duplicate_object: another feed was quicker
			return f.publication(ctx)
		}
		if err != nil {
			return errCreatePublication(f.pub, t, f.role, err)
		}
		f.created = true
		if _, err := f.db.Exec(ctx, "COMMENT ON PUBLICATION "+f.pub+" IS '"+pubComment+"'"); err != nil {
			f.logf("pgfeed: publication %s: %v", f.pub, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("pgfeed: reading publication %s: %w", f.pub, err)
	}
	f.created = f.o.Create && comment != nil && *comment == pubComment
	var listed bool
	if err := f.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3)`,
		f.pub, t.schema, t.name).Scan(&listed); err != nil {
		return fmt.Errorf("pgfeed: reading publication %s: %w", f.pub, err)
	}
	if !listed {
		return fmt.Errorf("pgfeed: publication %s exists but does not publish table %s: have the owner of the table (role %s) run ALTER PUBLICATION %s ADD TABLE %s, or DROP PUBLICATION it (a feed with Create makes it again), or name another publication (Options.Name)",
			f.pub, t, t.owner, f.pub, t.quoted())
	}
	if !(ins && upd && del && trunc) {
		return fmt.Errorf("pgfeed: publication %s does not publish every change of %s (insert %t, update %t, delete %t, truncate %t): run ALTER PUBLICATION %s SET (publish = 'insert, update, delete, truncate')",
			f.pub, t, ins, upd, del, trunc, f.pub)
	}
	return nil
}

// warnIdentity says, once, that UPDATEs and DELETEs will be reported as All.
func (f *logical) warnIdentity() {
	if f.warned {
		return
	}
	f.warned = true
	f.logf("pgfeed: column %s of %s is not in the table's replica identity, so the server does not send its old value: its UPDATEs and DELETEs are reported as changes of the whole table. ALTER TABLE %s REPLICA IDENTITY FULL (or REPLICA IDENTITY USING INDEX on a unique index of %s) fixes that",
		f.o.Key, f.t, f.t.quoted(), f.o.Key)
}

// close ends the replication connection (the server drops the temporary
// slot), waits for the slot to go, drops the publication when this feed
// may, and closes the query connection.
func (f *logical) close(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if f.repl != nil {
		f.repl.Close(ctx)
	}
	if f.db == nil {
		return
	}
	if f.db.IsClosed() { // the server went away: try a new connection
		db, err := connect(ctx, f.o.ConnString)
		if err != nil {
			if f.created {
				f.logf("pgfeed: publication %s left in place: %v", f.pub, err)
			}
			return
		}
		f.db = db
	}
	defer f.db.Close(ctx)
	// The server drops the slot once the connection's process has ended.
	for deadline := time.Now().Add(5 * time.Second); f.slot != "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var n int
		err := f.db.QueryRow(ctx, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = $1", f.slot).Scan(&n)
		if err != nil || n == 0 {
			break
		}
	}
	if !f.created {
		return
	}
	var others int
	err := f.db.QueryRow(ctx, `SELECT count(*) FROM pg_replication_slots
		WHERE database = current_database() AND slot_name ~ ('^' || $1 || '_[0-9]+$') AND slot_name <> $2`,
		f.pub, f.slot).Scan(&others)
	if err == nil && others > 0 {
		return // another feed follows the table through it
	}
	if err == nil {
		_, err = f.db.Exec(ctx, "DROP PUBLICATION IF EXISTS "+f.pub)
	}
	if err != nil {
		f.logf("pgfeed: publication %s left in place (drop it with DROP PUBLICATION %s): %v", f.pub, f.pub, err)
	}
}

// stream reads the replication stream until ctx is done, putting the
// changes of each committed transaction in f.q and telling the server how
// far it has read.
func (f *logical) stream(ctx context.Context) error {
	pos := f.start0
	next := time.Now().Add(f.tu.status)
	var tx *txn
	for {
		if !time.Now().Before(next) {
			if err := pglogrepl.SendStandbyStatusUpdate(ctx, f.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: pos}); err != nil {
				return fmt.Errorf("pgfeed: replication connection: %w", err)
			}
			next = time.Now().Add(f.tu.status)
		}
		rctx, cancel := context.WithDeadline(ctx, next)
		raw, err := f.repl.ReceiveMessage(rctx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if pgconn.Timeout(err) {
				continue
			}
			return replicationError(err, f.role, f.setting)
		}
		switch m := raw.(type) {
		case *pgproto3.ErrorResponse:
			return replicationError(pgconn.ErrorResponseToPgError(m), f.role, f.setting)
		case *pgproto3.CopyData:
			if len(m.Data) == 0 {
				continue
			}
			switch m.Data[0] {
			case pglogrepl.PrimaryKeepaliveMessageByteID:
				k, err := pglogrepl.ParsePrimaryKeepaliveMessage(m.Data[1:])
				if err != nil {
					return fmt.Errorf("pgfeed: replication stream: %w", err)
				}
				if k.ServerWALEnd > pos {
					pos = k.ServerWALEnd
				}
				if k.ReplyRequested {
					next = time.Time{}
				}
			case pglogrepl.XLogDataByteID:
				x, err := pglogrepl.ParseXLogData(m.Data[1:])
				if err != nil {
					return fmt.Errorf("pgfeed: replication stream: %w", err)
				}
				if !f.skip(tx, x.WALData) {
					msg, err := parse(x.WALData)
					if err != nil {
						return err
					}
					tx = f.handle(tx, msg)
				}
				if end := x.WALStart + pglogrepl.LSN(len(x.WALData)); end > pos {
					pos = end
				}
			}
		}
	}
}

// skip reports whether a pgoutput message can be passed over undecoded: a
// row of another table (a publication may hold several), or any row once
// the transaction is All (a bulk load past maxKeys costs no decoding).
func (f *logical) skip(tx *txn, b []byte) bool {
	if len(b) < 5 {
		return false
	}
	switch pglogrepl.MessageType(b[0]) {
	case pglogrepl.MessageTypeInsert, pglogrepl.MessageTypeUpdate, pglogrepl.MessageTypeDelete:
		return binary.BigEndian.Uint32(b[1:5]) != f.t.oid || tx != nil && tx.keys.all
	}
	return false
}

// parse decodes one pgoutput message; a malformed one is an error, not a
// panic.
func parse(b []byte) (m pglogrepl.Message, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pgfeed: malformed pgoutput message: %v", r)
		}
	}()
	m, err = pglogrepl.Parse(b)
	if err != nil {
		err = fmt.Errorf("pgfeed: replication stream: %w", err)
	}
	return m, err
}

// txn is what the transaction being read did to the table.
type txn struct {
	touched bool
	keys    keyset
}

func (f *logical) newTxn() *txn { return &txn{keys: keyset{limit: f.tu.maxKeys}} }

// rel is what the last Relation message said of the table.
type rel struct {
	keyIdx  int  // the key column's position in a tuple; -1 when it is not sent
	keyInID bool // the key column is part of the replica identity
}

// handle applies one message to the transaction being read and returns it
// (nil after its COMMIT).
func (f *logical) handle(tx *txn, msg pglogrepl.Message) *txn {
	if tx == nil {
		tx = f.newTxn()
	}
	switch m := msg.(type) {
	case *pglogrepl.BeginMessage:
		if tx.touched { // a message outside a transaction: keep what it said
			f.q.put(&tx.keys)
		}
		return f.newTxn()
	case *pglogrepl.CommitMessage:
		if tx.touched {
			f.q.put(&tx.keys)
		}
		return nil
	case *pglogrepl.RelationMessage:
		if m.RelationID != f.t.oid {
			return tx
		}
		f.relation(tx, m)
	case *pglogrepl.InsertMessage:
		if m.RelationID == f.t.oid {
			tx.touched = true
			f.key(tx, m.Tuple)
		}
	case *pglogrepl.UpdateMessage:
		if m.RelationID == f.t.oid {
			tx.touched = true
			f.update(tx, m)
		}
	case *pglogrepl.DeleteMessage:
		if m.RelationID == f.t.oid {
			tx.touched = true
			if !f.rel.keyInID && m.OldTupleType != pglogrepl.DeleteMessageTupleTypeOld {
				f.noOldKey(tx)
			} else {
				f.key(tx, m.OldTuple)
			}
		}
	case *pglogrepl.TruncateMessage:
		for _, id := range m.RelationIDs {
			if id == f.t.oid {
				tx.touched = true
				tx.keys.setAll()
			}
		}
	}
	return tx
}

// relation compares a Relation message of the table with the columns known
// so far: other columns (ADD, DROP, ALTER … TYPE, a rename) make the
// transaction All, since the rows may now map to other entries.
func (f *logical) relation(tx *txn, m *pglogrepl.RelationMessage) {
	cols := make([]column, len(m.Columns))
	r := rel{keyIdx: -1}
	for i, c := range m.Columns {
		cols[i] = column{name: c.Name, typ: c.DataType, typmod: c.TypeModifier}
		if c.Name == f.o.Key {
			r.keyIdx, r.keyInID = i, c.Flags&1 != 0
		}
	}
	if !sameColumns(cols, f.relCols) || m.Namespace != f.t.schema || m.RelationName != f.t.name {
		tx.touched = true
		tx.keys.setAll()
		f.relCols = cols
	}
	if r.keyIdx < 0 && f.rel.keyIdx >= 0 {
		f.logf("pgfeed: the server no longer sends column %s of %s (dropped, renamed, or left out of publication %s): every change is reported as a change of the whole table", f.o.Key, f.t, f.pub)
	}
	if !r.keyInID && f.rel.keyInID {
		f.warned = false
	}
	f.rel = r
}

// key adds the key of tuple (a new row, or the old row of a DELETE) to tx.
func (f *logical) key(tx *txn, tuple *pglogrepl.TupleData) {
	if k, ok := f.keyOf(tuple); ok {
		tx.keys.add(k)
	} else {
		tx.keys.setAll()
	}
}

// keyOf is the key column's value in tuple, when the server sent it as text.
func (f *logical) keyOf(tuple *pglogrepl.TupleData) (string, bool) {
	i := f.rel.keyIdx
	if tuple == nil || i < 0 || i >= len(tuple.Columns) {
		return "", false
	}
	c := tuple.Columns[i]
	if c.DataType != pglogrepl.TupleDataTypeText {
		return "", false // NULL, an unchanged TOASTed value (not sent), binary
	}
	return string(c.Data), true
}

// update adds the old and new keys of an UPDATE to tx. The server sends the
// old row's identity columns only when one of them changed (or all its
// columns, under REPLICA IDENTITY FULL): with the key among them, no old
// tuple means the key did not change.
func (f *logical) update(tx *txn, m *pglogrepl.UpdateMessage) {
	full := m.OldTupleType == pglogrepl.UpdateMessageTupleTypeOld
	oldSent := false
	switch {
	case m.OldTuple != nil && (full || f.rel.keyInID):
		k, ok := f.keyOf(m.OldTuple)
		if !ok {
			f.noOldKey(tx)
			return
		}
		tx.keys.add(k)
		oldSent = true
	case !f.rel.keyInID:
		f.noOldKey(tx)
		return
	}
	k, ok := f.keyOf(m.NewTuple)
	switch {
	case ok:
		tx.keys.add(k)
	case oldSent && len(m.NewTuple.Columns) > f.rel.keyIdx && m.NewTuple.Columns[f.rel.keyIdx].DataType == pglogrepl.TupleDataTypeToast:
		// unchanged: the old key is the new one
	default:
		tx.keys.setAll()
	}
}

// noOldKey makes tx All: the server did not send a changed row's old key.
func (f *logical) noOldKey(tx *txn) {
	f.warnIdentity()
	tx.keys.setAll()
}
