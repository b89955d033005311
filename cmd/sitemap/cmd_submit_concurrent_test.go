package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

// countingEndpoint is an IndexNow endpoint on 127.0.0.1 that counts every
// URL it receives; hold, when set, is called with each POST's number
// (from 1) before it answers 200.
type countingEndpoint struct {
	srv   *httptest.Server
	mu    sync.Mutex
	got   map[string]int
	posts int
}

func newCountingEndpoint(t *testing.T, hold func(n int, r *http.Request)) *countingEndpoint {
	t.Helper()
	e := &countingEndpoint{got: map[string]int{}}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct{ URLList []string }
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &b); err != nil {
			t.Errorf("body %q: %v", data, err)
		}
		e.mu.Lock()
		e.posts++
		n := e.posts
		for _, u := range b.URLList {
			e.got[u]++
		}
		e.mu.Unlock()
		if hold != nil {
			hold(n, r)
		}
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *countingEndpoint) counts() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := make(map[string]int, len(e.got))
	for k, v := range e.got {
		m[k] = v
	}
	return m
}

// urlList writes n URLs of www.example.com to a file of dir.
func urlList(t *testing.T, dir string, n int) (string, []string) {
	t.Helper()
	var b strings.Builder
	locs := make([]string, n)
	for i := range locs {
		locs[i] = fmt.Sprintf("https://www.example.com/p%05d", i)
		b.WriteString(locs[i] + "\n")
	}
	p := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, locs
}

// Three `sitemap submit` processes at once on one --state (SQLite, then
// PostgreSQL) send each URL once: the three runs sent 15,664 of
// 25,000 URLs three times.
func TestSubmitConcurrentRunsSendOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	for _, b := range []struct {
		name  string
		state func(t *testing.T, dir string) string
	}{
		{"sqlite", func(t *testing.T, dir string) string { return filepath.Join(dir, "st.db") }},
		{"postgres", func(t *testing.T, dir string) string { return pgtest.DB(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			dir := t.TempDir()
			st := b.state(t, dir)
			e := newCountingEndpoint(t, func(int, *http.Request) { time.Sleep(2 * time.Millisecond) })
			urls, locs := urlList(t, dir, 2500)
			args := []string{"submit", "--key", submitKey, "--host", "www.example.com", "--state", st,
				"--batch-size", "100", "--endpoint", e.srv.URL, urls}
			// The state's schema first: three processes creating it at
			// once is another matter than this test's.
			if s, err := state.Open(context.Background(), st, state.Options{}); err != nil {
				t.Fatal(err)
			} else {
				s.Close()
			}
			var stderrs []string
			var wg sync.WaitGroup
			for k := range 3 {
				sub := filepath.Join(dir, fmt.Sprint(k))
				os.Mkdir(sub, 0o755)
				cmd, stderr := startMain(t, sub, args...)
				stderrs = append(stderrs, stderr)
				wg.Go(func() {
					cmd.Wait()
					if code := cmd.ProcessState.ExitCode(); code != exitOK {
						b, _ := os.ReadFile(stderr)
						t.Errorf("run %d: exit %d\n%s", k, code, b)
					}
				})
			}
			wg.Wait()
			got := e.counts()
			bad := 0
			for _, u := range locs {
				if got[u] != 1 {
					if bad++; bad <= 5 {
						t.Errorf("%s received %d times", u, got[u])
					}
				}
			}
			if bad > 0 {
				t.Fatalf("%d of %d URLs not received exactly once", bad, len(locs))
			}
			var sent int
			for _, p := range stderrs {
				b, _ := os.ReadFile(p)
				var n int
				if i := strings.LastIndex(string(b), "submit: "); i >= 0 {
					fmt.Sscanf(strings.ReplaceAll(string(b[i:]), ",", ""), "submit: %d URLs sent", &n) // 1,209: grouped for people
				}
				sent += n
			}
			if sent != len(locs) {
				t.Errorf("the runs' summaries add up to %d URLs sent, want %d", sent, len(locs))
			}
		})
	}
}

// An endpoint answering 307 to another server on 127.0.0.1: that server
// receives nothing, the run fails saying so, and --state records nothing
// as sent (a re-run tries again, and is refused again).
func TestSubmitRedirectRefused(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	target := other.URL + "/indexnow"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	dir := t.TempDir()
	urls, _ := urlList(t, dir, 30)
	args := []string{"submit", "--key", submitKey, "--host", "www.example.com", "--state", filepath.Join(dir, "st.db"),
		"--batch-size", "10", "--endpoint", srv.URL + "/indexnow", urls}
	for run := range 2 {
		code, _, errb := runCLI(t, "", args...)
		want := fmt.Sprintf("batch 1: 10 URLs: failed: HTTP 307: the endpoint %s/indexnow redirected to %s; IndexNow submissions are not sent to another host: give it as the endpoint (--endpoint, --indexnow-endpoint) if you trust it: %s", srv.URL, target, target)
		if code != exitProblems || !strings.Contains(errb, want) || !strings.Contains(errb, "0 URLs sent in 1 batch; 1 batch (10 URLs) failed; 20 left for a later run (30 read)") {
			t.Fatalf("run %d: exit %d\n%s\nwant %q", run, code, errb, want)
		}
		if strings.Contains(errb, "already submitted") {
			t.Fatalf("run %d: the state recorded a redirected batch as sent\n%s", run, errb)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the redirect's target received %d requests", n)
	}
}

// kill -9 of a submit holding the state's lock (its batch is at the
// endpoint, unanswered): while it lives, another run waits and, past
// --lock-wait, stops naming it; once it is killed, the next run proceeds
// at once and sends everything the killed one did not record.
func TestSubmitKilledLockHolder(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	held, release := make(chan struct{}), make(chan struct{})
	e := newCountingEndpoint(t, func(n int, r *http.Request) {
		if n == 1 {
			close(held)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	})
	defer close(release)
	dir := t.TempDir()
	urls, locs := urlList(t, dir, 40)
	st := filepath.Join(dir, "st.db")
	args := []string{"submit", "--key", submitKey, "--host", "www.example.com", "--state", st,
		"--batch-size", "10", "--endpoint", e.srv.URL, urls}
	cmd, stderr := startMain(t, dir, args...)
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		b, _ := os.ReadFile(stderr)
		t.Fatalf("the first batch never arrived\n%s", b)
	}
	code, _, errb := runCLI(t, "", append([]string{"submit", "--lock-wait", "1500ms"}, args[1:]...)...)
	holder := fmt.Sprintf("pid %d on ", cmd.Process.Pid)
	if code != exitUsage || !strings.Contains(errb, "sitemap: waiting for another submitter on the same state: "+holder) ||
		!strings.Contains(errb, "(sitemap submit), holding it since ") || !strings.Contains(errb, "--lock-wait 1.5s") {
		t.Fatalf("a run while another holds the lock: exit %d\n%s", code, errb)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	// At once: no wait of a second (which would say "waiting"), and no
	// lock left to expire (which would end the run at --lock-wait).
	code, _, errb = runCLI(t, "", append([]string{"submit", "--lock-wait", "5s"}, args[1:]...)...)
	if code != exitOK || strings.Contains(errb, "waiting") {
		t.Fatalf("the run after kill -9 of the holder: exit %d\n%s", code, errb)
	}
	got := e.counts()
	for i, u := range locs {
		want := 1
		if i < 10 {
			want = 2 // the killed run's batch: received, never answered, never recorded
		}
		if got[u] != want {
			t.Errorf("%s received %d times, want %d", u, got[u], want)
		}
	}
}
