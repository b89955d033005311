//go:build unix

package mariatest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/sitemapkit/sitemap/internal/testproc"
)

// server is a mariadbd started by this test binary.
type server struct {
	dir  string // temporary directory: data/, mysqld.sock, owner.pid
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	url  string        // mysql://root@127.0.0.1:PORT/
}

// dirPrefix names the temporary directories, so a later binary finds
// those of dead ones.
const dirPrefix = "sitemap-mariatest-"

// binaries finds mariadb-install-db and mariadbd (or MySQL-era names).
func binaries() (install, daemon string, err error) {
	find := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
			for _, d := range []string{"/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin"} {
				if p := filepath.Join(d, n); fileExists(p) {
					return p
				}
			}
		}
		return ""
	}
	install = find("mariadb-install-db", "mysql_install_db")
	daemon = find("mariadbd", "mysqld")
	if install == "" || daemon == "" {
		return "", "", errMissing
	}
	return install, daemon, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// start runs mariadb-install-db and mariadbd in a new temporary directory.
func start() (*server, error) {
	install, daemon, err := binaries()
	if err != nil {
		return nil, err
	}
	base := "" // the system's temporary directory
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// mariadbd refuses to run as root unless told a user; run both
		// programs as "mysql", which must reach the directory.
		base = "/tmp"
		u, err := user.Lookup("mysql")
		if err != nil {
			return nil, fmt.Errorf("running as root and no \"mysql\" user to run mariadbd as (%v); create one, or run the tests as another user", err)
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
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(err)
		}
	}
	data := filepath.Join(dir, "data")
	if err := installDB(install, dir, data, cred); err != nil {
		return fail(err)
	}
	// A port taken between the probe and mariadbd's bind is retried.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := testproc.FreePort()
		if err != nil {
			return fail(err)
		}
		s := &server{dir: dir, done: make(chan struct{}),
			url: fmt.Sprintf("mysql://root@127.0.0.1:%d/", port)}
		logf, err := os.Create(filepath.Join(dir, "mariadbd.log"))
		if err != nil {
			return fail(err)
		}
		s.cmd = exec.Command(daemon, "--no-defaults", "--datadir="+data,
			"--socket="+filepath.Join(dir, "mysqld.sock"), "--pid-file="+filepath.Join(dir, "mysqld.pid"),
			"--port="+strconv.Itoa(port), "--bind-address=127.0.0.1", "--skip-name-resolve",
			// The data is thrown away: no flush per commit, no binary log.
			"--skip-log-bin", "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
			"--innodb-buffer-pool-size=64M", "--performance-schema=OFF",
			"--max-connections=300", "--character-set-server=utf8mb4",
			"--collation-server=utf8mb4_unicode_ci")
		s.cmd.SysProcAttr = testproc.Attr(cred)
		s.cmd.Dir = dir
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		if err := s.cmd.Start(); err != nil {
			logf.Close()
			return fail(fmt.Errorf("mariadbd: %v", err))
		}
		logf.Close()
		go func() { s.cmd.Wait(); close(s.done) }()
		if err := s.wait(port); err != nil {
			s.kill()
			log, _ := os.ReadFile(filepath.Join(dir, "mariadbd.log"))
			lastErr = fmt.Errorf("mariadbd did not start: %v: %s", err, testproc.Tail(string(log)))
			continue
		}
		return s, nil
	}
	return fail(lastErr)
}

// installDB makes the system tables in data with root reached without a
// password. --no-defaults: the machine's my.cnf (a system server's
// socket, its data directory) is never read.
func installDB(install, dir, data string, cred *syscall.Credential) error {
	idb := exec.Command(install, "--no-defaults", "--datadir="+data,
		"--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve")
	idb.SysProcAttr = testproc.Attr(cred)
	idb.Dir = dir
	if out, err := idb.CombinedOutput(); err != nil {
		return fmt.Errorf("mariadb-install-db: %v: %s", err, testproc.Tail(string(out)))
	}
	return nil
}

// wait waits until the server answers a query, or exits.
func (s *server) wait(port int) error {
	return testproc.WaitReady(s.done, "mariadbd", port, func(ctx context.Context) error { return execSQL(ctx, s.url, "SELECT 1") })
}

// stop shuts the server down (SIGTERM, a clean shutdown, then SIGKILL of
// its process group after 10 s) and removes its directory.
func (s *server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.kill()
		}
	}
	os.RemoveAll(s.dir)
}

// kill ends the server's process group at once.
func (s *server) kill() {
	if s.cmd.Process != nil {
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}
