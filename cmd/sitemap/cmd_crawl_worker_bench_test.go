package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// BenchmarkCrawlWorkers crawls a site of 1,021 pages (20 sections of
// 50) on 127.0.0.1 with 1, 2 and 4 `sitemap crawl --worker` processes
// sharing one PostgreSQL (no rate limit, --concurrency 4 each) and
// reports the pages fetched per second of wall time, from the start of
// the first worker to the end of the last (the publisher's sitemap
// written); workers=0 is one `sitemap crawl` process without --worker on
// the same database, for comparison. The site answers at once, or after
// 50 ms (latency=50ms: a server's latency, what more workers overcome).
// bench/scale.sh runs it.
func BenchmarkCrawlWorkers(b *testing.B) {
	for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
		for _, n := range []int{0, 1, 2, 4} {
			b.Run(fmt.Sprintf("latency=%s/workers=%d", delay, n), func(b *testing.B) { benchCrawlWorkers(b, delay, n) })
		}
	}
}

func benchCrawlWorkers(b *testing.B, delay time.Duration, n int) {
	for range b.N {
		site := newWorkerSite(b, 0, 20, 50)
		site.delay = delay
		db := pgtest.DB(b)
		dir := b.TempDir()
		t0 := time.Now()
		var cmds []*exec.Cmd
		var logs []string
		for i := range max(n, 1) {
			args := []string{"crawl", site.URL + "/", "--state", db, "--out", filepath.Join(dir, "out"), "--rate", "0", "--concurrency", "4"}
			if n > 0 {
				args = append(args, "--worker")
			}
			cmd, log := startWorker(b, dir, fmt.Sprintf("w%d", i), args...)
			cmds, logs = append(cmds, cmd), append(logs, log)
		}
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				b.Fatalf("worker %d: %v (%s)", i, err, logs[i])
			}
		}
		d := time.Since(t0)
		site.mu.Lock()
		pages := len(site.hits)
		site.mu.Unlock()
		if pages != 1021 {
			b.Fatalf("%d pages fetched, want 1021", pages)
		}
		if got := len(locs(b, filepath.Join(dir, "out", "sitemap.xml"))); got != 1021 {
			b.Fatalf("%d pages listed", got)
		}
		b.ReportMetric(float64(pages)/d.Seconds(), "pages/s")
	}
}
