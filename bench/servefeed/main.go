// Command servefeed measures `sitemap serve --feed logical` following a
// PostgreSQL table under change (issue 20's benchmark; bench/servefeed.sh,
// `sh bench/run.sh servefeed`).
//
//	go run ./bench/servefeed -sitemap bench/out/sitemap -rows 10000000
//
// It starts its own PostgreSQL (initdb into a new directory under -work,
// wal_level=logical; run as the "postgres" user when run as root), creates
// pages(id bigint primary key, url text not null unique, updated_at
// timestamptz not null) with -rows rows (one INSERT … generate_series, then
// ANALYZE), and starts -sitemap serve on it with --feed logical, a
// --cache-dir and IndexNow submission to a fake endpoint of its own, which
// records when each URL arrives. Once serve is up and has settled (its
// start-up build, the feed's first full check and the start-up IndexNow
// submission done), it commits -rate changes a second for -duration (an
// INSERT of a new row, a rename UPDATE pages SET url=…, a lastmod UPDATE,
// in turn; each its own transaction, synchronous_commit=on) while
// -clients clients read random pages (with and without gzip, with
// If-None-Match of the last ETag they saw). One change in -sample is
// followed: its page is polled every 20 ms until it answers bytes holding
// the change.
//
// It prints a Markdown report (also written to -report): start-up build
// time and RSS, COMMIT→new ETag and COMMIT→IndexNow p50/p99, page fetch
// times, serve's peak RSS, and the CPU of serve, of PostgreSQL and of the
// WAL sender that decodes the changes for serve's feed.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

const base = "https://www.example.com/"

type config struct {
	sitemap  string
	rows     int
	perPage  int
	rate     int
	duration time.Duration
	clients  int
	sample   int
	work     string
	report   string
	settle   time.Duration
	pprof    string
	follow   time.Duration
	indexnow bool
}

func main() {
	var c config
	flag.StringVar(&c.sitemap, "sitemap", "bench/out/sitemap", "the sitemap `BINARY` to run")
	flag.IntVar(&c.rows, "rows", 10_000_000, "rows of the table")
	flag.IntVar(&c.perPage, "per-page", 0, "serve's --per-page (0: its default)")
	flag.IntVar(&c.rate, "rate", 100, "changes committed per second")
	flag.DurationVar(&c.duration, "duration", 60*time.Second, "how long changes are committed")
	flag.IntVar(&c.clients, "clients", 8, "clients reading pages meanwhile")
	flag.IntVar(&c.sample, "sample", 10, "follow one change in `N` to its page")
	flag.StringVar(&c.work, "work", "bench/out/servefeed", "`DIR` for the database, cache and logs (emptied first)")
	flag.StringVar(&c.report, "report", "", "also write the report to `FILE`")
	flag.DurationVar(&c.settle, "settle-timeout", 30*time.Minute, "longest wait for serve to settle after start")
	flag.DurationVar(&c.follow, "follow-timeout", 10*time.Minute, "longest wait for a followed change to show in its page, or a changed URL at IndexNow")
	flag.BoolVar(&c.indexnow, "indexnow", true, "run serve with --indexnow-key-file (false: without, to compare its memory and CPU)")
	flag.StringVar(&c.pprof, "perf", "", "record `perf` samples of serve during the changes into this file (needs perf)")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "servefeed:", err)
		os.Exit(1)
	}
}

