package state

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// submitLocker is what both backends give a submitter.
type submitLocker interface {
	LockSubmissions(ctx context.Context, command string, onWait func(LockHolder)) (func() error, error)
	Close() error
}

// lockBackends make a new state and return its name (what --state takes).
var lockBackends = []struct {
	name string
	make func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "st.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
}

func openLocker(t *testing.T, name string) submitLocker {
	t.Helper()
	st, err := Open(context.Background(), name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// lockWithin takes l's lock, waiting at most d.
func lockWithin(l submitLocker, command string, d time.Duration) (func() error, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return l.LockSubmissions(ctx, command, nil)
}

// Two values of one state (two descriptors of the SQLite file, two
// sessions of the database) exclude each other; the one refused is told
// who holds the lock; the lock is free again at once when given back;
// the callers of one value take turns.
func TestSubmitLock(t *testing.T) {
	for _, b := range lockBackends {
		t.Run(b.name, func(t *testing.T) {
			name := b.make(t)
			a, c := openLocker(t, name), openLocker(t, name)
			unlock, err := lockWithin(a, "first holder", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			_, err = lockWithin(c, "second", 200*time.Millisecond)
			var busy *LockBusyError
			if !errors.As(err, &busy) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("second value while the first holds the lock: %v, want a LockBusyError", err)
			}
			if h := busy.Holder; h.PID != os.Getpid() || h.Command != "first holder" || h.Since.IsZero() {
				t.Errorf("holder %+v, want pid %d and the first holder's command", h, os.Getpid())
			}
			if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(msg, "(first holder)") {
				t.Errorf("message %q does not name the holder", msg)
			}
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			unlock2, err := lockWithin(c, "second", time.Second)
			if err != nil {
				t.Fatalf("after the first gave it back: %v", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v to take a free lock", d)
			}
			unlock2()

			// Goroutines on both values: never two in a turn.
			var in, overlaps, turns atomic.Int32
			var wg sync.WaitGroup
			for g := range 6 {
				l := a
				if g%2 == 1 {
					l = c
				}
				wg.Go(func() {
					for range 10 {
						u, err := lockWithin(l, "goroutine", 10*time.Second)
						if err != nil {
							t.Error(err)
							return
						}
						if in.Add(1) != 1 {
							overlaps.Add(1)
						}
						time.Sleep(time.Millisecond)
						in.Add(-1)
						turns.Add(1)
						if err := u(); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			if overlaps.Load() != 0 || turns.Load() != 60 {
				t.Errorf("%d of %d turns overlapped another", overlaps.Load(), turns.Load())
			}
		})
	}
}

// A wait of over a second tells onWait who holds the lock, once.
func TestSubmitLockOnWait(t *testing.T) {
	name := filepath.Join(t.TempDir(), "st.db")
	a, c := openLocker(t, name), openLocker(t, name)
	unlock, err := lockWithin(a, "sitemap serve", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var told []LockHolder
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u, err := c.LockSubmissions(ctx, "sitemap submit", func(h LockHolder) {
		told = append(told, h)
		unlock() // the holder's turn ends
	})
	if err != nil {
		t.Fatal(err)
	}
	u()
	if len(told) != 1 || told[0].Command != "sitemap serve" || told[0].PID != os.Getpid() {
		t.Fatalf("onWait was told %+v, want the holder once", told)
	}
}

// lockChildEnv makes the test binary a process that takes the lock of
// the state it names, says "locked" and waits to be killed.
const lockChildEnv = "SITEMAP_TEST_SUBMIT_LOCK_CHILD"

func TestHelperSubmitLockChild(t *testing.T) {
	name := os.Getenv(lockChildEnv)
	if name == "" {
		t.Skip("runs only as the child process of TestSubmitLockKilledHolder")
	}
	st, err := Open(context.Background(), name, Options{})
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	if _, err := st.LockSubmissions(context.Background(), "lock child", nil); err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute)
	os.Exit(3)
}

// kill -9 of a process holding the lock: the lock ends with it, and the
// next taker has it at once (no lock row, no lock file to expire).
func TestSubmitLockKilledHolder(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	for _, b := range lockBackends {
		t.Run(b.name, func(t *testing.T) {
			name := b.make(t)
			openLocker(t, name).Close() // the schema, before the child races us to it
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSubmitLockChild$")
			cmd.Env = append(os.Environ(), lockChildEnv+"="+name)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "locked\n" {
				t.Fatalf("child: %q", line)
			}
			l := openLocker(t, name)
			_, err = lockWithin(l, "test", 200*time.Millisecond)
			var busy *LockBusyError
			if !errors.As(err, &busy) || busy.Holder.PID != cmd.Process.Pid || busy.Holder.Command != "lock child" {
				t.Fatalf("while the child holds it: %v, want a LockBusyError naming pid %d", err, cmd.Process.Pid)
			}
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			go io.Copy(io.Discard, out)
			cmd.Wait()
			start := time.Now()
			u, err := lockWithin(l, "test", 30*time.Second)
			if err != nil {
				t.Fatalf("after kill -9 of the holder: %v", err)
			}
			u()
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("the lock of a killed holder took %v to free", d)
			}
		})
	}
}

// More goroutines than the pool has connections, on one *Postgres, each
// using the store while it holds the lock: the waiters do not take the
// connections the holder needs.
func TestSubmitLockPostgresSmallPool(t *testing.T) {
	s := openPG(t, pgtest.DB(t), PostgresOptions{MaxConns: 2})
	defer s.Close()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 3 {
				u, err := lockWithin(s, "goroutine", 20*time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := s.SubmittedEach(context.Background(), []Submission{{Loc: "https://example.com/", Version: "v"}}); err != nil {
					t.Error(err)
				}
				if err := u(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

// SubmittedEach answers as Submitted does, URL by URL, in order.
func TestSubmittedEach(t *testing.T) {
	type ledger interface {
		Submitted(ctx context.Context, loc, version string) (bool, error)
		SubmittedEach(ctx context.Context, subs []Submission) ([]bool, error)
		RecordSubmissions(ctx context.Context, subs []Submission) error
	}
	ctx := context.Background()
	for _, b := range lockBackends {
		t.Run(b.name, func(t *testing.T) {
			l := openLocker(t, b.make(t)).(ledger)
			now := time.Now()
			if err := l.RecordSubmissions(ctx, []Submission{
				{Loc: "https://example.com/a", Version: "1", At: now, Status: 200, Outcome: OutcomeSent},
				{Loc: "https://example.com/b", Version: "1", At: now, Status: 429, Outcome: OutcomeFailed},
				{Loc: "https://example.com/c", Version: "2", At: now, Status: 202, Outcome: OutcomeSent},
			}); err != nil {
				t.Fatal(err)
			}
			ask := []Submission{
				{Loc: "https://example.com/c", Version: "1"}, {Loc: "https://example.com/a", Version: "1"},
				{Loc: "https://example.com/b", Version: "1"}, {Loc: "https://example.com/c", Version: "2"},
				{Loc: "https://example.com/d", Version: "1"}, {Loc: "https://example.com/a", Version: "1"},
			}
			got, err := l.SubmittedEach(ctx, ask)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range ask {
				want, err := l.Submitted(ctx, s.Loc, s.Version)
				if err != nil {
					t.Fatal(err)
				}
				if got[i] != want {
					t.Errorf("%s at %s: SubmittedEach %v, Submitted %v", s.Loc, s.Version, got[i], want)
				}
			}
			if want := []bool{false, true, false, true, false, true}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("SubmittedEach = %v, want %v", got, want)
			}
		})
	}
}

// A page that goes back to a version sent before is a change: only the
// version sent last counts as submitted.
func TestSubmittedLatestVersion(t *testing.T) {
	type ledger interface {
		Submitted(ctx context.Context, loc, version string) (bool, error)
		SubmittedEach(ctx context.Context, subs []Submission) ([]bool, error)
		RecordSubmissions(ctx context.Context, subs []Submission) error
	}
	ctx := context.Background()
	for _, b := range lockBackends {
		t.Run(b.name, func(t *testing.T) {
			l := openLocker(t, b.make(t)).(ledger)
			t0 := time.Now().Add(-time.Hour)
			for i, v := range []string{"A", "B"} {
				if err := l.RecordSubmissions(ctx, []Submission{{Loc: "https://example.com/a", Version: v, At: t0.Add(time.Duration(i) * time.Minute), Status: 200, Outcome: OutcomeSent}}); err != nil {
					t.Fatal(err)
				}
			}
			check := func(want map[string]bool) {
				t.Helper()
				ask := []Submission{{Loc: "https://example.com/a", Version: "A"}, {Loc: "https://example.com/a", Version: "B"}}
				each, err := l.SubmittedEach(ctx, ask)
				if err != nil {
					t.Fatal(err)
				}
				for i, s := range ask {
					got, err := l.Submitted(ctx, s.Loc, s.Version)
					if err != nil {
						t.Fatal(err)
					}
					if got != want[s.Version] || each[i] != want[s.Version] {
						t.Errorf("version %s: Submitted %v, SubmittedEach %v, want %v", s.Version, got, each[i], want[s.Version])
					}
				}
			}
			check(map[string]bool{"A": false, "B": true})
			// A sent again, later: now A is the version sent last.
			if err := l.RecordSubmissions(ctx, []Submission{{Loc: "https://example.com/a", Version: "A", At: t0.Add(2 * time.Minute), Status: 200, Outcome: OutcomeSent}}); err != nil {
				t.Fatal(err)
			}
			check(map[string]bool{"A": true, "B": false})
		})
	}
}
