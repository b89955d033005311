// Package testproc holds what the test harnesses that run a server
// (internal/pgtest, internal/s3test) share: a free port, a temporary
// directory that records the test binary owning it, the sweep of
// directories whose owner died, and process attributes that end the server
// with the test binary (its own process group, and on Linux a parent-death
// signal). Nothing outside tests imports it.
package testproc

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