// logf is the progress log, on standard error with the load average.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s [load %s] %s\n", time.Now().UTC().Format("15:04:05"), loadavg(), fmt.Sprintf(format, args...))
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func run(c config) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	work, err := filepath.Abs(c.work)
	if err != nil {
		return err
	}
	os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	var rep report
	rep.cfg = c
	rep.loadStart = loadavg()
	rep.date = time.Now().UTC()

	// PostgreSQL.
	pg, err := startPostgres(work)
	if err != nil {
		return err
	}
	defer pg.stop()
	logf("postgres up at %s", pg.dsn)
	conn, err := pgx.Connect(ctx, pg.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	t0 := time.Now()
	for _, q := range []string{
		`CREATE TABLE pages (id bigint NOT NULL, url text NOT NULL, updated_at timestamptz NOT NULL)`,
		fmt.Sprintf(`INSERT INTO pages SELECT i, 'https://www.example.com/products/category-' || (i %% 97) || '/item-' || i || '.html', timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second' FROM generate_series(1, %d) AS i`, c.rows),
		`ALTER TABLE pages ADD PRIMARY KEY (id)`,
		`ALTER TABLE pages ADD UNIQUE (url)`,
		`ANALYZE pages`,
		`CHECKPOINT`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%.60s…: %w", q, err)
		}
	}
	rep.load = time.Since(t0)
	conn.QueryRow(ctx, `SELECT pg_total_relation_size('pages')`).Scan(&rep.tableBytes)
	logf("loaded %d rows in %s (%s with indexes)", c.rows, rep.load.Round(time.Second), mb(rep.tableBytes))

	// The fake IndexNow endpoint.
	inow := newIndexNow()
	iln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(iln, inow)
	keyFile := filepath.Join(work, "indexnow.key")
	key := make([]byte, 16)
	rand.Read(key)
	if err := os.WriteFile(keyFile, []byte(hex.EncodeToString(key)+"\n"), 0o644); err != nil {
		return err
	}

	// serve.
	sln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := sln.Addr().String()
	sln.Close()
	cacheDir := filepath.Join(work, "cache")
	args := []string{"serve", "--db", pg.dsn, "--table", "pages", "--key", "id", "--feed", "logical",
		"--base-url", base, "--cache-dir", cacheDir, "--addr", addr, "--access-log=false"}
	if c.perPage > 0 {
		args = append(args, "--per-page", strconv.Itoa(c.perPage))
	}
	if c.indexnow {
		args = append(args, "--indexnow-key-file", keyFile, "--indexnow-state", filepath.Join(work, "indexnow-state.db"),
			"--indexnow-endpoint", "http://"+iln.Addr().String()+"/indexnow")
	}
	logf("starting %s %s", c.sitemap, strings.Join(args, " "))
	srv := exec.CommandContext(ctx, c.sitemap, args...)
	srv.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := srv.StderrPipe()
	if err != nil {
		return err
	}
	logFile, err := os.Create(filepath.Join(work, "serve.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	t0 = time.Now()
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { srv.Process.Signal(syscall.SIGTERM); srv.Wait() }()
	pid := srv.Process.Pid
	ready := make(chan string, 1)
	var hwmAtReady atomic.Int64
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintf(logFile, "%s %s\n", time.Now().UTC().Format("15:04:05.000"), line)
			if strings.Contains(line, "listening on ") {
				hwmAtReady.Store(procKB(pid, "VmHWM"))
				select {
				case ready <- line:
				default:
				}
			}
		}
	}()
	var cpuStart cpuSample
	cpuStart.take(pid, pg.pid)
	select {
	case line := <-ready:
		rep.ready = time.Since(t0)
		rep.readyLine = line
	case <-time.After(c.settle):
		return errors.New("serve did not start; see serve.log")
	}
	rep.hwmReady = hwmAtReady.Load()
	logf("serve up after %s: %s (VmHWM %d MB)", rep.ready.Round(time.Millisecond), rep.readyLine, rep.hwmReady/1024)

	// Settle: the feed's first check of every page and the start-up
	// IndexNow submission, until serve uses no CPU for 5 s.
	t1 := time.Now()
	prev := procCPU(pid)
	idle := 0
	for idle < 5 {
		if time.Since(t1) > c.settle {
			return errors.New("serve did not settle")
		}
		time.Sleep(time.Second)
		cur := procCPU(pid)
		if cur-prev < 3 { // below 3% of a core
			idle++
		} else {
			idle = 0
		}
		prev = cur
	}
	rep.settled = time.Since(t0) - 5*time.Second
	rep.hwmSettled = procKB(pid, "VmHWM")
	var cpuSettled cpuSample
	cpuSettled.take(pid, pg.pid)
	rep.startCPU = cpuSettled.sub(cpuStart)
	rep.startPosts, rep.startURLs = inow.counts()
	rep.cacheBytes = duBytes(cacheDir)
	rep.stateBytes = duBytes(filepath.Join(work, "indexnow-state.db"))
	logf("settled after %s: serve CPU %.1fs, IndexNow %d POSTs, %d URLs, VmHWM %d MB, cache %s", rep.settled.Round(time.Second), rep.startCPU.serve, rep.startPosts, rep.startURLs, rep.hwmSettled/1024, mb(rep.cacheBytes))
	// Peak RSS from here on.
	os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
	rep.rssRunStart = procKB(pid, "VmRSS")

	var walsender int
	if err := conn.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE backend_type = 'walsender' OR application_name = 'sitemap change feed' ORDER BY backend_type = 'walsender' DESC LIMIT 1`).Scan(&walsender); err != nil {
		return fmt.Errorf("no WAL sender in pg_stat_activity: %w", err)
	}
	var appName string
	conn.QueryRow(ctx, `SELECT application_name || ' / ' || backend_type FROM pg_stat_activity WHERE pid = $1`, walsender).Scan(&appName)
	rep.walsenderName = appName
	var lsn0 string
	conn.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&lsn0)

	// The pages: the index, and the key range of the pages checked.
	site := &siteState{addr: addr}
	if err := site.readIndex(ctx); err != nil {
		return err
	}
	rep.pages0 = len(site.pages)
	per, lastmodFmt, err := site.checkBounds(ctx, c.rows)
	if err != nil {
		return err
	}
	site.per = per
	site.p0 = site.snapshot()[rep.pages0-1]
	logf("%d pages of %d keys; lastmod written as %s", rep.pages0, per, lastmodFmt)
	go site.watchIndex(ctx)

	// perf, when asked.
	var perf *exec.Cmd
	if c.pprof != "" {
		perf = exec.Command("perf", "record", "-F", "99", "-g", "-p", strconv.Itoa(pid), "-o", c.pprof)
		perf.Stdout, perf.Stderr = os.Stderr, os.Stderr
		if err := perf.Start(); err != nil {
			return err
		}
	}

	// Readers.
	rctx, stopReaders := context.WithCancel(ctx)
	defer stopReaders()
	readers := &readStats{}
	var rwg sync.WaitGroup
	for i := 0; i < c.clients; i++ {
		rwg.Add(1)
		go func() { defer rwg.Done(); site.reader(rctx, readers) }()
	}

	// Changes.
	var cpuRun cpuSample
	cpuRun.take(pid, pg.pid)
	walRun0 := procCPU(walsender)
	m0 := metrics(ctx, addr)
	runStart := time.Now()
	changes, err := drive(ctx, pg.dsn, c, site, lastmodFmt)
	if err != nil {
		return err
	}
	rep.runWall = time.Since(runStart)
	walRun1 := procCPU(walsender)
	m1 := metrics(ctx, addr)
	rep.refreshes = m1["sitemap_serve_refreshes_total"] - m0["sitemap_serve_refreshes_total"]
	rep.refreshSecs = m1["sitemap_serve_refresh_seconds_total"] - m0["sitemap_serve_refresh_seconds_total"]
	rep.builds = m1["sitemap_serve_page_build_seconds_count"] - m0["sitemap_serve_page_build_seconds_count"]
	rep.buildSecs = m1["sitemap_serve_page_build_seconds_sum"] - m0["sitemap_serve_page_build_seconds_sum"]
	var cpuEnd cpuSample
	cpuEnd.take(pid, pg.pid)
	rep.runCPU = cpuEnd.sub(cpuRun)
	rep.walsenderCPU = float64(walRun1-walRun0) / 100
	rep.hwmRun = procKB(pid, "VmHWM")
	var lsn1 string
	conn.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&lsn1)
	conn.QueryRow(ctx, `SELECT pg_wal_lsn_diff($1::text::pg_lsn, $2::text::pg_lsn)::bigint`, lsn1, lsn0).Scan(&rep.walBytes)
	stopReaders()
	rwg.Wait()
	if perf != nil {
		perf.Process.Signal(syscall.SIGINT)
		perf.Wait()
	}
	rep.loadEnd = loadavg()
	logf("changes done: %d committed in %s", len(changes.all), rep.runWall.Round(time.Millisecond))

	// Wait for the followed changes (each poller gives up after 60 s) and
	// for IndexNow to catch up.
	changes.wg.Wait()
	deadline := time.Now().Add(c.follow)
	for c.indexnow && time.Now().Before(deadline) && inow.missing(changes.all) > 0 {
		time.Sleep(500 * time.Millisecond)
	}
	rep.changes = changes
	rep.readers = readers
	rep.inowLat, rep.inowMissing = inow.latencies(changes.all)
	rep.cacheBytesEnd = duBytes(cacheDir)
	rep.pagesEnd = len(site.snapshot())
	rep.maxRSSNow = procKB(pid, "VmRSS")

	out := rep.String()
	fmt.Print(out)
	if c.report != "" {
		if err := os.WriteFile(c.report, []byte(out), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// --- PostgreSQL ---

type postgres struct {
	dir, dsn string
	cmd      *exec.Cmd
	pid      int
}

func startPostgres(work string) (*postgres, error) {
	bin := ""
	if p, err := exec.LookPath("initdb"); err == nil {
		bin = filepath.Dir(p)
	} else {
		m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
		if len(m) == 0 {
			return nil, errors.New("no initdb on PATH or in /usr/lib/postgresql/*/bin: install PostgreSQL")
		}
		slices.Sort(m)
		bin = filepath.Dir(m[len(m)-1])
	}
	dir := filepath.Join(work, "pg")
	if err := os.MkdirAll(filepath.Join(dir, "socket"), 0o700); err != nil {
		return nil, err
	}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGQUIT}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		for _, d := range []string{dir, filepath.Join(dir, "socket")} {
			os.Chown(d, uid, gid)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: attr.Credential}
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	logw, err := os.Create(filepath.Join(work, "postgres.log"))
	if err != nil {
		return nil, err
	}
	// Defaults but for what logical decoding needs and a WAL large enough
	// that the load does not checkpoint all the time; fsync and
	// synchronous_commit stay on.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", filepath.Join(dir, "socket"),
		"-c", "listen_addresses=127.0.0.1", "-c", "wal_level=logical", "-c", "max_replication_slots=8", "-c", "max_wal_senders=8",
		"-c", "shared_buffers=256MB", "-c", "max_wal_size=8GB", "-c", "checkpoint_timeout=30min", "-c", "timezone=UTC",
		"-c", "maintenance_work_mem=256MB", "-c", "synchronous_commit=on", "-c", "logging_collector=off")
	cmd.SysProcAttr = attr
	cmd.Stdout, cmd.Stderr = logw, logw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pg := &postgres{dir: dir, cmd: cmd, pid: cmd.Process.Pid,
		dsn: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)}
	for i := 0; i < 600; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pgx.Connect(ctx, pg.dsn)
		cancel()
		if err == nil {
			c.Close(context.Background())
			return pg, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	pg.stop()
	return nil, errors.New("postgres did not start: see postgres.log")
}

func (p *postgres) stop() {
	p.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		syscall.Kill(-p.pid, syscall.SIGKILL)
		<-done
	}
	os.RemoveAll(filepath.Join(p.dir, "data"))
}

// --- /proc ---

// procCPU is the utime+stime of pid, in clock ticks (1/100 s).
func procCPU(pid int) int64 {
	f := statFields(pid)
	if len(f) < 15 {
		return 0
	}
	u, _ := strconv.ParseInt(f[13], 10, 64)
	s, _ := strconv.ParseInt(f[14], 10, 64)
	return u + s
}

// statFields are the fields of /proc/PID/stat (field 1 is pid).
func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return append([]string{"pid", "comm"}, strings.Fields(s[i+1:])...)
}

// treeCPU is the CPU of the postmaster pid, of its children (live ones
// read directly, dead ones through cutime+cstime), in ticks.
func treeCPU(pid int) int64 {
	f := statFields(pid)
	if len(f) < 17 {
		return 0
	}
	var t int64
	for _, x := range f[13:17] {
		n, _ := strconv.ParseInt(x, 10, 64)
		t += n
	}
	m, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range m {
		cp, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		cf := statFields(cp)
		if len(cf) > 4 && cf[3] == strconv.Itoa(pid) {
			t += procCPU(cp)
		}
	}
	return t
}

func procKB(pid int, field string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

type cpuSample struct {
	at            time.Time
	serve, pg, me float64 // seconds
}

func (c *cpuSample) take(serve, pg int) {
	c.at = time.Now()
	c.serve = float64(procCPU(serve)) / 100
	c.pg = float64(treeCPU(pg)) / 100
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	c.me = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func (c cpuSample) sub(o cpuSample) cpuSample {
	return cpuSample{at: c.at, serve: c.serve - o.serve, pg: c.pg - o.pg, me: c.me - o.me}
}

func duBytes(path string) int64 {
	var n int64
	filepath.Walk(path, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			} else {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// metrics reads serve's /metrics (answered to loopback clients): each
// sample without labels, by name.
func metrics(ctx context.Context, addr string) map[string]float64 {
	m := map[string]float64{}
	b, _, _, err := get(ctx, "http://"+addr+"/metrics", "", false)
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && !strings.HasPrefix(line, "#") && !strings.Contains(f[0], "{") {
			m[f[0]], _ = strconv.ParseFloat(f[1], 64)
		}
	}
	return m
}

// --- the fake IndexNow endpoint ---

type indexNow struct {
	mu     sync.Mutex
	posts  int
	urls   int
	arrive map[string][]time.Time
}

func newIndexNow() *indexNow { return &indexNow{arrive: map[string][]time.Time{}} }

func (x *indexNow) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var body struct {
		URLList []string `json:"urlList"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	x.mu.Lock()
	x.posts++
	x.urls += len(body.URLList)
	for _, u := range body.URLList {
		x.arrive[u] = append(x.arrive[u], now)
	}
	x.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (x *indexNow) counts() (int, int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.posts, x.urls
}

