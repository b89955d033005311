//go:build unix

package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sitemapkit/sitemap/internal/testproc"
)

// server is a postgres started by this test binary.
type server struct {
	*testproc.Server        // its directory: data/, socket/, owner.pid
	url              string // maintenance database URL
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

// start runs initdb and postgres in a new temporary directory (run as
// root, as the "postgres" system user).
func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	ts, err := testproc.NewDir(dirPrefix, "postgres")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*server, error) {
		os.RemoveAll(ts.Dir)
		return nil, err
	}
	data, sock := filepath.Join(ts.Dir, "data"), filepath.Join(ts.Dir, "socket")
	if err := os.Mkdir(sock, 0o700); err != nil {
		return fail(err)
	}
	if err := ts.Chown(sock); err != nil {
		return fail(err)
	}
	initdb := ts.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v: %s", err, strings.TrimSpace(string(out))))
	}
	url := func(port int) string {
		return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	}
	err = ts.Start("postgres", "postgres.log", func(port int) []string {
		return []string{filepath.Join(bin, "postgres"), "-D", data,
			"-p", strconv.Itoa(port), "-k", sock,
			"-c", "listen_addresses=127.0.0.1",
			"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
			"-c", "max_connections=200", "-c", "shared_buffers=32MB",
			// Logical decoding (package serve/pgfeed): each feed holds a
			// replication slot and a WAL sender while it runs, and tests
			// run feeds in parallel.
			"-c", "wal_level=logical", "-c", "max_replication_slots=64", "-c", "max_wal_senders=64",
			"-c", "logging_collector=off"}
	}, func(ctx context.Context, port int) error { return execSQL(ctx, url(port), "SELECT 1") })
	if err != nil {
		return nil, err
	}
	return &server{Server: ts, url: url(ts.Port)}, nil
}

// stop shuts the server down (fast shutdown, then SIGKILL of its process
// group after 15 s) and removes its directory.
func (s *server) stop() { s.Stop(syscall.SIGINT, 15*time.Second) }
