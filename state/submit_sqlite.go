package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// submissionsSchema is schema version 2: what was submitted to a search
// engine (IndexNow), per URL and version of its content.
const submissionsSchema = `
CREATE TABLE IF NOT EXISTS submissions (
	loc      TEXT NOT NULL,
	version  TEXT NOT NULL,
	endpoint TEXT NOT NULL DEFAULT '',
	at       INTEGER NOT NULL,
	status   INTEGER NOT NULL DEFAULT 0,
	outcome  TEXT NOT NULL,
	PRIMARY KEY (loc, version)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS submissions_sent ON submissions(at) WHERE outcome = 'sent';
`

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

// Submitted reports whether loc at version was submitted with the
// outcome OutcomeSent, and is the version of loc sent last: a page that
// goes back to a version sent before is a change, to be sent again.
func (s *SQLite) Submitted(ctx context.Context, loc, version string) (bool, error) {
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	st, err := s.stmt(ctx, `SELECT 1 FROM submissions WHERE loc = ?1 AND version = ?2 AND outcome = 'sent'
		AND at >= (SELECT max(at) FROM submissions WHERE loc = ?1 AND outcome = 'sent')`)
	if err != nil {
		return false, fmt.Errorf("state: %w", err)
	}
	var one int
	err = st.QueryRowContext(ctx, loc, version).Scan(&one)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return false, fmt.Errorf("state: submissions: %w", err)
	}
	return true, nil
}

// RecordSubmissions records subs, replacing earlier records of the same
// loc and version, and makes them durable before it returns (with the
// store's other buffered writes): a run killed after it submits again
// only the URLs it had not recorded.
func (s *SQLite) RecordSubmissions(ctx context.Context, subs []Submission) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	st, err := s.stmt(ctx, `INSERT INTO submissions(loc, version, endpoint, at, status, outcome) VALUES(?, ?, ?, ?, ?, ?)
		ON CONFLICT(loc, version) DO UPDATE SET endpoint = excluded.endpoint, at = excluded.at,
			status = excluded.status, outcome = excluded.outcome`)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	for _, sub := range subs {
		err := s.write(ctx, func() error {
			_, err := st.ExecContext(ctx, sub.Loc, sub.Version, sub.Endpoint, nanos(sub.At), sub.Status, sub.Outcome)
			return err
		})
		if err != nil {
			return fmt.Errorf("state: record submission: %w", err)
		}
	}
	return s.flushLocked(ctx)
}

// SentSince is how many URL versions were submitted with the outcome
// OutcomeSent at or after since (a daily quota counts the last 24 hours).
func (s *SQLite) SentSince(ctx context.Context, since time.Time) (int64, error) {
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	st, err := s.stmt(ctx, `SELECT count(*) FROM submissions WHERE outcome = 'sent' AND at >= ?`)
	if err != nil {
		return 0, fmt.Errorf("state: %w", err)
	}
	var n int64
	if err := st.QueryRowContext(ctx, nanos(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("state: submissions: %w", err)
	}
	return n, nil
}

// SubmittedEach reports, for each of subs (its Loc and Version), whether
// it was submitted with the outcome OutcomeSent: [SQLite.Submitted] for a
// whole batch, as a submitter checks it while it holds the lock.
func (s *SQLite) SubmittedEach(ctx context.Context, subs []Submission) ([]bool, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	st, err := s.stmt(ctx, `SELECT 1 FROM submissions WHERE loc = ?1 AND version = ?2 AND outcome = 'sent'
		AND at >= (SELECT max(at) FROM submissions WHERE loc = ?1 AND outcome = 'sent')`)
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	done := make([]bool, len(subs))
	for i, sub := range subs {
		var one int
		err := st.QueryRowContext(ctx, sub.Loc, sub.Version).Scan(&one)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("state: submissions: %w", err)
		}
		done[i] = err == nil
	}
	return done, nil
}

