package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkLoad is the load test of `sitemap serve` on PostgreSQL: a
// table of SITEMAP_BENCH_ROWS rows (default 10,000,000) served as pages of
// 50,000 URLs by the command (a separate process, so its RSS is its own) to
// 8 concurrent clients on 127.0.0.1, in two runs: cold (--no-cache, every
// page built from the table at its request, each page fetched once) and
// warm (the pages built into the page cache ahead of requests, each page
// fetched twice, then ten times more with If-None-Match: 304s). It reports
// the page time (p50, p99), URLs/s, the 304 time and the server's peak
// RSS. Run it alone, once:
//
//	go test -run '^$' -bench BenchmarkLoad -benchtime 1x -timeout 60m ./serve/
func BenchmarkLoad(b *testing.B) {
	rows := 10_000_000
	if s := os.Getenv("SITEMAP_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("SITEMAP_BENCH_ROWS=%q: give a number of rows", s)
		}
		rows = n
	}
	const clients = 8
	db, dsn := openPostgresDSN(b)
	start := time.Now()
	exec(b, db, `CREATE TABLE pages (url text NOT NULL, updated_at timestamptz NOT NULL)`)
	exec(b, db, `INSERT INTO pages SELECT 'https://www.example.com/products/' || lpad(i::text, 9, '0') || '/item',
		timestamptz '2026-01-01 00:00:00+00' + (i % 100000) * interval '1 minute' FROM generate_series(1, $1) i`, rows)
	exec(b, db, `ALTER TABLE pages ADD PRIMARY KEY (url)`)
	exec(b, db, `VACUUM ANALYZE pages`)
	b.Logf("table of %d rows filled in %s", rows, time.Since(start).Round(time.Second))

	bin := filepath.Join(b.TempDir(), "sitemap")
	if out, err := osexec.Command("go", "build", "-o", bin, "../cmd/sitemap").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	b.ResetTimer()
	// Cold: every page built from the table at each request (--no-cache),
	// each page once.
	cold := loadRun(b, bin, dsn, clients, false)
	// Warm: the pages built into the cache ahead of requests, each page
	// fetched twice, then ten times more with its ETag.
	warm := loadRun(b, bin, dsn, clients, true)
	b.StopTimer()
	b.ReportMetric(cold.p50, "cold-page-p50-ms")
	b.ReportMetric(cold.p99, "cold-page-p99-ms")
	b.ReportMetric(cold.urlsPerSec, "cold-URLs/s")
	b.ReportMetric(warm.p50, "page-p50-ms")
	b.ReportMetric(warm.p99, "page-p99-ms")
	b.ReportMetric(warm.urlsPerSec, "URLs/s")
	b.ReportMetric(warm.nm50, "304-p50-ms")
	b.ReportMetric(warm.nm99, "304-p99-ms")
	b.ReportMetric(max(cold.rssMB, warm.rssMB), "server-peak-RSS-MB")
}

// loadResult is what one server run measured.
type loadResult struct {
	p50, p99, urlsPerSec, nm50, nm99, rssMB float64
}