// arrival is the first time url arrived at or after t.
func (x *indexNow) arrival(url string, t time.Time) (time.Time, bool) {
	for _, a := range x.arrive[url] {
		if !a.Before(t) {
			return a, true
		}
	}
	return time.Time{}, false
}

func (x *indexNow) missing(all []*change) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := 0
	for _, c := range all {
		if _, ok := x.arrival(c.url, c.commit); !ok {
			n++
		}
	}
	return n
}

func (x *indexNow) latencies(all []*change) ([]time.Duration, int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []time.Duration
	miss := 0
	for _, c := range all {
		if a, ok := x.arrival(c.url, c.commit); ok {
			out = append(out, a.Sub(c.commit))
		} else {
			miss++
		}
	}
	return out, miss
}

// --- the served pages ---

type siteState struct {
	addr string
	per  int // keys a page of the start holds
	p0   int // the last page of the start
	mu   sync.Mutex
	// pages are the page numbers the index lists.
	pages []int
}

var pageRE = regexp.MustCompile(`<loc>` + regexp.QuoteMeta(base) + `sitemap-(\d+)\.xml</loc>`)

func (s *siteState) url(page int) string {
	return fmt.Sprintf("http://%s/sitemap-%d.xml", s.addr, page)
}

func (s *siteState) readIndex(ctx context.Context) error {
	b, _, _, err := get(ctx, "http://"+s.addr+"/sitemap.xml", "", true)
	if err != nil {
		return err
	}
	var pages []int
	for _, m := range pageRE.FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		pages = append(pages, n)
	}
	if len(pages) == 0 {
		return fmt.Errorf("the index lists no page: %.300s", b)
	}
	slices.Sort(pages)
	s.mu.Lock()
	s.pages = pages
	s.mu.Unlock()
	return nil
}

