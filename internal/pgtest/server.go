//go:build unix

package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sitemapkit/sitemap/internal/testproc"
)

// server is a postgres started by this test binary.
type server struct {
	dir  string // temporary directory: data/, socket/, owner.pid
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	url  string        // maintenance database URL
}

// dirPrefix names the temporary directories, so a later binary finds
// those of dead ones.
const dirPrefix = "sitemap-pgtest-"

// binDir finds the directory holding initdb and postgres.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		d := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	for i := len(m) - 1; i >= 0; i-- { // the newest version first
		d := filepath.Dir(m[i])
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	return "", errMissing
}

// start runs initdb and postgres in a new temporary directory.
func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	base := "" // the system's temporary directory
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// The postgres user must reach the directory: $TMPDIR may be
		// under root's home.
		base = "/tmp"
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no \"postgres\" user to run initdb as (%v); create one, or run the tests as another user", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	testproc.Sweep(base, dirPrefix)
	dir, err := testproc.MkdirTemp(base, dirPrefix)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "socket")
	if err := os.Mkdir(sock, 0o700); err != nil {
		return fail(err)
	}
	if cred != nil {
		for _, d := range []string{dir, sock} {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				return fail(err)
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = testproc.Attr(cred)
	initdb.Dir = dir
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v: %s", err, strings.TrimSpace(string(out))))
	}
	// A port taken between the probe and postgres's bind is retried.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := testproc.FreePort()
		if err != nil {
			return fail(err)
		}
		s := &server{dir: dir, done: make(chan struct{}),
			url: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)}
		logf, err := os.Create(filepath.Join(dir, "postgres.log"))
		if err != nil {
			return fail(err)
		}
		s.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data,
			"-p", strconv.Itoa(port), "-k", sock,
			"-c", "listen_addresses=127.0.0.1",
			"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
			"-c", "max_connections=200", "-c", "shared_buffers=32MB",
			// Logical decoding (package serve/pgfeed): each feed holds a
			// replication slot and a WAL sender while it runs, and tests
			// run feeds in parallel.
			"-c", "wal_level=logical", "-c", "max_replication_slots=64", "-c", "max_wal_senders=64",
			"-c", "logging_collector=off")
		s.cmd.SysProcAttr = testproc.Attr(cred)
		s.cmd.Dir = dir
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		if err := s.cmd.Start(); err != nil {
			logf.Close()
			return fail(fmt.Errorf("postgres: %v", err))
		}
		logf.Close()
		go func() { s.cmd.Wait(); close(s.done) }()
		if err := s.wait(port); err != nil {
			s.kill()
			log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			lastErr = fmt.Errorf("postgres did not start: %v: %s", err, testproc.Tail(string(log)))
			continue
		}
		return s, nil
	}
	return fail(lastErr)
}

// wait waits until the server answers a query, or exits.
func (s *server) wait(port int) error {
	return testproc.WaitReady(s.done, "postgres", port, func(ctx context.Context) error { return execSQL(ctx, s.url, "SELECT 1") })
}

// stop shuts the server down (fast shutdown, then SIGKILL of its process
// group) and removes its directory.
func (s *server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
		}
	}
	s.kill()
	os.RemoveAll(s.dir)
}

// kill ends the server's process group at once.
func (s *server) kill() {
	if s.cmd.Process != nil {
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}
