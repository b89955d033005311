package serve_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/serve/pgfeed"
	"github.com/sitemapkit/sitemap/state"
)

// A program serves what a finished crawl listed; a state file without a
// crawl is refused with a *CrawlStateError.
func ExampleOpenCrawl() {
	dir, _ := os.MkdirTemp("", "serve-open")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "crawl.db")
	st, _ := state.OpenSQLite(context.Background(), path, state.SQLiteOptions{})
	st.Close() // a new state: no crawl yet

	_, _, err := serve.OpenCrawl(context.Background(), path)
	var cse *serve.CrawlStateError
	fmt.Println(errors.As(err, &cse), cse.NotFinished)
	// Output: true false
}

// OpenDB opens the database of a SQL source: a SQLite file (read-only) or
// a postgres:// URL.
func ExampleOpenDB() {
	dir, _ := os.MkdirTemp("", "serve-opendb")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "pages.db")
	_, err := serve.OpenDB(path)
	fmt.Println(errors.Is(err, os.ErrNotExist))
	// Output: true
}

// A program serves a published directory as `sitemap serve DIR` does,
// until its context is done, with /healthz and /metrics for loopback
// clients.
func ExampleListenAndServe() {
	dir, _ := os.MkdirTemp("", "serve-listen")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url></urlset>`), 0o644)
	site, err := serve.Dir(dir, serve.DirOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	err = serve.ListenAndServe(ctx, site, serve.ServerOptions{
		Addr: "127.0.0.1:0", ShutdownTimeout: time.Second,
		Listening: func(addr, _ net.Addr) {
			res, err := http.Get("http://" + addr.String() + "/sitemap.xml")
			if err == nil {
				fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
				res.Body.Close()
			}
			stop() // a program stops it when it is done, on SIGTERM for instance
		},
	})
	fmt.Println(err)
	// Output:
	// 200 application/xml; charset=utf-8
	// <nil>
}

// Listening first: the addresses are opened before long work (a first
// build), so one in use is said at once; ListenAndServe then serves on
// them.
func ExampleServerOptions_Listen() {
	o := serve.ServerOptions{Addr: "127.0.0.1:0", ShutdownTimeout: time.Second}
	site, admin, err := o.Listen()
	if err != nil {
		fmt.Println(err) // --addr in use: nothing was built
		return
	}
	o.Listener, o.AdminListener = site, admin
	// … the long work here …
	ctx, stop := context.WithCancel(context.Background())
	o.Listening = func(addr, _ net.Addr) {
		fmt.Println(addr.String() == site.Addr().String())
		stop()
	}
	fmt.Println(serve.ListenAndServe(ctx, http.NotFoundHandler(), o))
	// Output:
	// true
	// <nil>
}

// A table followed by logical decoding: a commit rebuilds only the pages
// holding the keys it touched. (Not run here: it needs a PostgreSQL
// server with wal_level=logical.)
func ExampleWatchPostgres() {
	ctx := context.Background()
	const dsn = "postgres://sitemap@localhost/site"
	db, err := serve.OpenDB(dsn)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	src, err := serve.SQL(ctx, db, serve.Query{Table: "pages"})
	if err != nil {
		fmt.Println(err)
		return
	}
	feed := &serve.PostgresFeed{Options: pgfeed.Options{ConnString: dsn, Table: "pages", Create: true}}
	h, err := serve.NewHandler(serve.WatchPostgres(src, feed), serve.Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	go h.Run(ctx)
	if err := <-feed.Down(); err != nil {
		fmt.Println("the feed did not start:", err)
	}
}

// A mysql:// URL names a MySQL or MariaDB database; its password is
// URL-escaped, and kept out of what is shown.
func ExampleMySQLConfig() {
	dsn := "mysql://wp:p%40ss@db.example.com/wordpress"
	c, err := serve.MySQLConfig(dsn)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(serve.IsMySQL(dsn), c.User, c.Addr, c.DBName)
	fmt.Println(serve.RedactDSN(dsn))
	// Output:
	// true wp db.example.com:3306 wordpress
	// mysql://wp:…@db.example.com/wordpress
}

// DialectOfDSN tells the SQL a database speaks from its name alone, as
// OpenDB would open it; nothing connects.
func ExampleDialectOfDSN() {
	for _, dsn := range []string{"postgres://u@db.example/site", "mysql://u:p@127.0.0.1/wp", "site.sqlite"} {
		fmt.Println(serve.DialectOfDSN(dsn))
	}
	// Output:
	// postgres
	// mysql
	// sqlite
}