func (s *siteState) snapshot() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pages)
}

func (s *siteState) watchIndex(ctx context.Context) {
	for ctx.Err() == nil {
		s.readIndex(ctx)
		time.Sleep(200 * time.Millisecond)
	}
}

var itemRE = regexp.MustCompile(`<loc>[^<]*/item-(\d+)\.html</loc>(?:<lastmod>([^<]*)</lastmod>)?`)

// checkBounds checks that page k holds the keys ((k-1)*per, k*per] on
// the first, a middle and the last page, and returns per and how a
// lastmod is written (its Go time layout).
func (s *siteState) checkBounds(ctx context.Context, rows int) (int, string, error) {
	pages := s.snapshot()
	per := 0
	layout := ""
	for _, p := range []int{pages[0], pages[len(pages)/2], pages[len(pages)-1]} {
		b, _, _, err := get(ctx, s.url(p), "", true)
		if err != nil {
			return 0, "", err
		}
		ms := itemRE.FindAllSubmatch(b, -1)
		if len(ms) == 0 {
			return 0, "", fmt.Errorf("page %d lists no item: %.300s", p, b)
		}
		first, _ := strconv.Atoi(string(ms[0][1]))
		last, _ := strconv.Atoi(string(ms[len(ms)-1][1]))
		if p == 1 {
			per = last
			lm := string(ms[0][2])
			for _, l := range []string{time.RFC3339, "2006-01-02T15:04:05-07:00", "2006-01-02T15:04:05Z", "2006-01-02"} {
				if t, err := time.Parse(l, lm); err == nil && t.Equal(time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)) && t.Format(l) == lm {
					layout = l
					break
				}
			}
			if layout == "" {
				return 0, "", fmt.Errorf("lastmod %q of id 1: not a layout known here", lm)
			}
		}
		if first != (p-1)*per+1 || last != min(p*per, rows) || len(ms) != last-first+1 {
			return 0, "", fmt.Errorf("page %d holds ids %d…%d (%d entries), not %d…%d", p, first, last, len(ms), (p-1)*per+1, min(p*per, rows))
		}
	}
	return per, layout, nil
}

