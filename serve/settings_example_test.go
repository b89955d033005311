package serve_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/sitemapkit/sitemap/serve"
	_ "modernc.org/sqlite"
)

// A program runs `sitemap serve --db site.sqlite --table pages
// --base-url https://www.example.com/` as one call: the pages are built
// once, kept current as the table changes, and served until the program
// is interrupted. Its log (the Listening line, each request) goes to
// standard error.
func ExampleRun() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s := serve.Settings{
		DB:      serve.SQLSettings{DB: "site.sqlite", Table: "pages"},
		Addr:    ":8080",
		BaseURL: "https://www.example.com/",
		Name:    "sitemap", XSL: true, HTML: true, AccessLog: true,
		Recheck: 2 * time.Second, ShutdownTimeout: 30 * time.Second,
	}
	if err := serve.Run(ctx, s, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err) // names the flag: --db, --addr, …
		os.Exit(2)
	}
}

// Check refuses settings that do not go together before anything opens,
// in the words of the command's flags.
func ExampleSettings_Check() {
	s := serve.Settings{DB: serve.SQLSettings{DB: "site.sqlite", Table: "pages"}, Name: "sitemap", PerPage: 100000}
	fmt.Println(s.Check())
	s.PerPage, s.Feed = 0, "notify"
	fmt.Println(s.Check())
	// Output:
	// --per-page 100000: a sitemap holds 1 to 50,000 URLs (S-01)
	// --feed follows a PostgreSQL table: give --db postgres://… and --table
}

// SQLSettings open a table as the flags name it: the columns not mapped
// are found by their names.
func ExampleSQLSettings_Open() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "site.sqlite")
	db, _ := sql.Open("sqlite", path)
	db.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT)`)
	db.Exec(`INSERT INTO pages VALUES ('https://www.example.com/', '2026-11-02')`)
	db.Close()

	q := serve.SQLSettings{DB: path, Table: "pages"}
	if err := q.Check(); err != nil {
		fmt.Println(err)
		return
	}
	src, closeSrc, err := q.Open(context.Background(), os.Stdout, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closeSrc()
	fmt.Println(src.Found())
	_, _, err = serve.SQLSettings{DB: filepath.Join(dir, "nope.sqlite"), Table: "pages"}.Open(context.Background(), os.Stdout, nil)
	fmt.Println(err != nil)
	// Output:
	// found by name: loc=url, lastmod=updated_at
	// true
}

// OpenSQL opens a database and the source of the query a function makes
// for it (package preset's Settings asks the CMS's database for it).
func ExampleOpenSQL() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "site.sqlite")
	db, _ := sql.Open("sqlite", path)
	db.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY)`)
	db.Close()

	src, closeSrc, err := serve.OpenSQL(context.Background(), path, nil, func(db *sql.DB) (*serve.Query, error) {
		return &serve.Query{Table: "pages", Columns: serve.Columns{Loc: "url"}}, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closeSrc()
	fmt.Println(src.KeyColumn())
	// Output: url
}
