package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The submission lock.
//
// Several submitters may share one state: `sitemap submit` runs started
// at once, a server submitting the changes it sees, Go programs. Each URL
// (at its version) is sent once because every submitter holds the
// state's submission lock ([SQLite.LockSubmissions],
// [Postgres.LockSubmissions]) from the moment it checks a batch against
// the ledger to the moment the batch's outcome is durable
// ([SQLite.RecordSubmissions]): a batch at a time, not a run, so a
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