// get fetches u (If-None-Match inm when not ""), gzip-encoded when gz (and
// decoded), and returns the body, status and ETag.
func get(ctx context.Context, u, inm string, gz bool) ([]byte, int, string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, "", err
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, 0, "", err
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, "", err
	}
	if resp.StatusCode != 200 && resp.StatusCode != 304 {
		return nil, resp.StatusCode, "", fmt.Errorf("%s: %s: %.200s", u, resp.Status, b)
	}
	return b, resp.StatusCode, resp.Header.Get("ETag"), nil
}

var client = &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 256}, Timeout: 60 * time.Second}

// readStats are the reading clients' request times.
type readStats struct {
	mu   sync.Mutex
	lat  map[string][]time.Duration // "200 gzip", "304 identity", …
	errs int
}

func (s *siteState) reader(ctx context.Context, st *readStats) {
	etags := map[string]string{}
	for ctx.Err() == nil {
		pages := s.snapshot()
		p := pages[mrand.IntN(len(pages))]
		gz := mrand.IntN(2) == 0
		k := fmt.Sprint(p, gz)
		inm := ""
		if mrand.IntN(2) == 0 { // half the requests revalidate what they saw
			inm = etags[k]
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url(p), nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		t := time.Now()
		resp, err := client.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		d := time.Since(t)
		if ctx.Err() != nil {
			return
		}
		st.mu.Lock()
		if err != nil || (resp.StatusCode != 200 && resp.StatusCode != 304) {
			st.errs++
		} else {
			if resp.StatusCode == 200 {
				etags[k] = resp.Header.Get("ETag")
			}
			enc := "identity"
			if gz {
				enc = "gzip"
			}
			if st.lat == nil {
				st.lat = map[string][]time.Duration{}
			}
			key := fmt.Sprintf("%d %s", resp.StatusCode, enc)
			st.lat[key] = append(st.lat[key], d)
		}
		st.mu.Unlock()
	}
}

// --- the changes ---

type change struct {
	kind    string // insert, rename, lastmod
	id      int64
	url     string // the loc that must appear (the new one)
	lastmod string // for kind lastmod: as the page writes it
	commit  time.Time
	// followed changes:
	followed bool
	seen     time.Duration // COMMIT → the page answering it; -1: never
	etagAt   time.Duration // COMMIT → the page's first new ETag
	polls    int
}

type changes struct {
	mu  sync.Mutex
	all []*change
	wg  sync.WaitGroup
	lag []time.Duration // how late each change started against the schedule
	dur []time.Duration // each transaction's time
}

func drive(ctx context.Context, dsn string, c config, site *siteState, layout string) (*changes, error) {
	cs := &changes{}
	n := int(c.duration.Seconds() * float64(c.rate))
	work := make(chan int, n)
	var errOnce sync.Once
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	interval := time.Second / time.Duration(c.rate)
	lastmodBase := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	used := sync.Map{}
	for w := 0; w < 16; w++ { // commits wait for the WAL flush: several at once
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return nil, err
		}
		if _, err := conn.Exec(ctx, "SET synchronous_commit = on"); err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close(context.Background())
			for i := range work {
				ch := &change{id: 0}
				var q string
				var args []any
				switch i % 3 {
				case 0:
					ch.kind = "insert"
					ch.id = int64(c.rows + 1 + i)
					ch.url = fmt.Sprintf("https://www.example.com/new/item-%d.html", ch.id)
					q, args = `INSERT INTO pages (id, url, updated_at) VALUES ($1, $2, now())`, []any{ch.id, ch.url}
				case 1, 2:
					for {
						ch.id = 1 + mrand.Int64N(int64(c.rows))
						if _, dup := used.LoadOrStore(ch.id, true); !dup {
							break
						}
					}
					if i%3 == 1 {
						ch.kind = "rename"
						ch.url = fmt.Sprintf("https://www.example.com/renamed/item-%d-%d.html", ch.id, i)
						q, args = `UPDATE pages SET url = $2 WHERE id = $1`, []any{ch.id, ch.url}
					} else {
						ch.kind = "lastmod"
						ch.url = fmt.Sprintf("https://www.example.com/products/category-%d/item-%d.html", ch.id%97, ch.id)
						t := lastmodBase.Add(time.Duration(i) * time.Second)
						ch.lastmod = t.Format(layout)
						q, args = `UPDATE pages SET updated_at = $2 WHERE id = $1`, []any{ch.id, t}
					}
				}
				due := start.Add(time.Duration(i) * interval)
				t := time.Now()
				tag, err := conn.Exec(ctx, q, args...)
				ch.commit = time.Now()
				if err == nil && tag.RowsAffected() != 1 {
					err = fmt.Errorf("%s id %d: %d rows", ch.kind, ch.id, tag.RowsAffected())
				}
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					continue
				}
				cs.mu.Lock()
				cs.all = append(cs.all, ch)
				cs.lag = append(cs.lag, t.Sub(due))
				cs.dur = append(cs.dur, ch.commit.Sub(t))
				cs.mu.Unlock()
				if i%c.sample == 0 {
					ch.followed = true
					cs.wg.Add(1)
					go func() { defer cs.wg.Done(); site.follow(ctx, ch, i, c.follow) }()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		due := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(due))
		work <- i
	}
	close(work)
	wg.Wait()
	return cs, firstErr
}

