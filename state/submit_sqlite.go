package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
// outcome OutcomeSent.
func (s *SQLite) Submitted(ctx context.Context, loc, version string) (bool, error) {
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	st, err := s.stmt(ctx, `SELECT 1 FROM submissions WHERE loc = ? AND version = ? AND outcome = 'sent'`)
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
