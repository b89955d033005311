// Package testproc holds what the test harnesses that run a server
// (internal/pgtest, internal/mariatest, internal/s3test) share: a free
// port, a temporary directory that records the test binary owning it, the
// sweep of directories whose owner died, process attributes that end the
// server with the test binary (its own process group, and on Linux a
// parent-death signal), and [Server], a server started in such a
// directory on a free port, as a system user when run as root, and
// stopped. Nothing outside tests imports it.
package testproc

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ownerFile names the file of a harness directory holding the owner's pid.
const ownerFile = "owner.pid"

// FreePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// MkdirTemp makes a new directory in base (the system's temporary
// directory when ""), named prefix plus a random part, holding the pid of
// this process.
func MkdirTemp(base, prefix string) (string, error) {
	dir, err := os.MkdirTemp(base, prefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// Sweep removes the directories named prefix* in base (the system's
// temporary directory when "") whose owner process no longer runs: what a
// test binary killed before its cleanup left behind.
func Sweep(base, prefix string) {
	if base == "" {
		base = os.TempDir()
	}
	m, _ := filepath.Glob(filepath.Join(base, prefix+"*"))
	for _, dir := range m {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours, or being made right now
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		os.RemoveAll(dir)
	}
}

// WaitReady waits up to a minute until a server listening on 127.0.0.1
// at port answers ping, or done is closed (the server exited: the error
// names it as name).
func WaitReady(done <-chan struct{}, name string, port int, ping func(context.Context) error) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return errors.New(name + " exited")
		default:
		}
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
			c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := ping(ctx)
			cancel()
			if err == nil {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("timed out after 60s")
}

// Tail is the last ten lines of a server's log, for an error message.
func Tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return strings.Join(lines, "\n")
}