// follow polls the page that must hold ch every 20 ms until it answers
// bytes holding it (limit at most; every 200 ms once 5 s have passed).
func (s *siteState) follow(ctx context.Context, ch *change, i int, limit time.Duration) {
	ch.seen, ch.etagAt = -1, -1
	etags := map[int]string{}
	firstTag := map[int]string{}
	var needle []byte
	switch ch.kind {
	case "insert", "rename":
		needle = []byte("<loc>" + ch.url + "</loc>")
	case "lastmod":
		needle = []byte("<loc>" + ch.url + "</loc><lastmod>" + ch.lastmod + "</lastmod>")
	}
	gz := i%20 == 0 // half the followed changes read gzip-encoded
	deadline := ch.commit.Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		var pages []int
		if ch.kind == "insert" {
			// New keys go past the last page of the start (which
			// splits as it grows).
			for _, p := range s.snapshot() {
				if p >= s.p0 {
					pages = append(pages, p)
				}
			}
		} else {
			pages = []int{int((ch.id-1)/int64(s.per)) + 1}
		}
		for _, p := range pages {
			ch.polls++
			b, status, etag, err := get(ctx, s.url(p), etags[p], gz)
			now := time.Now()
			if err != nil || status != 200 {
				continue
			}
			if old, ok := firstTag[p]; !ok {
				firstTag[p] = etag
			} else if etag != old && ch.etagAt < 0 {
				ch.etagAt = now.Sub(ch.commit)
			}
			etags[p] = etag
			if bytes.Contains(b, needle) {
				ch.seen = now.Sub(ch.commit)
				if ch.etagAt < 0 {
					ch.etagAt = ch.seen
				}
				return
			}
		}
		if time.Since(ch.commit) < 5*time.Second {
			time.Sleep(20 * time.Millisecond)
		} else { // past the target: coarser, so that late pages do not flood serve with polls
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// --- the report ---

type report struct {
	cfg                                       config
	date                                      time.Time
	loadStart, loadEnd                        string
	load, ready, settled, runWall             time.Duration
	readyLine, walsenderName                  string
	tableBytes, cacheBytes, cacheBytesEnd     int64
	stateBytes, walBytes                      int64
	hwmReady, hwmSettled, hwmRun, maxRSSNow   int64
	startCPU, runCPU                          cpuSample
	walsenderCPU                              float64
	startPosts, startURLs                     int
	pages0, pagesEnd                          int
	changes                                   *changes
	readers                                   *readStats
	inowLat                                   []time.Duration
	inowMissing                               int
	refreshes, refreshSecs, builds, buildSecs float64
	rssRunStart                               int64
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d)/1e6)
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }

