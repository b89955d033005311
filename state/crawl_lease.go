package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/internal/plural"
)

// leaseSchema is schema version 4 of the PostgreSQL state: the shared
// crawl. A URL's lease (who holds it, until when, by the database's
// clock) and when it was fetched; the workers with their heartbeats; the
// hosts with their next allowed request time and the gap between two.
// The shared crawl is PostgreSQL's alone (SQLite has no clock of its
// own nor SKIP LOCKED; one process crawls with a file): its SQL is
// written for PostgreSQL only.
const leaseSchema = `
ALTER TABLE sitemap_crawl_urls ADD COLUMN IF NOT EXISTS leased_by TEXT NOT NULL DEFAULT '';
ALTER TABLE sitemap_crawl_urls ADD COLUMN IF NOT EXISTS lease_until TIMESTAMPTZ;
ALTER TABLE sitemap_crawl_urls ADD COLUMN IF NOT EXISTS fetched_at TIMESTAMPTZ;
CREATE INDEX IF NOT EXISTS sitemap_crawl_leases ON sitemap_crawl_urls (leased_by) WHERE state = 0;
CREATE TABLE IF NOT EXISTS sitemap_crawl_workers (
	id       TEXT PRIMARY KEY,
	host     TEXT NOT NULL DEFAULT '',
	pid      INTEGER NOT NULL DEFAULT 0,
	lease_ms DOUBLE PRECISION NOT NULL,
	started  TIMESTAMPTZ NOT NULL,
	seen     TIMESTAMPTZ NOT NULL,
	pages    BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sitemap_crawl_hosts (
	host    TEXT PRIMARY KEY,
	next_at TIMESTAMPTZ NOT NULL,
	gap_ms  DOUBLE PRECISION NOT NULL
)`

// sharedLog is the crawl log of a PostgreSQL [DB]: a [SharedCrawlLog].
type sharedLog struct{ crawlLog }

var _ SharedCrawlLog = sharedLog{}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Update implements [CrawlLog]: its CrawlTx is a [LeaseTx].
func (c sharedLog) Update(ctx context.Context, fn func(CrawlTx) error) error {
	return c.tx(ctx, func(t crawlTx) error { return fn(leaseTx{t}) })
}

// txRetry is tx, tried again while it fails with ErrConflict.
func (c sharedLog) txRetry(ctx context.Context, f func(crawlTx) error) error {
	return retry(ctx, func() error { return c.tx(ctx, f) })
}

// retry runs f again, a few times, while it fails with ErrConflict
// (another transaction wrote the same rows at the same time: the
// database ended this one, and nothing was written).
func retry(ctx context.Context, f func() error) error {
	var err error
	for try := range 10 {
		if err = f(); !errors.Is(err, ErrConflict) {
			return err
		}
		if sleepCtx(ctx, time.Duration(try+1)*10*time.Millisecond) != nil {
			return err
		}
	}
	return err
}

// status reads the run's status with its row locked, so that workers
// joining, seeding or finishing at once see one another's writes.
func (t crawlTx) status(ctx context.Context) (string, error) {
	var status string
	err := t.row(ctx, `SELECT value FROM sitemap_crawl_meta WHERE key = 'status' FOR UPDATE`).Scan(&status)
	return status, err
}

// Join implements [SharedCrawlLog].
func (c sharedLog) Join(ctx context.Context, start string, now time.Time, w CrawlWorker, again bool) (CrawlRun, error) {
	err := c.s.read(func(x sess) error {
		_, err := x.exec(ctx, `INSERT INTO sitemap_crawl_meta (key, value) VALUES ('status', '') ON CONFLICT (key) DO NOTHING`)
		return err
	})
	if err != nil {
		return CrawlRun{}, fmt.Errorf("state: crawl: join: %w", err)
	}
	var r CrawlRun
	err = c.txRetry(ctx, func(t crawlTx) error {
		r = CrawlRun{Start: start}
		status, err := t.status(ctx)
		if err != nil {
			return err
		}
		prevStart, err := t.meta(ctx, "crawl_meta", "start")
		if err != nil {
			return err
		}
		if status == "running" && prevStart == start {
			if err := t.resume(ctx, &r); err != nil {
				return err
			}
			return t.addWorker(ctx, w)
		}
		if status == "finished" && prevStart == start && !again {
			v, err := t.meta(ctx, "crawl_meta", "run_time")
			if err != nil {
				return err
			}
			n, _ := strconv.ParseInt(v, 10, 64)
			return fmt.Errorf("%w (it started %s)", ErrCrawlFinished, time.Unix(0, n).UTC().Format(time.RFC3339))
		}
		var live int
		if err := t.row(ctx, `SELECT count(*) FROM sitemap_crawl_workers WHERE seen + lease_ms * interval '1 millisecond' > now() AND id <> $1`, w.ID).Scan(&live); err != nil {
			return err
		}
		if live > 0 {
			what := "the " + status + " crawl of " + prevStart
			if status == "running" {
				what = "a crawl of " + prevStart
			}
			return fmt.Errorf("%w: %s has %s; wait for it to end, or use another database", ErrCrawlBusy, what, plural.Of(live, "live worker", "live workers"))
		}
		r.Time = now.UTC()
		if err := t.newRun(ctx, start, r.Time, append(crawlTables, "crawl_workers", "crawl_hosts")); err != nil {
			return err
		}
		return t.addWorker(ctx, w)
	})
	if err != nil {
		return CrawlRun{}, fmt.Errorf("state: crawl: join %s: %w", start, err)
	}
	return r, nil
}

