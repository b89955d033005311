package preset

import (
	"bufio"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/serve"
)

// TestMain stops the PostgreSQL and MariaDB servers the tests started.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	mariatest.Stop()
	os.Exit(code)
}

// engine opens a new, empty database of one SQL engine.
type engine struct {
	name string
	d    serve.Dialect
	open func(t *testing.T) *sql.DB
}

var engines = []engine{
	{"mariadb", serve.MySQL, func(t *testing.T) *sql.DB { return openDB(t, mariatest.DB(t)) }},
	{"postgres", serve.Postgres, func(t *testing.T) *sql.DB { return openDB(t, pgtest.DB(t)) }},
	{"sqlite", serve.SQLite, func(t *testing.T) *sql.DB {
		db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "cms.sqlite"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}},
}

// openDB opens dsn as `sitemap serve --db` does.
func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := serve.OpenDB(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// statementEnd splits a schema file into statements.
var statementEnd = regexp.MustCompile(`;\s*\n`)

// loadSchema runs the CMS's schema file, its /*_*/ table prefix marker
// replaced by prefix.
func loadSchema(t *testing.T, db *sql.DB, file, prefix string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range statementEnd.Split(strings.ReplaceAll(string(b), "/*_*/", prefix), -1) {
		if strings.TrimSpace(stripComments(st)) == "" {
			continue
		}
		if _, err := db.Exec(st); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, st)
		}
	}
}

func stripComments(s string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// param rewrites ? parameters as $1, $2, … for PostgreSQL.
func param(d serve.Dialect, q string) string {
	if d != serve.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// listed returns what a preset lists, "loc\tlastmod" per entry, sorted,
// read through serve.SQL and serve.All (as `sitemap generate --preset`).
func listed(t *testing.T, db *sql.DB, p Preset, base string) []string {
	t.Helper()
	ctx := context.Background()
	src, err := serve.SQL(ctx, db, p.Query)
	if err != nil {
		t.Fatalf("%v\n%s", err, p)
	}
	defer src.Close()
	var out []string
	err = serve.All(src, base)(ctx, func(u *sitemap.URL) error {
		out = append(out, u.Loc+"\t"+u.LastMod.String())
		return nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, p)
	}
	slices.Sort(out)
	return out
}

// expected reads a list the CMS wrote, "loc\tlastmod" per line, sorted.
func expected(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// sameList fails t with the differences of got and want.
func sameList(t *testing.T, got, want []string) {
	t.Helper()
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			t.Errorf("listed, and not by the CMS: %s", g)
		}
	}
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			t.Errorf("listed by the CMS, not by the preset: %s", w)
		}
	}
}

func sortStrings(s []string) { slices.Sort(s) }
