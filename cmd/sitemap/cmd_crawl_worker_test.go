package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// workerSite is the synthetic site of the shared crawl tests: / links
// sections of pages (four of five for the tests). It counts the requests of every
// path, records when each page request arrived, and which worker (by
// User-Agent) made it. With hold set, the hold-th page request is held
// until the worker's connection goes (it is killed); held says which
// worker made it.
type workerSite struct {
	*httptest.Server
	mu       sync.Mutex
	hits     map[string]int
	times    []time.Time
	byUA     map[string]int
	n        int         // page requests
	hold     int         // the page request to hold (1-based; 0: none)
	held     chan string // the held request's user agent
	heldPath string
	delay    time.Duration // each page answers after this long (a server's latency)
}

func newWorkerSite(t testing.TB, hold, sections, pages int) *workerSite {
	s := &workerSite{hits: map[string]int{}, byUA: map[string]int{}, hold: hold, held: make(chan string, 1)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		now := time.Now()
		ua := r.UserAgent()
		s.mu.Lock()
		s.hits[p]++
		s.times = append(s.times, now)
		s.byUA[ua]++
		s.n++
		block := s.n == s.hold
		if block {
			s.heldPath = p
		}
		s.mu.Unlock()
		if block {
			s.held <- ua
			<-r.Context().Done() // the worker died
			return
		}
		if s.delay > 0 {
			time.Sleep(s.delay)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var links strings.Builder
		switch {
		case p == "/":
			for i := range sections {
				fmt.Fprintf(&links, `<a href="/s%d/">s%d</a> `, i, i)
			}
			links.WriteString(`<a href="/private/x">private</a>`)
		case strings.HasPrefix(p, "/s") && strings.Count(p, "/") == 2 && strings.HasSuffix(p, "/"):
			for i := range pages {
				fmt.Fprintf(&links, `<a href="%sp%d">p%d</a> <a href="/">home</a> `, p, i, i)
			}
		case strings.HasPrefix(p, "/s") && strings.Contains(p, "/p"):
		default:
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><p>%s</p>%s</body></html>", p, p, links.String())
	}))
	t.Cleanup(s.Close)
	return s
}

// startWorker starts `sitemap crawl --worker` as a process of its own
// (the test binary running main), its output in dir/NAME.stderr.
func startWorker(t testing.TB, dir, name string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperSitemapMain$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SITEMAP_TEST_MAIN=1")
	stderr := filepath.Join(dir, name+".stderr")
	f, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
	})
	return cmd, stderr
}

var locRE = regexp.MustCompile(`<loc>([^<]*)</loc>`)

// locs returns the sorted <loc>s of a sitemap file.
func locs(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range locRE.FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// sharedCrawl runs three workers against site and db, with leases of
// lease, and returns the directory they published into and their
// standard errors; with kill, the worker whose request the site holds is
// killed (kill -9), and its standard error is left out.
func sharedCrawl(t *testing.T, site *workerSite, db, rate, lease string, kill bool) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	var cmds []*exec.Cmd
	var logs []string
	for i := range 3 {
		cmd, log := startWorker(t, dir, fmt.Sprintf("w%d", i), "crawl", site.URL+"/", "--state", db, "--worker", "--lease", lease,
			"--out", out, "--rate", rate, "--concurrency", "2", "--user-agent", fmt.Sprintf("sitemap-test/1.0 w%d", i),
			"--report", filepath.Join(dir, fmt.Sprintf("w%d.jsonl", i)))
		cmds, logs = append(cmds, cmd), append(logs, log)
	}
	killed := -1
	if kill {
		var ua string
		select {
		case ua = <-site.held:
		case <-time.After(2 * time.Minute):
			t.Fatal("the site held no request in two minutes")
		}
		killed = int(ua[len(ua)-1] - '0')
		if err := cmds[killed].Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	var stderrs []string
	for i, cmd := range cmds {
		err := cmd.Wait()
		b, _ := os.ReadFile(logs[i])
		if i == killed {
			continue
		}
		stderrs = append(stderrs, string(b))
		if err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, b)
		}
	}
	return dir, stderrs
}

