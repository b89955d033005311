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
// 8 concurrent clients on 127.0.0.1; every page is fetched twice, then
// every page 10 times more with If-None-Match (304s). It reports the page
// time (p50, p99), URLs/s, the 304 time and the server's peak RSS. Run it
// alone, once:
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
	ctx := context.Background()
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
	cmd := osexec.Command(bin, "serve", "--db", dsn, "--table", "pages", "--columns", "loc=url,lastmod=updated_at",
		"--addr", "127.0.0.1:0", "--access-log=false", "--max-builds", strconv.Itoa(clients), "--base-url", "https://www.example.com/")
	stderr, _ := cmd.StderrPipe()
	start = time.Now()
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
			b.Logf("server ready in %s: %s", time.Since(start).Round(time.Millisecond), rest)
			break
		}
		b.Log(sc.Text())
	}
	if base == "" {
		b.Fatal("the server did not start")
	}
	go io.Copy(io.Discard, stderr)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}}
	fetch := func(path string, hdr ...string) (int, []byte, http.Header, time.Duration) {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		return res.StatusCode, body, res.Header, time.Since(t0)
	}
	_, idx, _, _ := fetch("sitemap.xml")
	var names []string
	for _, l := range locs(string(idx)) {
		names = append(names, l[strings.LastIndexByte(l, '/')+1:])
	}
	b.Logf("%d pages", len(names))

	// run sends the requests of work over the clients and returns each
	// one's time.
	run := func(work []string, hdr func(string) []string, check func(string, int, []byte, http.Header)) []time.Duration {
		var mu sync.Mutex
		var times []time.Duration
		next := make(chan string)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				for p := range next {
					code, body, h, d := fetch(p, hdr(p)...)
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
	etags := map[string]string{}
	var emu sync.Mutex
	var urls int64
	work := append(slices.Clone(names), names...)
	rand.Shuffle(len(work), func(i, j int) { work[i], work[j] = work[j], work[i] })
	b.ResetTimer()
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
	var nm []string
	for range 10 {
		nm = append(nm, names...)
	}
	nmTimes := run(nm, func(p string) []string { return []string{"If-None-Match", etags[p]} }, func(p string, code int, _ []byte, _ http.Header) {
		if code != 304 {
			b.Errorf("%s with its ETag: %d, want 304", p, code)
		}
	})
	b.StopTimer()
	rss := procStatus(b, cmd.Process.Pid)
	pct := func(t []time.Duration, p float64) float64 {
		return float64(t[min(len(t)-1, int(float64(len(t))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(pageTimes, 0.5), "page-p50-ms")
	b.ReportMetric(pct(pageTimes, 0.99), "page-p99-ms")
	b.ReportMetric(float64(urls)/wall.Seconds(), "URLs/s")
	b.ReportMetric(pct(nmTimes, 0.5), "304-p50-ms")
	b.ReportMetric(pct(nmTimes, 0.99), "304-p99-ms")
	b.ReportMetric(rss["VmHWM"]/1024, "server-peak-RSS-MB")
	b.Logf("%d rows, %d pages, %d clients: %d page requests in %s (%d URLs), page p50 %.1f ms p99 %.1f ms, %.0f URLs/s; %d 304s p50 %.2f ms p99 %.2f ms; server RSS now %.0f MB, peak %.0f MB",
		rows, len(names), clients, len(work), wall.Round(time.Millisecond), urls, pct(pageTimes, 0.5), pct(pageTimes, 0.99), float64(urls)/wall.Seconds(),
		len(nmTimes), pct(nmTimes, 0.5), pct(nmTimes, 0.99), rss["VmRSS"]/1024, rss["VmHWM"]/1024)
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
