// Package pgtest gives tests a real PostgreSQL: one server per test binary,
// started on first use, and a fresh database per test.
//
// Use it from a test package's TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// and in a test:
//
//	dsn := pgtest.DB(t) // postgres://…/pgtest_… of a new, empty database
//
// The server: when SITEMAP_TEST_POSTGRES holds a connection URL
// (postgres://user:pass@host:port/db), every test gets a new database on that
// server (created with CREATE DATABASE, dropped when the test ends). Otherwise
// the first DB call runs initdb into a new temporary directory and starts
// postgres from it on a free port of 127.0.0.1 (fsync off: the data is thrown
// away; wal_level=logical with 64 replication slots and WAL senders, so tests
// can follow a table's changes by logical decoding), as the calling user or, when that is root (which initdb refuses), as
// the "postgres" system user. Main stops it and removes the directory after the
// tests; should the test binary die first (a -timeout panic, kill -9), the
// server gets SIGQUIT from the kernel (parent-death signal) and the next test
// binary that starts one removes directories left by dead binaries.
//
// When no server can be had (no initdb on PATH or in /usr/lib/postgresql/*/bin,
// no postgres user to run it as) DB skips the test, unless
// SITEMAP_REQUIRE_POSTGRES is "1" (as `make test` sets it): then it fails it,
// saying what to install. Nothing outside tests imports this package.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Environment variables read by the package.
const (
	// EnvURL points the tests at an existing server.
	EnvURL = "SITEMAP_TEST_POSTGRES"
	// EnvRequire, when "1", turns a missing PostgreSQL into a failure.
	EnvRequire = "SITEMAP_REQUIRE_POSTGRES"
)

var (
	once   sync.Once
	shared *server // the server of this test binary; nil until started
	admin  string  // URL of the server's maintenance database
	setErr error   // why there is no server
)

// Main runs the tests of m, stops the server if one was started, and exits
// with the tests' status. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the server started by DB, if any, and removes its directory.
// Main calls it; a TestMain that does more than Main can call it itself.
func Stop() {
	if shared != nil {
		shared.stop()
	}
}

// DB returns the connection URL of a new, empty database for t, on the test
// binary's server (started on first use). It skips t when PostgreSQL is
// missing, or fails it when SITEMAP_REQUIRE_POSTGRES=1.
func DB(t testing.TB) string {
	t.Helper()
	once.Do(setup)
	if setErr != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("pgtest: %v (%s=1)", setErr, EnvRequire)
		}
		t.Skipf("pgtest: %v; set %s=postgres://… to use an existing server", setErr, EnvURL)
	}
	name := "pgtest_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := execSQL(ctx, admin, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	if shared == nil { // an existing server: leave it as it was
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := execSQL(ctx, admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
				t.Logf("pgtest: drop database %s: %v", name, err)
			}
		})
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// setup finds or starts the server.
func setup() {
	if env := os.Getenv(EnvURL); env != "" {
		u, err := url.Parse(env)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			setErr = fmt.Errorf("%s=%q is not a postgres:// URL", EnvURL, env)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := execSQL(ctx, env, "SELECT 1"); err != nil {
			setErr = fmt.Errorf("%s: cannot connect: %v", EnvURL, err)
			return
		}
		admin = env
		return
	}
	s, err := start()
	if err != nil {
		setErr = err
		return
	}
	shared = s
	admin = s.url
}

// execSQL runs one statement on a new connection to dsn.
func execSQL(ctx context.Context, dsn, sql string) error {
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	_, err = c.Exec(ctx, sql)
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// errMissing says PostgreSQL is not installed.
var errMissing = errors.New("PostgreSQL not found (no initdb on PATH or in /usr/lib/postgresql/*/bin); install it with `apt-get install -y postgresql` (or `make deps`)")