// loadRun starts `sitemap serve` on the table and sends it the requests
// of one phase (see BenchmarkLoad).
func loadRun(b *testing.B, bin, dsn string, clients int, cache bool) loadResult {
	ctx := context.Background()
	args := []string{"serve", "--db", dsn, "--table", "pages", "--columns", "loc=url,lastmod=updated_at",
		"--addr", "127.0.0.1:0", "--access-log=false", "--max-builds", strconv.Itoa(clients), "--base-url", "https://www.example.com/"}
	phase := "warm"
	if !cache {
		args = append(args, "--no-cache")
		phase = "cold"
	}
	cmd := osexec.Command(bin, args...)
	stderr, _ := cmd.StderrPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	base := ""
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "sitemap serve: listening on "); ok {
			u, _, _ := strings.Cut(rest, " ")
			base = strings.TrimSuffix(u, "sitemap.xml")
			b.Logf("%s: server ready in %s: %s", phase, time.Since(start).Round(time.Millisecond), rest)
			break
		}
		b.Log(sc.Text())
	}
	if base == "" {
		b.Fatal("the server did not start")
	}
	go io.Copy(io.Discard, stderr)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}}
	// fetch reads the answer into buf (each client reuses its own).
	fetch := func(buf *bytes.Buffer, path string, hdr ...string) (int, []byte, http.Header, time.Duration) {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		_, err = buf.ReadFrom(res.Body)
		res.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		return res.StatusCode, buf.Bytes(), res.Header, time.Since(t0)
	}
	var scratch bytes.Buffer
	_, idx, _, _ := fetch(&scratch, "sitemap.xml")
	var names []string
	for _, l := range locs(string(idx)) {
		names = append(names, l[strings.LastIndexByte(l, '/')+1:])
	}
	if cache {
		t0 := time.Now()
		for {
			_, m, _, _ := fetch(&scratch, "metrics")
			if strings.Contains(string(m), fmt.Sprintf("sitemap_serve_warmed_pages_total %d\n", len(names))) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		b.Logf("warm: %d pages built into the cache in %s", len(names), time.Since(t0).Round(time.Millisecond))
	}

	// run sends the requests of work over the clients and returns each
	// one's time.
	run := func(work []string, hdr func(string) []string, check func(string, int, []byte, http.Header)) []time.Duration {
		var mu sync.Mutex
		var times []time.Duration
		next := make(chan string)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				buf := bytes.NewBuffer(make([]byte, 0, 8<<20))
				for p := range next {
					code, body, h, d := fetch(buf, p, hdr(p)...)
					check(p, code, body, h)
					mu.Lock()
					times = append(times, d)
					mu.Unlock()
				}
			})
		}
		for _, p := range work {
			next <- p
		}
		close(next)
		wg.Wait()
		slices.Sort(times)
		return times
	}
	pct := func(t []time.Duration, p float64) float64 {
		if len(t) == 0 {
			return 0
		}
		return float64(t[min(len(t)-1, int(float64(len(t))*p))].Microseconds()) / 1000
	}
	etags := map[string]string{}
	var emu sync.Mutex
	var urls int64
	work := slices.Clone(names)
	if cache {
		work = append(work, names...)
	}
	rand.Shuffle(len(work), func(i, j int) { work[i], work[j] = work[j], work[i] })
	t0 := time.Now()
	pageTimes := run(work, func(string) []string { return nil }, func(p string, code int, body []byte, h http.Header) {
		if code != 200 {
			b.Errorf("%s: %d", p, code)
		}
		emu.Lock()
		etags[p] = h.Get("ETag")
		urls += int64(bytes.Count(body, []byte("<url>")))
		emu.Unlock()
	})
	wall := time.Since(t0)
	var nmTimes []time.Duration
	if cache {
		var nm []string
		for range 10 {
			nm = append(nm, names...)
		}
		nmTimes = run(nm, func(p string) []string { return []string{"If-None-Match", etags[p]} }, func(p string, code int, _ []byte, _ http.Header) {
			if code != 304 {
				b.Errorf("%s with its ETag: %d, want 304", p, code)
			}
		})
	}
	rss := procStatus(b, cmd.Process.Pid)
	r := loadResult{p50: pct(pageTimes, 0.5), p99: pct(pageTimes, 0.99), urlsPerSec: float64(urls) / wall.Seconds(),
		nm50: pct(nmTimes, 0.5), nm99: pct(nmTimes, 0.99), rssMB: rss["VmHWM"] / 1024}
	b.Logf("%s: %d pages, %d clients: %d page requests in %s (%d URLs), page p50 %.1f ms p99 %.1f ms, %.0f URLs/s; %d 304s p50 %.2f ms p99 %.2f ms; server RSS now %.0f MB, peak %.0f MB",
		phase, len(names), clients, len(work), wall.Round(time.Millisecond), urls, r.p50, r.p99, r.urlsPerSec,
		len(nmTimes), r.nm50, r.nm99, rss["VmRSS"]/1024, r.rssMB)
	return r
}

// procStatus reads the kB fields of /proc/PID/status.
func procStatus(b *testing.B, pid int) map[string]float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	m := map[string]float64{}
	for line := range strings.SplitSeq(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if f := strings.Fields(v); ok && len(f) == 2 && f[1] == "kB" {
			n, _ := strconv.ParseFloat(f[0], 64)
			m[k] = n
		}
	}
	return m
}