func (t crawlTx) addWorker(ctx context.Context, w CrawlWorker) error {
	_, err := t.exec(ctx, `INSERT INTO sitemap_crawl_workers (id, host, pid, lease_ms, started, seen) VALUES ($1, $2, $3, $4, now(), now())
		ON CONFLICT (id) DO UPDATE SET seen = now(), lease_ms = excluded.lease_ms`, w.ID, w.Host, w.PID, ms(w.Lease))
	return err
}

// ClaimSeed implements [SharedCrawlLog]: the status row is locked, so
// that one worker at a time looks at the seeding and claims it. The
// claim is the meta row seeded = "by:ID" (a run seeded is "1").
func (c sharedLog) ClaimSeed(ctx context.Context, worker string) (mine, seeded bool, err error) {
	err = c.txRetry(ctx, func(t crawlTx) error {
		mine, seeded = false, false
		status, err := t.status(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: the log holds no run", ErrCrawlLeft)
		}
		if err != nil {
			return err
		}
		v, err := t.meta(ctx, "crawl_meta", "seeded")
		if err != nil {
			return err
		}
		if v == "1" || status != "running" {
			seeded = true
			return nil
		}
		if by, ok := strings.CutPrefix(v, "by:"); ok && by != worker {
			var alive bool
			if err := t.row(ctx, `SELECT EXISTS (SELECT 1 FROM sitemap_crawl_workers WHERE id = $1 AND seen + lease_ms * interval '1 millisecond' > now())`, by).Scan(&alive); err != nil {
				return err
			}
			if alive {
				return nil
			}
		}
		mine = true
		return t.setMeta(ctx, "crawl_meta", "seeded", "by:"+worker)
	})
	if err != nil {
		return false, false, fmt.Errorf("state: crawl: claim the seeding: %w", err)
	}
	return mine, seeded, nil
}

// Lease implements [SharedCrawlLog].
func (c sharedLog) Lease(ctx context.Context, worker string, depth, n int, ttl time.Duration, admit func(CrawlTx, CrawlURL, bool) (bool, error)) ([]CrawlURL, error) {
	var out []CrawlURL
	var err error
	for try := 0; try < 5; try++ {
		out, err = c.lease(ctx, worker, depth, n, ttl, admit)
		if !errors.Is(err, ErrConflict) {
			break
		}
	}
	return out, err
}

