package state

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Outcomes of a [Submission].
const (
	// OutcomeSent: the endpoint accepted the URL (HTTP 200 or 202).
	OutcomeSent = "sent"
	// OutcomeFailed: the endpoint refused it or could not be reached; it
	// is submitted again by the next run.
	OutcomeFailed = "failed"
)

// Submission is what was submitted of one URL: its loc, the version of
// its content (a fingerprint or lastmod: a new version is a new
// submission), where, when, and with which outcome.
type Submission struct {
	Loc, Version string
	Endpoint     string
	At           time.Time
	// Status is the HTTP status of the answer (0 without one).
	Status  int
	Outcome string // OutcomeSent or OutcomeFailed
}

// submissionColumns are the columns of the submissions table, the key
// (loc, version) first.
var submissionColumns = []string{"loc", "version", "endpoint", "at", "status", "outcome"}

// Submitted reports whether loc at version was submitted with the
// outcome OutcomeSent, and is the version of loc sent last: a page that
// goes back to a version sent before is a change, to be sent again.
func (s *DB) Submitted(ctx context.Context, loc, version string) (bool, error) {
	done, err := s.SubmittedEach(ctx, []Submission{{Loc: loc, Version: version}})
	if err != nil {
		return false, err
	}
	return done[0], nil
}

// SubmittedEach reports, for each of subs (its Loc and Version), whether
// it was submitted with the outcome OutcomeSent ([DB.Submitted] for a
// whole batch, in one query), as a submitter checks it while it holds
// the lock.
func (s *DB) SubmittedEach(ctx context.Context, subs []Submission) ([]bool, error) {
	done := make([]bool, len(subs))
	if len(subs) == 0 {
		return done, nil
	}
	locs := make([]string, len(subs))
	for i, sub := range subs {
		locs[i] = sub.Loc
	}
	// The version of each loc sent last (several when sent at the same
	// time).
	sent := make(map[[2]string]bool, len(subs))
	err := s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT s.loc, s.version FROM {submissions} s WHERE `+s.d.inList("s.loc")+` AND s.outcome = 'sent'
			AND s.at >= (SELECT max(m.at) FROM {submissions} m WHERE m.loc = s.loc AND m.outcome = 'sent')`, s.d.bindList(locs))
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var k [2]string
			err := rows.Scan(&k[0], &k[1])
			sent[k] = true
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("state: submissions: %w", err)
	}
	for i, sub := range subs {
		done[i] = sent[[2]string{sub.Loc, sub.Version}]
	}
	return done, nil
}

// RecordSubmissions records subs, replacing earlier records of the same
// loc and version, and makes them durable before it returns (with the
// store's other buffered writes): a run killed after it submits again
// only the URLs it had not recorded.
func (s *DB) RecordSubmissions(ctx context.Context, subs []Submission) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	// One row per (loc, version): the last of subs wins, as one by one.
	last := make(map[[2]string]int, len(subs))
	for i, sub := range subs {
		last[[2]string{sub.Loc, sub.Version}] = i
	}
	rows := make([][]any, 0, len(last))
	for i, sub := range subs {
		if last[[2]string{sub.Loc, sub.Version}] == i {
			rows = append(rows, []any{sub.Loc, sub.Version, sub.Endpoint, nanos(sub.At), int64(sub.Status), sub.Outcome})
		}
	}
	err := s.txLocked(ctx, func(x sess) error {
		return s.d.upsertMany(ctx, x, "submissions", submissionColumns, 2, rows)
	})
	if err != nil {
		return fmt.Errorf("state: record submissions: %w", err)
	}
	return nil
}

// SentSince is how many URL versions were submitted with the outcome
// OutcomeSent at or after since (a daily quota counts the last 24 hours).
func (s *DB) SentSince(ctx context.Context, since time.Time) (int64, error) {
	var n int64
	err := s.read(func(x sess) error {
		return x.row(ctx, `SELECT count(*) FROM {submissions} WHERE outcome = 'sent' AND at >= ?`, nanos(since)).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("state: submissions: %w", err)
	}
	return n, nil
}

// LockSubmissions takes the state's submission lock (see [LockHolder]
// for what it guarantees) and returns the function that gives it back;
// hold it from the ledger check of a batch ([DB.SubmittedEach]) to its
// [DB.RecordSubmissions], not longer. command names the holder to those
// waiting (default: the program's name).
//
// It waits as long as ctx allows, and when ctx ends first returns a
// *LockBusyError naming the holder. After a second of waiting it tells
// onWait (when set) who holds the lock, once. Callers of one DB take
// turns before they wait for the lock itself, which is:
//
//   - on SQLite, a record lock on a byte of the file far past SQLite's
//     own. While it waits it writes this store's buffered writes. A
//     value whose turn ends while another process waits lets it go
//     first. Processes and other descriptors of the file take turns (on
//     Linux; on other Unix systems, processes; without fcntl record
//     locks, the callers of one DB only). A file the process cannot open
//     for writing, or one on a file system without record locks, is
//     guarded only within this value.
//   - on PostgreSQL, a session advisory lock on a connection of the pool
//     kept until unlock, so the database drops it when the holder's
//     connection ends, whatever ended it. Waiters are served in the
//     order they came (PostgreSQL queues them); at most one connection
//     of the pool waits for the lock or holds it. A database without
//     advisory locks (CockroachDB ignores them) does not keep submitters
//     apart.
func (s *DB) LockSubmissions(ctx context.Context, command string, onWait func(LockHolder)) (unlock func() error, err error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	s.mu.Unlock()
	start := time.Now()
	told, err := takeTurn(ctx, s.subTurn, onWait, s.submitHolder)
	if err != nil {
		return nil, &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: err}
	}
	if told {
		onWait = nil
	}
	var give func() error
	if s.d.pg {
		give, err = s.lockAdvisory(ctx, start, onWait)
	} else {
		give, err = s.lockFile(ctx, start, onWait)
	}
	if err != nil {
		return nil, err
	}
	// The lock is held: say who holds it even when ctx ends now.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := s.setMeta(hctx, submitLockKey, newHolder(command).json()); err != nil {
		give()
		return nil, fmt.Errorf("state: submission lock: %w", err)
	}
	return give, nil
}

// setMeta writes key's value in the meta table, durable when it returns.
func (s *DB) setMeta(ctx context.Context, key, value string) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.txLocked(ctx, func(x sess) error { return x.setMeta(ctx, "meta", key, value) })
}

// submitHolder reads who holds the submission lock, as its holder wrote
// it (a zero LockHolder when it cannot be read).
func (s *DB) submitHolder() LockHolder {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var v string
	err := s.read(func(x sess) (err error) {
		v, err = x.meta(ctx, "meta", submitLockKey)
		return err
	})
	if err != nil {
		return LockHolder{}
	}
	return parseHolder(v)
}

// sleepCtx waits d, or less when ctx ends first (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
