// Package mariatest gives tests a real MariaDB (or MySQL): one server per
// test binary, started on first use, and a fresh database per test.
//
// Use it from a test package's TestMain:
//
//	func TestMain(m *testing.M) { mariatest.Main(m) }
//
// and in a test:
//
//	dsn := mariatest.DB(t) // mysql://root@127.0.0.1:PORT/mariatest_… of a new, empty database
//
// DB returns the URL form `sitemap serve --db` takes; [DSN] turns it into
// the go-sql-driver/mysql form (root@tcp(127.0.0.1:PORT)/name?parseTime=true).
//
// The server: when SITEMAP_TEST_MYSQL holds a connection URL
// (mysql://user:pass@host:port/db), every test gets a new database on that
// server (created with CREATE DATABASE, dropped when the test ends). Otherwise
// the first DB call runs mariadb-install-db into a new temporary directory
// and starts mariadbd from it on a free port of 127.0.0.1 and a socket in
// that directory (no fsync, no binary log: the data is thrown away), as the
// calling user or, when that is root, as the "mysql" system user. Main
// stops it and removes the directory after the tests; should the test binary
// die first, the server gets SIGQUIT from the kernel (parent-death signal)
// and the next test binary that starts one removes directories left by dead
// binaries.
//
// When no server can be had (no mariadb-install-db and mariadbd on PATH or
// in /usr/sbin and /usr/bin) DB skips the test, unless
// SITEMAP_REQUIRE_MYSQL is "1" (as `make test` sets it): then it fails it,
// saying what to install. Nothing outside tests imports this package.
package mariatest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Environment variables read by the package.
const (
	// EnvURL points the tests at an existing server.
	EnvURL = "SITEMAP_TEST_MYSQL"
	// EnvRequire, when "1", turns a missing MariaDB into a failure.
	EnvRequire = "SITEMAP_REQUIRE_MYSQL"
)

var (
	once   sync.Once
	shared *server // the server of this test binary; nil until started
	admin  string  // mysql:// URL of the server, no database
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

// DB returns the mysql:// URL of a new, empty database for t (character
// set utf8mb4), on the test binary's server (started on first use). It
// skips t when MariaDB is missing, or fails it when
// SITEMAP_REQUIRE_MYSQL=1. The database is dropped when t ends.
func DB(t testing.TB) string {
	t.Helper()
	once.Do(setup)
	if setErr != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("mariatest: %v (%s=1)", setErr, EnvRequire)
		}
		t.Skipf("mariatest: %v; set %s=mysql://… to use an existing server", setErr, EnvURL)
	}
	name := "mariatest_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := execSQL(ctx, admin, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4"); err != nil {
		t.Fatalf("mariatest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := execSQL(ctx, admin, "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Logf("mariatest: drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("mariatest: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// Open returns a *sql.DB of a new, empty database for t (see DB), closed
// when t ends.
func Open(t testing.TB) *sql.DB {
	t.Helper()
	dsn, err := DSN(DB(t))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// DSN turns a mysql://user:pass@host:port/db URL into go-sql-driver/mysql's
// form, with parseTime on and multiple statements allowed (tests load schema
// files).
func DSN(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "mysql" {
		return "", fmt.Errorf("%q is not a mysql:// URL", u)
	}
	c := mysql.NewConfig()
	c.User = p.User.Username()
	c.Passwd, _ = p.User.Password()
	c.Net, c.Addr = "tcp", p.Host
	c.DBName = strings.TrimPrefix(p.Path, "/")
	c.ParseTime = true
	c.MultiStatements = true
	return c.FormatDSN(), nil
}

// setup finds or starts the server.
func setup() {
	if env := os.Getenv(EnvURL); env != "" {
		u, err := url.Parse(env)
		if err != nil || u.Scheme != "mysql" {
			setErr = fmt.Errorf("%s=%q is not a mysql:// URL", EnvURL, env)
			return
		}
		u.Path = "/"
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := execSQL(ctx, u.String(), "SELECT 1"); err != nil {
			setErr = fmt.Errorf("%s: cannot connect: %v", EnvURL, err)
			return
		}
		admin = u.String()
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

// execSQL runs one statement on a new connection to the mysql:// URL u.
func execSQL(ctx context.Context, u, q string) error {
	dsn, err := DSN(u)
	if err != nil {
		return err
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, q)
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// errMissing says MariaDB is not installed.
var errMissing = errors.New("MariaDB not found (no mariadb-install-db and mariadbd on PATH or in /usr/sbin, /usr/bin); install it with `apt-get install -y mariadb-server` (or `make deps`)")
