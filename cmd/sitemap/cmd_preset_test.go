package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/serve"
)

// mediaWikiSQLite makes a SQLite file with MediaWiki's own page and
// page_props tables (its schema file) and a few pages.
func mediaWikiSQLite(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wiki.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := os.ReadFile("../../preset/testdata/mediawiki/schema-sqlite.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range regexp.MustCompile(`;\s*\n`).Split(strings.ReplaceAll(string(b), "/*_*/", ""), -1) {
		if strings.Contains(st, "CREATE") {
			if _, err := db.Exec(st); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, p := range []struct {
		ns       int
		title    string
		redirect int
	}{{0, "Main_Page", 0}, {0, "Zürich_&_Co", 0}, {0, "Old_name", 1}, {1, "Main_Page", 0}} {
		if _, err := db.Exec(`INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_random, page_touched, page_latest, page_len)
			VALUES (?, ?, ?, ?, 0.5, '20261102100000', 1, 10)`, i+1, p.ns, p.title, p.redirect); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// generate --db --preset writes the wiki's pages at their URLs;
// --print-query prints the preset's query and writes nothing.
func TestGeneratePreset(t *testing.T) {
	wiki := mediaWikiSQLite(t)
	out := filepath.Join(t.TempDir(), "public")
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "https://wiki.example.org/", "--db", wiki, "--preset", "mediawiki", "--article-path", "/$1", "--namespaces", "0,1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<loc>https://wiki.example.org/Main_Page</loc><lastmod>2026-11-02T10:00:00Z</lastmod>", "<loc>https://wiki.example.org/Z%C3%BCrich_%26_Co</loc>", "<loc>https://wiki.example.org/Talk:Main_Page</loc>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("sitemap.xml lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), "Old_name") {
		t.Errorf("a redirect is listed:\n%s", b)
	}
	out2 := filepath.Join(t.TempDir(), "none")
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", "https://wiki.example.org/", "--db", wiki, "--preset", "mediawiki", "--print-query", "--out", out2)
	if code != 0 || !strings.HasPrefix(stdout, "-- sitemap preset mediawiki") || !strings.Contains(stdout, "SELECT p.page_id AS id") {
		t.Fatalf("--print-query: exit %d, %q, %s", code, stdout, stderr)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Error("--print-query made --out")
	}
	// Printing the query needs none of the run's flags (it asked for
	// --base-url), nor the database for MediaWiki (a file not there).
	for _, db := range []string{wiki, filepath.Join(t.TempDir(), "none.sqlite")} {
		code, only, stderr := runCLI(t, "", "generate", "--db", db, "--preset", "mediawiki", "--print-query")
		if code != 0 || only != stdout {
			t.Errorf("--print-query alone on %s: exit %d, %q, %s; want what it printed above", db, code, only, stderr)
		}
	}
}

// The flags of --db and --preset that do not go together are refused
// with exit 2, naming them.
func TestPresetFlagRefusals(t *testing.T) {
	wiki := mediaWikiSQLite(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--base-url", "https://w.example/", "--preset", "mediawiki", "--dry-run", "x.txt"}, "give --db too"},
		{[]string{"generate", "--base-url", "https://w.example/", "--db", wiki, "--preset", "mediawiki", "--table", "page", "--dry-run"}, "drop --table"},
		{[]string{"generate", "--base-url", "https://w.example/", "--db", wiki, "--article-path", "/$1", "--table", "page", "--dry-run"}, "go with --preset"},
		{[]string{"generate", "--base-url", "https://w.example/", "--db", wiki, "--preset", "mediawiki", "--dry-run", "x.txt"}, "INPUTs or --db"},
		{[]string{"generate", "--base-url", "https://w.example/", "--db", wiki, "--dry-run"}, "--table, --query or --preset"},
		{[]string{"generate", "--base-url", "https://w.example/", "--db", wiki, "--preset", "joomla", "--dry-run"}, "drupal, mediawiki, wordpress"},
		{[]string{"generate", "--base-url", "https://w.example/", "--table", "page", "--dry-run", "x.txt"}, "need --db"},
		{[]string{"serve", "--db", wiki, "--preset", "mediawiki", "--query", "SELECT 1"}, "drop --table"},
		{[]string{"serve", "--db", wiki, "--preset", "mediawiki", "--article-path", "/wiki/"}, "no $1"},
		{[]string{"serve", "--db", wiki, "--table", "page", "--post-types", "product"}, "go with --preset"},
		{[]string{"serve", "--db", wiki, "--preset", "mediawiki", "--namespaces", "0,99"}, "namespace 99"},
		// --print-query alone, as a user first tries it: say it needs --db
		// (it said "requires at least 1 arg(s)" and "give one source").
		{[]string{"generate", "--base-url", "https://w.example/", "--preset", "mediawiki", "--print-query"}, "give --db too"},
		{[]string{"serve", "--preset", "wordpress", "--print-query"}, "give --db too"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// serve and generate read a MariaDB table through --db mysql://….
func TestMySQLSource(t *testing.T) {
	url := mariatest.DB(t)
	db, err := serve.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL, updated_at datetime)",
		"INSERT INTO pages VALUES (1, '/a', '2026-11-02 10:00:00'), (2, '/b%20c', NULL), (3, 'https://www.example.com/d', '2026-11-03 00:00:00')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "public")
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--db", url, "--table", "pages", "--key", "id", "--out", out)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if got := strings.Count(string(b), "<loc>"); got != 3 || !strings.Contains(string(b), "<loc>https://www.example.com/a</loc><lastmod>2026-11-02T10:00:00Z</lastmod>") {
		t.Errorf("generate --db mysql:// wrote:\n%s", b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, _, _ := startServe(t, ctx, "--db", url, "--query", "SELECT id, url FROM pages WHERE id > 1", "--key", "id", "--base-url", "https://www.example.com/")
	_, page := httpGet(t, u[:strings.LastIndexByte(u, '/')]+"/sitemap-1.xml")
	if !strings.Contains(page, "<loc>https://www.example.com/b%20c</loc>") || strings.Contains(page, "/a</loc>") {
		t.Errorf("serve --db mysql:// page 1:\n%s", page)
	}
}