// LockSubmissions takes the state's submission lock (see [LockHolder]
// for what it guarantees) and returns the function that gives it back;
// hold it from the ledger check of a batch ([SQLite.SubmittedEach]) to
// its [SQLite.RecordSubmissions], not longer. command names the holder
// to those waiting (default: the program's name).
//
// It waits as long as ctx allows, and when ctx ends first returns a
// *LockBusyError naming the holder. After a second of waiting it tells
// onWait (when set) who holds the lock, once. While it waits it commits
// this store's open batch of writes, so that the holder can write its
// own. A value whose turn ends while another process waits lets it go
// first. Callers of one *SQLite take turns, and so do processes and other
// descriptors of the file (on Linux; on other Unix systems, processes;
// without fcntl record locks, the callers of one *SQLite only). A file
// the process cannot open for writing, or one on a file system without
// record locks, is guarded only within this value.
func (s *SQLite) LockSubmissions(ctx context.Context, command string, onWait func(LockHolder)) (unlock func() error, err error) {
	start := time.Now()
	told, err := takeTurn(ctx, s.subTurn, onWait, s.submitHolder)
	if err != nil {
		return nil, &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: err}
	}
	release := func() { <-s.subTurn }
	f, err := s.openSubmitFile()
	if err != nil {
		release()
		return nil, err
	}
	busy := func(err error) error {
		release()
		return &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: err}
	}
	if f != nil {
		if err := sleepCtx(ctx, time.Until(s.subYield)); err != nil {
			return nil, busy(err)
		}
		got, err := tryRange(f, lockByte, true)
		if err != nil {
			release()
			return nil, fmt.Errorf("state: lock %s: %w", s.path, err)
		}
		if !got {
			tryRange(f, waitByte, false) // tell the holder someone waits
			for wait := time.Millisecond; !got; wait = min(2*wait, 20*time.Millisecond) {
				if err := s.Flush(ctx); err != nil && ctx.Err() == nil {
					unlockRange(f, waitByte)
					release()
					return nil, err
				}
				if err := sleepCtx(ctx, wait); err != nil {
					unlockRange(f, waitByte)
					return nil, busy(err)
				}
				if !told && onWait != nil && time.Since(start) >= lockWaitNotice {
					onWait(s.submitHolder())
					told = true
				}
				if got, err = tryRange(f, lockByte, true); err != nil {
					unlockRange(f, waitByte)
					release()
					return nil, fmt.Errorf("state: lock %s: %w", s.path, err)
				}
			}
			unlockRange(f, waitByte)
		}
	}
	give := func() error {
		var err error
		if f != nil {
			err = unlockRange(f, lockByte)
			if othersHold(f, waitByte) {
				s.subYield = time.Now().Add(50 * time.Millisecond)
			} else {
				s.subYield = time.Time{}
			}
		}
		release()
		if err != nil {
			return fmt.Errorf("state: unlock %s: %w", s.path, err)
		}
		return nil
	}
	// The lock is held: say who holds it even when ctx ends now.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := s.setMeta(hctx, submitLockKey, newHolder(command).json()); err != nil {
		give()
		return nil, err
	}
	var once sync.Once
	return func() error {
		err := error(nil)
		once.Do(func() { err = give() })
		return err
	}, nil
}

// openSubmitFile returns the descriptor the submission lock is taken
// on, opened read-write at the first call, or nil when there is none to
// take (an in-memory database, a file this process may not write).
func (s *SQLite) openSubmitFile() (*os.File, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if s.subFile != nil || !rangeLocks {
		return s.subFile, nil
	}
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil // guarded within this value only (see LockSubmissions)
	}
	s.subFile = f
	return f, nil
}

// setMeta writes key's value in the meta table, committed when it returns.
func (s *SQLite) setMeta(ctx context.Context, key, value string) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	err := s.write(ctx, func() error {
		_, err := s.conn.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	})
	if err == nil {
		err = s.flushLocked(ctx)
	}
	if err != nil {
		return fmt.Errorf("state: %s: %w", key, err)
	}
	return nil
}

// submitHolder reads who holds the submission lock, as its holder wrote
// it (a zero LockHolder when it cannot be read).
func (s *SQLite) submitHolder() LockHolder {
	if err := s.lock(); err != nil {
		return LockHolder{}
	}
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var v string
	if err := s.conn.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, submitLockKey).Scan(&v); err != nil {
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
