package state

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/pgtest"
)

func openPG(t testing.TB, url string, o PostgresOptions) *Postgres {
	t.Helper()
	s, err := OpenPostgres(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPostgresRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s := openPG(t, url, PostgresOptions{})
	if _, err := s.db.ExecContext(ctx, `UPDATE sitemap_meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := OpenPostgres(ctx, url, PostgresOptions{})
	if err == nil || !strings.Contains(err.Error(), "schema version") {
		t.Fatalf("opened a database of a newer schema: %v", err)
	}
}

// Open picks the backend by the name.
func TestOpenPicksBackend(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.path != "" {
		t.Errorf("Open(%q) opened the file %s, want PostgreSQL", url, s.path)
	}
	s.Close()
	s, err = Open(ctx, t.TempDir()+"/s.db", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.path == "" {
		t.Errorf("Open(file) opened no file")
	}
	s.Close()
	if _, err := Open(ctx, "postgres://nobody@127.0.0.1:1/x?connect_timeout=2", Options{}); err == nil {
		t.Error("Open of an unreachable server succeeded")
	}
}

// BenchmarkPostgresStampMany stamps 100k URLs per iteration in batches of
// 5,000 (two runs, the second with a tenth changed) and reports entries
// per second.
func BenchmarkPostgresStampMany(b *testing.B) {
	ctx := context.Background()
	const n, batch = 100_000, 5000
	for b.Loop() {
		b.StopTimer()
		s := openPG(b, pgtest.DB(b), PostgresOptions{})
		b.StartTimer()
		start := time.Now()
		us := make([]*sitemap.URL, batch)
		for run := range 2 {
			now := time.Date(2026, 1, 1+run, 0, 0, 0, 0, time.UTC)
			for i := 0; i < n; i += batch {
				for j := range batch {
					u := &sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/products/item-%d", i+j), ChangeFreq: sitemap.Weekly}
					if run == 1 && (i+j)%10 == 0 {
						u.ChangeFreq = sitemap.Daily
						u.Images = []sitemap.Image{{Loc: "https://www.example.com/i.jpg"}}
					}
					us[j] = u
				}
				if err := s.StampMany(ctx, us, now); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(2*n)/time.Since(start).Seconds(), "stamps/s")
	}
}

// A database of schema version 1 (before submissions) is migrated when
// opened, its records kept.
func TestPostgresMigrateVersion1(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s := openPG(t, url, PostgresOptions{})
	if err := s.Put(ctx, Record{Loc: "https://x/kept", ContentHash: "h"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// Back to version 1: without the submissions table.
	if _, err := s.db.ExecContext(ctx, `DROP TABLE sitemap_submissions; UPDATE sitemap_meta SET value = '1' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openPG(t, url, PostgresOptions{})
	defer s.Close()
	if err := s.RecordSubmissions(ctx, []Submission{{Loc: "https://x/a", Version: "v", At: time.Now(), Outcome: OutcomeSent}}); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := s.Lookup(ctx, "https://x/kept"); err != nil || !ok || r.ContentHash != "h" {
		t.Fatalf("record lost by the migration: %+v %v %v", r, ok, err)
	}
	var v string
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM sitemap_meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != strconv.Itoa(pgSchemaVersion) {
		t.Fatalf("schema version %q, %v", v, err)
	}
}

// Several processes opening a new database at once all get the schema.
func TestPostgresConcurrentOpen(t *testing.T) {
	url := pgtest.DB(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := OpenPostgres(context.Background(), url, PostgresOptions{})
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// Lookups after Prefetch answer as without it, and see the writes made
// since, flushed or not.
func TestPostgresPrefetch(t *testing.T) {
	ctx := context.Background()
	s := openPG(t, pgtest.DB(t), PostgresOptions{BatchSize: 2})
	defer s.Close()
	a := Record{Loc: "https://x/a", ContentHash: "a1"}
	if err := s.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Prefetch(ctx, []string{"https://x/a", "https://x/b", "https://x/a"}); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := s.Lookup(ctx, "https://x/a"); err != nil || !ok || r.ContentHash != "a1" {
		t.Fatalf("Lookup(a) after Prefetch = %+v %v %v", r, ok, err)
	}
	if _, ok, err := s.Lookup(ctx, "https://x/b"); err != nil || ok {
		t.Fatalf("Lookup(b) after Prefetch = %v %v, want absent", ok, err)
	}
	// b written (buffered), then a and c (the batch of 2 is written out).
	for _, r := range []Record{{Loc: "https://x/b", ContentHash: "b1"}, {Loc: "https://x/a", ContentHash: "a2"}, {Loc: "https://x/c"}} {
		if err := s.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for loc, want := range map[string]string{"https://x/a": "a2", "https://x/b": "b1"} {
		if r, ok, err := s.Lookup(ctx, loc); err != nil || !ok || r.ContentHash != want {
			t.Errorf("Lookup(%s) after a write = %+v %v %v, want hash %s", loc, r, ok, err, want)
		}
	}
}
