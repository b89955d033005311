//go:build unix

package mariatest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/sitemapkit/sitemap/internal/testproc"
)

// server is a mariadbd started by this test binary.
type server struct {
	*testproc.Server        // its directory: data/, mysqld.sock, owner.pid
	url              string // mysql://root@127.0.0.1:PORT/
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

// start runs mariadb-install-db and mariadbd in a new temporary directory
// (run as root, as the "mysql" system user).
func start() (*server, error) {
	install, daemon, err := binaries()
	if err != nil {
		return nil, err
	}
	ts, err := testproc.NewDir(dirPrefix, "mysql")
	if err != nil {
		return nil, err
	}
	data := filepath.Join(ts.Dir, "data")
	if err := installDB(ts, install, data); err != nil {
		os.RemoveAll(ts.Dir)
		return nil, err
	}
	s := &server{Server: ts}
	err = ts.Start("mariadbd", "mariadbd.log", func(port int) []string {
		return []string{daemon, "--no-defaults", "--datadir=" + data,
			"--tmpdir=" + ts.Dir, "--socket=" + filepath.Join(ts.Dir, "mysqld.sock"), "--pid-file=" + filepath.Join(ts.Dir, "mysqld.pid"),
			"--port=" + strconv.Itoa(port), "--bind-address=127.0.0.1", "--skip-name-resolve",
			// The data is thrown away: no flush per commit, no binary log.
			// Its temporary files in its own directory: a sweep of /tmp by
			// another program fails queries that sort.
			"--skip-log-bin", "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
			"--innodb-buffer-pool-size=64M", "--performance-schema=OFF",
			"--max-connections=300", "--character-set-server=utf8mb4",
			"--collation-server=utf8mb4_unicode_ci"}
	}, func(ctx context.Context, port int) error {
		return execSQL(ctx, fmt.Sprintf("mysql://root@127.0.0.1:%d/", port), "SELECT 1")
	})
	if err != nil {
		return nil, err
	}
	s.url = fmt.Sprintf("mysql://root@127.0.0.1:%d/", ts.Port)
	return s, nil
}

// installDB makes the system tables in data with root reached without a
// password. --no-defaults: the machine's my.cnf (a system server's
// socket, its data directory) is never read.
func installDB(ts *testproc.Server, install, data string) error {
	idb := ts.Command(install, "--no-defaults", "--datadir="+data,
		"--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve")
	if out, err := idb.CombinedOutput(); err != nil {
		return fmt.Errorf("mariadb-install-db: %v: %s", err, testproc.Tail(string(out)))
	}
	return nil
}

// stop shuts the server down (SIGTERM, a clean shutdown, then SIGKILL of
// its process group after 10 s) and removes its directory.
func (s *server) stop() { s.Stop(syscall.SIGTERM, 10*time.Second) }
