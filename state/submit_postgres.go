package state

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Submitted reports whether loc at version was submitted with the
// outcome OutcomeSent (see [SQLite.Submitted]).
func (s *Postgres) Submitted(ctx context.Context, loc, version string) (bool, error) {
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	var one int
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM sitemap_submissions WHERE loc = $1 AND version = $2 AND outcome = 'sent'
		AND at >= (SELECT max(at) FROM sitemap_submissions WHERE loc = $1 AND outcome = 'sent')`, loc, version).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("state: submissions: %w", err)
	}
	return true, nil
}

// RecordSubmissions records subs, replacing earlier records of the same
// loc and version, durable when it returns, together with the store's
// buffered writes (see [SQLite.RecordSubmissions]).
func (s *Postgres) RecordSubmissions(ctx context.Context, subs []Submission) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := s.flushLocked(ctx); err != nil {
		return err
	}
	// One row per (loc, version): the last of subs wins, as one by one.
	last := make(map[[2]string]int, len(subs))
	for i, sub := range subs {
		last[[2]string{sub.Loc, sub.Version}] = i
	}
	var locs, versions, endpoints, outcomes []string
	var ats []int64
	var statuses []int32
	for i, sub := range subs {
		if last[[2]string{sub.Loc, sub.Version}] != i {
			continue
		}
		locs, versions, endpoints, outcomes = append(locs, sub.Loc), append(versions, sub.Version), append(endpoints, sub.Endpoint), append(outcomes, sub.Outcome)
		ats, statuses = append(ats, nanos(sub.At)), append(statuses, int32(sub.Status))
	}
	if len(locs) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO sitemap_submissions (loc, version, endpoint, at, status, outcome)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int4[], $6::text[])
		ON CONFLICT (loc, version) DO UPDATE SET endpoint = excluded.endpoint, at = excluded.at,
			status = excluded.status, outcome = excluded.outcome`,
		locs, versions, endpoints, ats, statuses, outcomes)
	if err != nil {
		return fmt.Errorf("state: record submissions: %w", err)
	}
	return nil
}

// SentSince is how many URL versions were submitted with the outcome
// OutcomeSent at or after since.
func (s *Postgres) SentSince(ctx context.Context, since time.Time) (int64, error) {
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM sitemap_submissions WHERE outcome = 'sent' AND at >= $1`, nanos(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("state: submissions: %w", err)
	}
	return n, nil
}

// SubmittedEach reports, for each of subs (its Loc and Version), whether
// it was submitted with the outcome OutcomeSent, in one query (see
// [SQLite.SubmittedEach]).
func (s *Postgres) SubmittedEach(ctx context.Context, subs []Submission) ([]bool, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	done := make([]bool, len(subs))
	if len(subs) == 0 {
		return done, nil
	}
	locs, versions := make([]string, len(subs)), make([]string, len(subs))
	for i, sub := range subs {
		locs[i], versions[i] = sub.Loc, sub.Version
	}
	rows, err := s.pool.Query(ctx, `SELECT k.i FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(loc, version, i)
		JOIN sitemap_submissions s ON s.loc = k.loc AND s.version = k.version AND s.outcome = 'sent'
		WHERE s.at >= (SELECT max(m.at) FROM sitemap_submissions m WHERE m.loc = k.loc AND m.outcome = 'sent')`, locs, versions)
	if err != nil {
		return nil, fmt.Errorf("state: submissions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		if err := rows.Scan(&i); err != nil {
			return nil, fmt.Errorf("state: submissions: %w", err)
		}
		done[i-1] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("state: submissions: %w", err)
	}
	return done, nil
}

// pgSubmitLock is the key of the submission lock, a session advisory
// lock of the database (the first 8 bytes of the SHA-256 of
// "sitemap_submissions").
const pgSubmitLock int64 = 0x2143798438351ee9

// LockSubmissions takes the database's submission lock (see
// [SQLite.LockSubmissions] and [LockHolder]): a session advisory lock
// on a connection of the pool kept until unlock, so the database drops
// it when the holder's connection ends, whatever ended it. Waiters are
// served in the order they came (PostgreSQL queues them); the callers of
// one value take turns before they wait in the database, so at most one
// connection of the pool waits for the lock or holds it. It waits as
// long as ctx allows and then returns a *LockBusyError; after a second
// it tells onWait (when set, from another goroutine, once, before
// LockSubmissions returns) who holds it. A database without advisory
// locks (CockroachDB ignores them) does not keep submitters apart.
func (s *Postgres) LockSubmissions(ctx context.Context, command string, onWait func(LockHolder)) (unlock func() error, err error) {
	start := time.Now()
	if err := s.lock(); err != nil {
		return nil, err
	}
	s.mu.Unlock()
	// One connection of the pool at a time waits for the lock or holds
	// it: waiters holding every connection would leave the holder none.
	told, err := takeTurn(ctx, s.subTurn, onWait, s.submitHolder)
	if err != nil {
		return nil, &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: err}
	}
	if told {
		onWait = nil
	}
	release := func() { <-s.subTurn }
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		release()
		return nil, s.lockErr(ctx, start, err)
	}
	drop := func() { // the lock may be held or half taken: end the session
		c.Conn().Close(context.Background())
		c.Release()
		release()
	}
	var got bool
	if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, pgSubmitLock).Scan(&got); err != nil {
		drop()
		return nil, s.lockErr(ctx, start, err)
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
		_, err := c.Exec(ctx, `SELECT pg_advisory_lock($1)`, pgSubmitLock)
		close(stop)
		<-notified
		if err != nil {
			drop()
			return nil, s.lockErr(ctx, start, err)
		}
	}
	var once sync.Once
	give := func() error {
		var err error
		once.Do(func() {
			uctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var ok bool
			if err = c.QueryRow(uctx, `SELECT pg_advisory_unlock($1)`, pgSubmitLock).Scan(&ok); err != nil || !ok {
				drop() // the session's end drops the lock
				if err != nil {
					err = fmt.Errorf("state: submission unlock: %w", err)
				}
				return
			}
			c.Release()
			release()
		})
		return err
	}
	// The lock is held: say who holds it even when ctx ends now.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if _, err := s.pool.Exec(hctx, `INSERT INTO sitemap_meta (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, submitLockKey, newHolder(command).json()); err != nil {
		give()
		return nil, fmt.Errorf("state: submission lock: %w", err)
	}
	return give, nil
}

// lockErr is the error of a lock that was not taken.
func (s *Postgres) lockErr(ctx context.Context, start time.Time, err error) error {
	if ctx.Err() != nil {
		return &LockBusyError{Holder: s.submitHolder(), Waited: time.Since(start), Err: ctx.Err()}
	}
	return fmt.Errorf("state: submission lock: %w", err)
}

// submitHolder reads who holds the submission lock, as its holder wrote
// it (a zero LockHolder when it cannot be read).
func (s *Postgres) submitHolder() LockHolder {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var v string
	if err := s.pool.QueryRow(ctx, `SELECT value FROM sitemap_meta WHERE key = $1`, submitLockKey).Scan(&v); err != nil {
		return LockHolder{}
	}
	return parseHolder(v)
}
