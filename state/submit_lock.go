package state

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The submission lock.
//
// Several submitters may share one state: `sitemap submit` runs started
// at once, a server submitting the changes it sees, Go programs. Each URL
// (at its version) is sent once because every submitter holds the
// state's submission lock ([DB.LockSubmissions]) from the moment it checks a batch against
// the ledger to the moment the batch's outcome is durable
// ([DB.RecordSubmissions]): a batch at a time, not a run, so a
// long-running server and a `sitemap submit` take turns, batch by batch,
// and neither waits for the other to end.
//
// The lock is one the operating system or the database drops when its
// holder dies, however it dies (kill -9 included): an open file
// description's lock on a byte range of the SQLite file far past
// SQLite's own (Linux; a process's fcntl lock elsewhere), a session
// advisory lock on PostgreSQL. No lock row or lock file is left behind.
// Who holds it (pid, host, command, since when) is written beside the
// ledger for the messages of those waiting; that record is only
// informative, never the lock.

// LockHolder names the holder of a state's submission lock, for people
// waiting on it. Its zero value is a holder that did not say who it is.
type LockHolder struct {
	PID     int       `json:"pid,omitempty"`
	Host    string    `json:"host,omitempty"`
	Command string    `json:"command,omitempty"`
	Since   time.Time `json:"since,omitzero"`
}

// String names the holder in words: "pid 4242 on web-1 (sitemap serve),
// holding it since 2026-11-27 08:30:01 UTC".
func (h LockHolder) String() string {
	if h.PID == 0 && h.Host == "" && h.Command == "" {
		return "another submitter (it did not say who)"
	}
	s := fmt.Sprintf("pid %d", h.PID)
	if h.Host != "" {
		s += " on " + h.Host
	}
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if !h.Since.IsZero() {
		s += ", holding it since " + h.Since.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return s
}

// LockBusyError is the error of a LockSubmissions whose context ended
// while another submitter held the lock: who held it, and how long the
// caller waited.
type LockBusyError struct {
	Holder LockHolder
	Waited time.Duration
	Err    error // the context's error
}

func (e *LockBusyError) Error() string {
	return fmt.Sprintf("the submission lock of the state is held by %s; gave up after waiting %s",
		e.Holder, e.Waited.Round(time.Millisecond))
}

func (e *LockBusyError) Unwrap() error { return e.Err }

// lockWaitNotice is how long LockSubmissions waits before it tells
// onWait who holds the lock: a batch's turn is usually shorter.
const lockWaitNotice = time.Second

// submitLockKey is the key of the holder's record in the meta table.
const submitLockKey = "submit_lock_holder"

// newHolder is this process holding the lock for command, from now.
func newHolder(command string) LockHolder {
	h := LockHolder{PID: os.Getpid(), Command: command, Since: time.Now().UTC().Truncate(time.Second)}
	h.Host, _ = os.Hostname()
	if h.Command == "" && len(os.Args) > 0 {
		h.Command = filepath.Base(os.Args[0])
	}
	return h
}

func (h LockHolder) json() string {
	b, _ := json.Marshal(h)
	return string(b)
}

func parseHolder(s string) LockHolder {
	var h LockHolder
	json.Unmarshal([]byte(s), &h) // a record that does not parse names no one
	return h
}

// takeTurn takes turn, the one submission turn of a store value, waiting
// as long as ctx allows; after lockWaitNotice it tells onWait (when set)
// who holds the lock, as holder reads it, and reports that it did.
func takeTurn(ctx context.Context, turn chan struct{}, onWait func(LockHolder), holder func() LockHolder) (told bool, err error) {
	select {
	case turn <- struct{}{}:
		return false, nil
	default:
	}
	notice := time.NewTimer(lockWaitNotice)
	defer notice.Stop()
	for {
		select {
		case turn <- struct{}{}:
			return told, nil
		case <-notice.C:
			if onWait != nil {
				onWait(holder())
			}
			told = true
		case <-ctx.Done():
			return told, ctx.Err()
		}
	}
}

// lockFile takes the submission lock of an SQLite file (see
// [DB.LockSubmissions]), this value's turn taken; it gives the turn back
// unless it returns the lock.
func (s *DB) lockFile(ctx context.Context, start time.Time, onWait func(LockHolder)) (func() error, error) {
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
				if onWait != nil && time.Since(start) >= lockWaitNotice {
					onWait(s.submitHolder())
					onWait = nil
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
	var once sync.Once
	return func() error {
		var err error
		once.Do(func() {
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
				err = fmt.Errorf("state: unlock %s: %w", s.path, err)
			}
		})
		return err
	}, nil
}

// openSubmitFile returns the descriptor the submission lock is taken
// on, opened read-write at the first call, or nil when there is none to
// take (an in-memory database, a file this process may not write).
func (s *DB) openSubmitFile() (*os.File, error) {
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

// pgSubmitLock is the key of the submission lock, a session advisory
// lock of the database (the first 8 bytes of the SHA-256 of
// "sitemap_submissions").
const pgSubmitLock int64 = 0x2143798438351ee9

// lockAdvisory takes the submission lock of a PostgreSQL database (see
// [DB.LockSubmissions]), this value's turn taken; it gives the turn back
// unless it returns the lock.
func (s *DB) lockAdvisory(ctx context.Context, start time.Time, onWait func(LockHolder)) (func() error, error) {
	release := func() { <-s.subTurn }
	lockErr := func(err error) error {
		if ctx.Err() != nil {
			return &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: ctx.Err()}
		}
		return fmt.Errorf("state: submission lock: %w", err)
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		release()
		return nil, lockErr(err)
	}
	drop := func() { // the lock may be held or half taken: end the session
		c.Raw(func(any) error { return driver.ErrBadConn })
		c.Close()
		release()
	}
	var got bool
	if err := c.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, pgSubmitLock).Scan(&got); err != nil {
		drop()
		return nil, lockErr(err)
	}
	if !got {
		stop, notified := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(notified)
			t := time.NewTimer(lockWaitNotice)
			defer t.Stop()
			select {
			case <-t.C:
				if onWait != nil {
					onWait(s.submitHolder())
				}
			case <-stop:
			}
		}()
		_, err := c.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, pgSubmitLock)
		close(stop)
		<-notified
		if err != nil {
			drop()
			return nil, lockErr(err)
		}
	}
	var once sync.Once
	return func() error {
		var err error
		once.Do(func() {
			uctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var ok bool
			if err = c.QueryRowContext(uctx, `SELECT pg_advisory_unlock($1)`, pgSubmitLock).Scan(&ok); err != nil || !ok {
				drop() // the session's end drops the lock
				if err != nil {
					err = fmt.Errorf("state: submission unlock: %w", err)
				}
				return
			}
			c.Close()
			release()
		})
		return err
	}, nil
}