func (r *report) String() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	host, _ := os.Hostname()
	cpu := ""
	if c, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(c), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	c := r.cfg
	w("## servefeed: `serve --feed logical` on a %d-row PostgreSQL table, %d changes/s for %s, %d readers", c.rows, c.rate, c.duration, c.clients)
	w("")
	w("%s, %s (%s, %d cores), load average %s at the start, %s at the end of the changes.", r.date.Format("2006-01-02 15:04 UTC"), host, cpu, nproc(), r.loadStart, r.loadEnd)
	w("")
	w("| measure | figure |")
	w("| --- | --- |")
	w("| table load (generate_series, keys, ANALYZE) | %s, %s with indexes |", ms(r.load), mb(r.tableBytes))
	w("| serve start to listening (first build of every page) | %s; `%s` |", ms(r.ready), strings.TrimPrefix(r.readyLine, "sitemap serve: "))
	w("| serve VmHWM when listening | %d MB |", r.hwmReady/1024)
	w("| start to settled (feed's full check, start-up IndexNow submission) | %s; serve CPU %.1f s, PostgreSQL CPU %.1f s |", ms(r.settled), r.startCPU.serve, r.startCPU.pg)
	w("| start-up IndexNow submission | %d URLs in %d POSTs |", r.startURLs, r.startPosts)
	w("| serve VmHWM at settled | %d MB |", r.hwmSettled/1024)
	w("| cache dir | %s at start, %s at end; IndexNow state %s |", mb(r.cacheBytes), mb(r.cacheBytesEnd), mb(r.stateBytes))
	w("| pages | %d at start, %d at end |", r.pages0, r.pagesEnd)
	cs := r.changes
	w("| changes committed | %d in %s (schedule lag p99 %s; transaction p50 %s, p99 %s) |", len(cs.all), ms(r.runWall), ms(pct(cs.lag, 99)), ms(pct(cs.dur, 50)), ms(pct(cs.dur, 99)))
	var seen, etag []time.Duration
	byKind := map[string][]time.Duration{}
	missed, polls := 0, 0
	for _, ch := range cs.all {
		if !ch.followed {
			continue
		}
		polls += ch.polls
		if ch.seen < 0 {
			missed++
			continue
		}
		seen = append(seen, ch.seen)
		etag = append(etag, ch.etagAt)
		byKind[ch.kind] = append(byKind[ch.kind], ch.seen)
	}
	w("| **COMMIT → page answers the change** (new ETag; %d followed, %d never within %s) | **p50 %s, p99 %s**, max %s |", len(seen)+missed, missed, c.follow, ms(pct(seen, 50)), ms(pct(seen, 99)), ms(pct(seen, 100)))
	for _, k := range []string{"insert", "rename", "lastmod"} {
		w("| … %s | p50 %s, p99 %s (%d) |", k, ms(pct(byKind[k], 50)), ms(pct(byKind[k], 99)), len(byKind[k]))
	}
	w("| COMMIT → first new ETag of that page (maybe an earlier change) | p50 %s, p99 %s |", ms(pct(etag, 50)), ms(pct(etag, 99)))
	if c.indexnow {
		w("| **COMMIT → IndexNow POST carrying the URL** (%d changes, %d never within %s of the end) | **p50 %s, p99 %s**, max %s |", len(cs.all), r.inowMissing, c.follow, ms(pct(r.inowLat, 50)), ms(pct(r.inowLat, 99)), ms(pct(r.inowLat, 100)))
	}
	rs := r.readers
	keys := make([]string, 0, len(rs.lat))
	total := 0
	for k, v := range rs.lat {
		keys = append(keys, k)
		total += len(v)
	}
	slices.Sort(keys)
	w("| page reads by %d clients | %d requests (%.0f/s), %d errors |", c.clients, total, float64(total)/r.runWall.Seconds(), rs.errs)
	for _, k := range keys {
		v := rs.lat[k]
		w("| … **%s** | p50 %s, p99 %s (%d) |", k, ms(pct(v, 50)), ms(pct(v, 99)), len(v))
	}
	w("| **serve peak RSS during the changes** (VmHWM) | **%d MB** (VmRSS %d MB when the changes began, %d MB at the end) |", r.hwmRun/1024, r.rssRunStart/1024, r.maxRSSNow/1024)
	w("| serve's update cycles during the changes (/metrics) | %.0f refreshes finished, %.1f s in them (%.2f s each); %.0f pages rebuilt (%.2f s of refresh a page; compress and keep: %.3f s a page) |", r.refreshes, r.refreshSecs, r.refreshSecs/max(1, r.refreshes), r.builds, r.refreshSecs/max(1, r.builds), r.buildSecs/max(1, r.builds))
	w("| serve CPU during the changes | %.1f s (%.0f%% of a core) |", r.runCPU.serve, 100*r.runCPU.serve/r.runWall.Seconds())
	w("| PostgreSQL CPU during the changes (all processes) | %.1f s (%.0f%% of a core) |", r.runCPU.pg, 100*r.runCPU.pg/r.runWall.Seconds())
	w("| **WAL sender CPU** (%s: the feed's decoding) | **%.2f s** (%.0f%% of a core; %.0f µs a change) |", r.walsenderName, r.walsenderCPU, 100*r.walsenderCPU/r.runWall.Seconds(), 1e6*r.walsenderCPU/float64(max(1, len(cs.all))))
	w("| WAL written during the changes | %s (%.0f bytes a change) |", mb(r.walBytes), float64(r.walBytes)/float64(max(1, len(cs.all))))
	w("| benchmark's own CPU during the changes (load generator, readers, pollers: %d polls) | %.1f s |", polls, r.runCPU.me)
	w("")
	return b.String()
}

func nproc() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "processor\t:")
}