// Three worker processes crawling one site through one PostgreSQL find
// exactly the URL set (and report) of one process, fetch every page
// once, and keep the site's rate together; one of them publishes. The
// last level (120 pages) is more than one worker leases at a time (its
// fetchers' work and 32 more), so that every worker has its share.
func TestCrawlWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	const pages = 1 + 4 + 4*30
	site := newWorkerSite(t, 0, 4, 30)
	db := pgtest.DB(t)
	ref := t.TempDir()
	if code, _, stderr := runCLI(t, "", "crawl", site.URL+"/", "--out", ref, "--state", filepath.Join(ref, "st.db"), "--rate", "0", "--report", filepath.Join(ref, "report.jsonl")); code != exitOK {
		t.Fatalf("one process: exit %d\n%s", code, stderr)
	}
	want := locs(t, filepath.Join(ref, "sitemap.xml"))
	wantReport, _ := os.ReadFile(filepath.Join(ref, "report.jsonl"))
	if len(want) != pages {
		t.Fatalf("the one-process crawl listed %d pages, want %d", len(want), pages)
	}
	site.mu.Lock()
	clear(site.hits)
	clear(site.byUA)
	site.times = nil
	site.mu.Unlock()

	const rate = 20 // requests a second, all workers together
	// Leases long enough that none runs out on a loaded machine (a
	// worker renews every third of it): every page is fetched once.
	dir, stderrs := sharedCrawl(t, site, db, fmt.Sprint(rate), "10s", false)
	if got := locs(t, filepath.Join(dir, "out", "sitemap.xml")); !slices.Equal(got, want) {
		t.Errorf("the workers listed\n%v\none process\n%v", got, want)
	}
	publishers := 0
	for i, e := range stderrs {
		if strings.Contains(e, "another worker publishes") || strings.Contains(e, "is finished: nothing to do") {
			continue // done, or started late (a loaded machine)
		}
		publishers++
		if !strings.Contains(e, fmt.Sprintf("%d listed", pages)) || !strings.Contains(e, fmt.Sprintf("finished the crawl (%d pages fetched by all its workers)", pages)) {
			t.Errorf("worker %d's summary:\n%s", i, e)
		}
		report, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("w%d.jsonl", i)))
		if err != nil || string(report) != string(wantReport) {
			t.Errorf("the publisher's report (%v):\n%s\none process's:\n%s", err, report, wantReport)
		}
	}
	if publishers != 1 {
		t.Errorf("%d workers published, want 1:\n%s", publishers, strings.Join(stderrs, "\n"))
	}
	// --status reads the finished crawl; --finish publishes it again.
	code, stdout, stderr := runCLI(t, "", "crawl", "--state", db, "--status")
	if code != exitOK || !strings.Contains(stdout, "crawl of "+site.URL+"/: finished") || !strings.Contains(stdout, fmt.Sprintf("%d pages fetched", pages)) || !strings.Contains(stdout, "0 alive of 0") {
		t.Errorf("--status: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "", "crawl", "--state", db, "--status", "--json")
	var st struct {
		State        string `json:"state"`
		Fetched      int    `json:"fetched"`
		Pending      int    `json:"pending"`
		WorkersAlive int    `json:"workers_alive"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); code != exitOK || err != nil || st.State != "finished" || st.Fetched != pages || st.Pending != 0 || st.WorkersAlive != 0 {
		t.Errorf("--status --json: exit %d, %+v %v\n%s%s", code, st, err, stdout, stderr)
	}
	// A worker started when the crawl is finished says so and crawls
	// nothing (it crawled the whole site again, alone).
	site.mu.Lock()
	before := len(site.times)
	site.mu.Unlock()
	code, _, stderr = runCLI(t, "", "crawl", site.URL+"/", "--state", db, "--worker", "--out", filepath.Join(dir, "late"))
	site.mu.Lock()
	after := len(site.times)
	site.mu.Unlock()
	if code != exitOK || !strings.Contains(stderr, "is finished: nothing to do") || after != before {
		t.Errorf("a late worker: exit %d, %d pages fetched\n%s", code, after-before, stderr)
	}
	again := filepath.Join(dir, "again")
	if code, _, stderr := runCLI(t, "", "crawl", "--state", db, "--finish", "--out", again); code != exitOK {
		t.Errorf("--finish: exit %d\n%s", code, stderr)
	} else if got := locs(t, filepath.Join(again, "sitemap.xml")); !slices.Equal(got, want) {
		t.Errorf("--finish published\n%v", got)
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	for p, n := range site.hits {
		if n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
	if len(site.hits) != pages {
		t.Errorf("%d pages fetched, want %d", len(site.hits), pages)
	}
	t.Logf("pages fetched by each worker: %v", site.byUA)
	// The rate held across the workers: no k requests within fewer than
	// k-1-burst gaps. Three workers each keeping the rate alone make
	// three requests a gap (k requests within (k-1)/3 gaps: caught from
	// k = 20 on); the burst allows for requests that arrive late (a
	// process scheduled late on a loaded machine, the test's server
	// stamping several at once after a pause): only a delay of more than
	// burst gaps (600 ms) could fail a crawl that keeps the rate. A pair
	// of requests closer than a gap is not a failure by itself.
	const burst = 12
	gap := time.Second / rate
	ts := slices.SortedFunc(slices.Values(site.times), func(a, b time.Time) int { return a.Compare(b) })
	for i := range ts {
		for j := i + 1 + burst; j < len(ts); j++ {
			if least := time.Duration(j-i-burst) * gap; ts[j].Sub(ts[i]) < least {
				t.Fatalf("requests %d to %d of %d within %s: the rate of %d/s allows %s (less %d gaps of tolerance)", i, j, len(ts), ts[j].Sub(ts[i]), rate, time.Duration(j-i)*gap, burst)
			}
		}
	}
}

// A worker killed (kill -9) in the middle of a page loses nothing: its
// lease runs out and another worker fetches the page; the workers left
// list exactly what one process does.
func TestCrawlWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	site := newWorkerSite(t, 6, 4, 5) // the sixth page: in the first or second level
	db := pgtest.DB(t)
	dir, stderrs := sharedCrawl(t, site, db, "20", "5s", true)
	got := locs(t, filepath.Join(dir, "out", "sitemap.xml"))
	if len(got) != 25 {
		t.Errorf("the workers left listed %d pages, want 25:\n%v\n%s", len(got), got, strings.Join(stderrs, "\n"))
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if len(site.hits) != 25 {
		t.Errorf("%d pages fetched, want 25: %v", len(site.hits), site.hits)
	}
	if p := site.heldPath; !slices.Contains(got, site.URL+p) || site.hits[p] != 2 {
		t.Errorf("the page the killed worker held, %s: fetched %d times, listed %v; want fetched again by another worker, and listed", p, site.hits[p], slices.Contains(got, site.URL+p))
	}
	if len(stderrs) != 2 {
		t.Fatalf("%d workers left", len(stderrs))
	}
}

// The shared crawl's flags need a PostgreSQL state, and say so.
func TestCrawlWorkerNeedsPostgres(t *testing.T) {
	st := filepath.Join(t.TempDir(), "st.db")
	for _, args := range [][]string{
		{"crawl", "https://www.example.com/", "--worker", "--state", st},
		{"crawl", "--status", "--state", st},
		{"crawl", "--finish"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "needs a PostgreSQL state (--state postgres://") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	for _, flag := range []string{"--lease=30s", "--again"} {
		code, _, stderr := runCLI(t, "", "crawl", "https://www.example.com/", "--state", st, flag)
		if code != exitUsage || !strings.Contains(stderr, "flag of a crawl's worker: add --worker") {
			t.Errorf("%s without --worker: exit %d\n%s", flag, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "crawl", "--out", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "crawl needs START-URL") {
		t.Errorf("crawl without START-URL: exit %d\n%s", code, stderr)
	}
}

// A worker stopped by SIGTERM in the middle of a page gives its URLs
// back and leaves the crawl at once (the others need not wait for its
// lease to run out), and says how to rejoin.
func TestCrawlWorkerTerminated(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	site := newWorkerSite(t, 1, 1, 1) // the site holds the first page request
	db := pgtest.DB(t)
	dir := t.TempDir()
	cmd, log := startWorker(t, dir, "w", "crawl", site.URL+"/", "--state", db, "--worker", "--lease", "1m", "--out", filepath.Join(dir, "out"), "--rate", "0")
	select {
	case <-site.held:
	case <-time.After(2 * time.Minute):
		t.Fatal("the site held no request in two minutes")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	b, _ := os.ReadFile(log)
	if err == nil || !strings.Contains(string(b), "run the same command again to rejoin") {
		t.Errorf("the worker after SIGTERM: %v\n%s", err, b)
	}
	code, stdout, stderr := runCLI(t, "", "crawl", "--state", db, "--status")
	if code != exitOK || !strings.Contains(stdout, "(0 leased to live workers)") || !strings.Contains(stdout, "workers:     0 alive of 0") {
		t.Errorf("--status after the worker was stopped: exit %d, want its leases given back and the worker gone\n%s%s", code, stdout, stderr)
	}
}
