package state

import (
	"context"
	"errors"
	"fmt"
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
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM sitemap_submissions WHERE loc = $1 AND version = $2 AND outcome = 'sent'`, loc, version).Scan(&one)
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
