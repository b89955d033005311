package pgfeed

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkCommitToChange measures the time from a single-row INSERT's
// COMMIT (its Exec returning) to fn's call with its key, one commit at a
// time, and reports the p50 and p99 of b.N commits:
//
//	go test ./serve/pgfeed/ -run '^$' -bench CommitToChange -benchtime 200x
func BenchmarkCommitToChange(b *testing.B) {
	for _, v := range []variant{logicalFeed, notifyFeed} {
		b.Run(v.name, func(b *testing.B) {
			db, dsn := openDB(b)
			exec(b, db, `CREATE TABLE pages (id int PRIMARY KEY, url text)`)
			o := Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}
			v.prepare(b, db, o)
			type seen struct {
				c  Change
				at time.Time
			}
			got := make(chan seen, 16)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- v.watch(ctx, o, func(c Change) { got <- seen{c, time.Now()} }, defaults())
			}()
			defer func() { cancel(); <-done }()
			if s := <-got; !s.c.All {
				b.Fatalf("first change %s", show(s.c))
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				if _, err := db.Exec(`INSERT INTO pages VALUES ($1, '/p')`, i); err != nil {
					b.Fatal(err)
				}
				committed := time.Now()
				select {
				case s := <-got:
					if !same(s.c, keys(fmt.Sprint(i))) {
						b.Fatalf("got %s, want %d", show(s.c), i)
					}
					lat = append(lat, s.at.Sub(committed))
				case <-time.After(10 * time.Second):
					b.Fatalf("no change for row %d within 10s", i)
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(q(0.5), "p50-ms")
			b.ReportMetric(q(0.99), "p99-ms")
			b.ReportMetric(q(1), "max-ms")
		})
	}
}

// BenchmarkTriggerCost measures what InstallTrigger's triggers cost the
// writers: a single-row INSERT (one statement, one transaction) and an
// INSERT of 10,000 rows into an empty table, without and with the triggers.
func BenchmarkTriggerCost(b *testing.B) {
	for _, triggers := range []bool{false, true} {
		name := "plain"
		if triggers {
			name = "triggers"
		}
		db, _ := openDB(b)
		exec(b, db, `CREATE TABLE pages (id int PRIMARY KEY, url text)`)
		if triggers {
			if err := InstallTrigger(context.Background(), db, "pages", "id"); err != nil {
				b.Fatal(err)
			}
		}
		next := 0
		b.Run(name+"/row", func(b *testing.B) {
			for range b.N {
				if _, err := db.Exec(`INSERT INTO pages VALUES ($1, '/p')`, next); err != nil {
					b.Fatal(err)
				}
				next++
			}
		})
		b.Run(name+"/10000-rows", func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				exec(b, db, `TRUNCATE pages`) // each load into the same empty table
				b.StartTimer()
				if _, err := db.Exec(`INSERT INTO pages SELECT i, '/p' FROM generate_series(1, 10000) i`); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