func (c sharedLog) lease(ctx context.Context, worker string, depth, n int, ttl time.Duration, admit func(CrawlTx, CrawlURL, bool) (bool, error)) ([]CrawlURL, error) {
	var out []CrawlURL
	err := c.tx(ctx, func(t crawlTx) error {
		out = out[:0]
		var cands []CrawlURL
		var counted []bool
		rows, err := t.query(ctx, `SELECT loc, depth, referrer, pathkey, counted FROM sitemap_crawl_urls
			WHERE state = 0 AND depth = $1 AND (lease_until IS NULL OR lease_until < now())
			ORDER BY loc LIMIT $2 FOR UPDATE SKIP LOCKED`, depth, n)
		err = scanAll(rows, err, func(rows *sql.Rows) error {
			var u CrawlURL
			var k bool
			err := rows.Scan(&u.Loc, num(&u.Depth), &u.Referrer, &u.PathKey, &k)
			cands, counted = append(cands, u), append(counted, k)
			return err
		})
		if err != nil {
			return err
		}
		locs := make([]string, 0, len(cands))
		for i, u := range cands {
			ok, err := admit(leaseTx{t}, u, counted[i])
			if err != nil {
				return err
			}
			if ok {
				out = append(out, u)
				locs = append(locs, u.Loc)
			}
		}
		if len(locs) == 0 {
			return nil
		}
		_, err = t.exec(ctx, `UPDATE sitemap_crawl_urls SET leased_by = $1, lease_until = now() + $2::float8 * interval '1 millisecond' WHERE loc = ANY($3::text[])`,
			worker, ms(ttl), locs)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("state: crawl: lease: %w", err)
	}
	return out, nil
}

// Holding implements [SharedCrawlLog].
func (c sharedLog) Holding(ctx context.Context, worker string, locs []string) (map[string]bool, error) {
	var held map[string]bool
	err := c.s.read(func(x sess) (err error) {
		held, err = holding(ctx, x, worker, locs, "")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("state: crawl: holding: %w", err)
	}
	return held, nil
}

// Renew implements [SharedCrawlLog]. It does not wait for the store's
// mutex: a long Update (Finish's click depths) does not hold up the
// renewal of the leases.
func (c sharedLog) Renew(ctx context.Context, worker string, ttl time.Duration, pages int) error {
	return c.s.read(func(x sess) error {
		n, err := x.exec(ctx, `UPDATE sitemap_crawl_workers SET seen = now(), pages = $2, lease_ms = $3 WHERE id = $1`, worker, pages, ms(ttl))
		if err != nil {
			return fmt.Errorf("state: crawl: renew: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("state: crawl: renew %s: %w", worker, ErrCrawlLeft)
		}
		if _, err := x.exec(ctx, `UPDATE sitemap_crawl_urls SET lease_until = now() + $2::float8 * interval '1 millisecond' WHERE leased_by = $1 AND state = 0`, worker, ms(ttl)); err != nil {
			return fmt.Errorf("state: crawl: renew: %w", err)
		}
		return nil
	})
}

// Leave implements [SharedCrawlLog].
func (c sharedLog) Leave(ctx context.Context, worker string) error {
	return c.s.read(func(x sess) error {
		if _, err := x.exec(ctx, `UPDATE sitemap_crawl_urls SET leased_by = '', lease_until = NULL WHERE leased_by = $1 AND state = 0`, worker); err != nil {
			return fmt.Errorf("state: crawl: leave: %w", err)
		}
		if _, err := x.exec(ctx, `DELETE FROM sitemap_crawl_workers WHERE id = $1`, worker); err != nil {
			return fmt.Errorf("state: crawl: leave: %w", err)
		}
		return nil
	})
}

// Politeness implements [SharedCrawlLog].
func (c sharedLog) Politeness(ctx context.Context, host string, gap time.Duration) error {
	return c.s.read(func(x sess) error {
		_, err := x.exec(ctx, `INSERT INTO sitemap_crawl_hosts AS h (host, next_at, gap_ms) VALUES ($1, clock_timestamp(), $2)
			ON CONFLICT (host) DO UPDATE SET gap_ms = greatest(h.gap_ms, excluded.gap_ms)`, host, ms(gap))
		if err != nil {
			return fmt.Errorf("state: crawl: politeness of %s: %w", host, err)
		}
		return nil
	})
}

// millis reads one float of milliseconds of the host's row: 0 when the
// host has no row (or the query changed none).
func (c sharedLog) millis(ctx context.Context, what, host, q string, args ...any) (time.Duration, error) {
	var v float64
	err := c.s.read(func(x sess) error { return x.row(ctx, q, args...).Scan(&v) })
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("state: crawl: %s of %s: %w", what, host, err)
	}
	return time.Duration(v * float64(time.Millisecond)), nil
}

// Slot implements [SharedCrawlLog]: one UPDATE moves the host's next
// time one gap past the later of itself and now, and returns the wait
// until the slot it took, all by one reading of the database's clock.
// A host without a gap whose next time has passed needs no reservation:
// the row is then neither locked nor written.
func (c sharedLog) Slot(ctx context.Context, host string) (time.Duration, error) {
	return c.millis(ctx, "slot", host, `WITH c AS (SELECT clock_timestamp() AS t)
		UPDATE sitemap_crawl_hosts SET next_at = greatest(next_at, c.t) + gap_ms * interval '1 millisecond' FROM c
		WHERE host = $1 AND (gap_ms > 0 OR next_at > c.t)
		RETURNING (extract(epoch FROM next_at - c.t) * 1000 - gap_ms)::float8`, host)
}

// Pause implements [SharedCrawlLog].
func (c sharedLog) Pause(ctx context.Context, host string, d time.Duration) error {
	return c.s.read(func(x sess) error {
		_, err := x.exec(ctx, `WITH c AS (SELECT clock_timestamp() + $2::float8 * interval '1 millisecond' AS t)
			UPDATE sitemap_crawl_hosts SET next_at = greatest(next_at, c.t), paused_until = greatest(paused_until, c.t) FROM c WHERE host = $1`, host, ms(d))
		if err != nil {
			return fmt.Errorf("state: crawl: pause %s: %w", host, err)
		}
		return nil
	})
}

// Paused implements [SharedCrawlLog].
func (c sharedLog) Paused(ctx context.Context, host string) (time.Duration, error) {
	return c.millis(ctx, "pause", host, `SELECT coalesce(extract(epoch FROM paused_until - clock_timestamp()) * 1000, 0)::float8 FROM sitemap_crawl_hosts WHERE host = $1`, host)
}

// FinishShared implements [SharedCrawlLog].
func (c sharedLog) FinishShared(ctx context.Context, reason string) (bool, error) {
	won := false
	err := c.txRetry(ctx, func(t crawlTx) error {
		status, err := t.status(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil || status != "running" {
			return err
		}
		if reason == "" {
			// A run whose seeds are not in has no frontier yet.
			if seeded, err := t.meta(ctx, "crawl_meta", "seeded"); err != nil || seeded != "1" {
				return err
			}
			var pending int
			if err := t.row(ctx, `SELECT count(*) FROM sitemap_crawl_urls WHERE state = 0`).Scan(&pending); err != nil || pending > 0 {
				return err
			}
		}
		if err := t.Finish(ctx, reason); err != nil {
			return err
		}
		won = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("state: crawl: finish: %w", err)
	}
	return won, nil
}

// Status implements [SharedCrawlLog].
func (c sharedLog) Status(ctx context.Context) (CrawlStatus, error) {
	var st CrawlStatus
	var runTime string
	err := c.s.read(func(x sess) error {
		err := x.row(ctx, `SELECT now(),
			coalesce((SELECT value FROM sitemap_crawl_meta WHERE key = 'status'), ''),
			coalesce((SELECT value FROM sitemap_crawl_meta WHERE key = 'start'), ''),
			coalesce((SELECT value FROM sitemap_crawl_meta WHERE key = 'run_time'), '0'),
			coalesce((SELECT value = '1' FROM sitemap_crawl_meta WHERE key = 'seeded'), false),
			(SELECT count(*) FROM sitemap_crawl_urls WHERE state = 0),
			(SELECT count(*) FROM sitemap_crawl_urls WHERE state = 0 AND lease_until > now()),
			(SELECT count(*) FROM sitemap_crawl_urls WHERE state IN (2, 3)),
			(SELECT count(*) FROM sitemap_crawl_urls WHERE fetched = 1),
			(SELECT count(*) FROM sitemap_crawl_urls WHERE fetched_at > now() - $1::float8 * interval '1 millisecond')`,
			ms(RecentWindow)).Scan(&st.Now, &st.State, &st.Start, &runTime, &st.Seeded, &st.Pending, &st.Leased, &st.Decided, &st.Fetched, &st.Recent)
		if err != nil {
			return err
		}
		rows, err := x.query(ctx, `SELECT id, host, pid, lease_ms, started, seen, pages, seen + lease_ms * interval '1 millisecond' > now()
			FROM sitemap_crawl_workers ORDER BY id`)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var w CrawlWorker
			var lease float64
			err := rows.Scan(&w.ID, &w.Host, &w.PID, &lease, &w.Started, &w.Seen, &w.Pages, &w.Alive)
			w.Lease = time.Duration(lease * float64(time.Millisecond))
			st.Workers = append(st.Workers, w)
			return err
		})
	})
	if err != nil {
		return st, fmt.Errorf("state: crawl: status: %w", err)
	}
	if n, _ := strconv.ParseInt(runTime, 10, 64); n != 0 {
		st.Time = time.Unix(0, n).UTC()
	}
	return st, nil
}
