package serve_test

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/serve"
)

// TestSettingsCheck: every refusal of Settings.Check names the flag, and
// a source's settings that go together pass.
func TestSettingsCheck(t *testing.T) {
	db := func(q serve.SQLSettings) serve.Database { return q }
	ok := serve.Settings{DB: db(serve.SQLSettings{DB: "site.sqlite", Table: "pages"}), Name: "sitemap"}
	cases := []struct {
		name string
		edit func(s *serve.Settings)
		want string // "" passes
	}{
		{"table", func(s *serve.Settings) {}, ""},
		{"no source", func(s *serve.Settings) { s.DB = nil }, "give one source: a directory, --db with --table or --query, or --state"},
		{"two sources", func(s *serve.Settings) { s.State = "crawl.db" }, "give one source"},
		{"table without db", func(s *serve.Settings) { s.DB, s.State = db(serve.SQLSettings{Table: "pages"}), "crawl.db" }, "--table, --query, --columns and --key need --db"},
		{"db without table", func(s *serve.Settings) { s.DB = db(serve.SQLSettings{DB: "site.sqlite"}) }, "--db needs --table, --query or --preset"},
		{"per-page 0 given", func(s *serve.Settings) { s.PerPageSet = true }, "--per-page 0: a sitemap holds 1 to 50,000 URLs (S-01)"},
		{"per-page too many", func(s *serve.Settings) { s.PerPage = 50001 }, "--per-page 50001"},
		{"name", func(s *serve.Settings) { s.Name = "a/b" }, `--name "a/b": give a plain file name`},
		{"base-url", func(s *serve.Settings) { s.BaseURL = "www.example.com" }, `--base-url "www.example.com": give the absolute http(s) URL`},
		{"base-url a file", func(s *serve.Settings) { s.BaseURL = "https://www.example.com/sitemap.xml" }, `--base-url "https://www.example.com/sitemap.xml": names a file; give the directory the sitemaps are reachable at, https://www.example.com/`},
		{"feed value", func(s *serve.Settings) { s.Feed = "poll" }, `--feed "poll": give logical or notify`},
		{"feed on sqlite", func(s *serve.Settings) { s.Feed = "notify" }, "--feed follows a PostgreSQL table"},
		{"trigger of a query", func(s *serve.Settings) {
			s.DB, s.InstallTrigger = db(serve.SQLSettings{DB: "site.sqlite", Query: "SELECT url FROM pages"}), true
		}, "--install-trigger and --remove-trigger put triggers on a table"},
		{"both triggers", func(s *serve.Settings) { s.InstallTrigger, s.RemoveTrigger = true, true }, "--install-trigger and --remove-trigger: give one"},
		{"indexnow without base-url", func(s *serve.Settings) { s.IndexNow.KeyFile = "k.txt" }, "--indexnow-key-file needs --base-url"},
		{"indexnow without state", func(s *serve.Settings) {
			s.IndexNow.KeyFile, s.BaseURL = "k.txt", "https://www.example.com/"
		}, "--indexnow-key-file needs --indexnow-state FILE"},
		{"indexnow quota", func(s *serve.Settings) {
			s.IndexNow = serve.IndexNowSettings{KeyFile: "k.txt", State: "s.db", MaxPerDay: -1}
			s.BaseURL = "https://www.example.com/"
		}, "--indexnow-max-per-day -1: want 0 (no limit) or more"},
		{"indexnow option alone", func(s *serve.Settings) { s.IndexNow.CatchUp = true }, "are options of the IndexNow submission, which --indexnow-key-file turns on"},
		{"host", func(s *serve.Settings) { s.Hosts = []string{"https://x"} }, `--host "https://x": give a host name`},
		{"directory takes no paging", func(s *serve.Settings) { s.DB, s.Dir, s.PerPage = nil, "public", -1 }, ""},
		{"recheck negative", func(s *serve.Settings) { s.Recheck = -time.Second }, "--recheck -1s: give how often the source is checked for changes, such as 2s (0: the default, 2s)"},
		{"recheck negative, a directory", func(s *serve.Settings) { s.DB, s.Dir, s.Recheck = nil, "public", -time.Second }, "--recheck -1s: "},
		{"recheck 0 is the default", func(s *serve.Settings) { s.Recheck = 0 }, ""},
		{"read-timeout negative", func(s *serve.Settings) { s.ReadTimeout = -time.Second }, "--read-timeout -1s: give a time limit such as 10s, or 0 for none"},
		{"write-timeout negative", func(s *serve.Settings) { s.WriteTimeout = -time.Second }, "--write-timeout -1s: give a time limit such as 2m, or 0 for none"},
		{"shutdown-timeout negative", func(s *serve.Settings) { s.ShutdownTimeout = -time.Second }, "--shutdown-timeout -1s: give a time limit such as 30s, or 0 to cut"},
		{"timeouts 0", func(s *serve.Settings) { s.ReadTimeout, s.WriteTimeout, s.ShutdownTimeout = 0, 0, 0 }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ok
			c.edit(&s)
			err := s.Check()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("Check = %v, want %q", err, c.want)
			}
		})
	}
}

// TestSettingsCheckCacheDir: Check makes CacheDir, and says when it
// cannot.
func TestSettingsCheckCacheDir(t *testing.T) {
	dir := t.TempDir()
	s := serve.Settings{State: "crawl.db", Name: "sitemap", CacheDir: filepath.Join(dir, "a", "b")}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.CacheDir); err != nil || !fi.IsDir() {
		t.Fatalf("cache dir not made: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	s.CacheDir = filepath.Join(file, "x")
	if err := s.Check(); err == nil || !strings.HasPrefix(err.Error(), "--cache-dir "+s.CacheDir+": ") {
		t.Fatalf("Check = %v, want a --cache-dir error", err)
	}
	// A file in the way is said before the first build, with what to do
	// (it was "mkdir FILE: not a directory"; a read-only directory
	// passed, and the first page kept failed).
	s.CacheDir = file
	if err := s.Check(); err == nil || err.Error() != "--cache-dir "+file+": "+file+" is a file, not a directory; give a directory you can write to" {
		t.Fatalf("Check = %v, want that the file is in the way", err)
	}
}

// syncBuffer is a bytes.Buffer written by the server's goroutines and
// read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// sqliteTable makes a SQLite file with a table of pages in one
// transaction.
func sqliteTable(t *testing.T, locs ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	tx.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT)`)
	for _, l := range locs {
		if _, err := tx.Exec(`INSERT INTO pages VALUES (?, '2026-11-02')`, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}

// runServer starts Run with s and returns the index URL of its Listening
// line, the log, and a stop that returns Run's error.
func runServer(t *testing.T, s serve.Settings) (string, *syncBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, s, io.Discard, log) }()
	stop := func() error { cancel(); return <-done }
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(log.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, serve.Listening); ok {
				return strings.Fields(rest)[0], log, stop
			}
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("Run returned before it listened: %v\n%s", err, log)
		case <-time.After(10 * time.Millisecond):
		}
	}
	stop()
	t.Fatalf("no %q line in 60 s:\n%s", serve.Listening, log)
	return "", nil, nil
}

// TestRunSQLite: Run serves a SQLite table's index and pages, logs how
// it finds changes and its requests, and returns nil once ctx is done.
func TestRunSQLite(t *testing.T) {
	path := sqliteTable(t, "https://www.example.com/a", "https://www.example.com/b")
	s := serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Addr: "127.0.0.1:0", Name: "sitemap",
		BaseURL: "https://www.example.com/", AccessLog: true, ShutdownTimeout: 5 * time.Second, Recheck: time.Second}
	index, log, stop := runServer(t, s)
	if !strings.HasSuffix(index, "/sitemap.xml") {
		t.Fatalf("index URL %q", index)
	}
	res, err := http.Get(strings.Replace(index, "sitemap.xml", "sitemap-1.xml", 1))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "<loc>https://www.example.com/b</loc>") {
		t.Fatalf("page: %d %s", res.StatusCode, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, want := range []string{"sitemap serve: columns ", "sitemap serve: changes: ", "(1 page built in ", "GET /sitemap-1.xml", "sitemap serve: stopping: "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestRunDir: a directory is served as it is, its Listening line naming
// no file.
func TestRunDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`), 0o644)
	index, _, stop := runServer(t, serve.Settings{Dir: dir, Addr: "127.0.0.1:0", ShutdownTimeout: 5 * time.Second})
	if !strings.HasSuffix(index, "/") {
		t.Errorf("URL of a directory %q: want its root", index)
	}
	res, err := http.Get(index + "sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("sitemap.xml: %d", res.StatusCode)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestRunErrors: what Run refuses, named by its flag, before or without
// serving.
func TestRunErrors(t *testing.T) {
	path := sqliteTable(t, "https://www.example.com/a")
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name string
		s    serve.Settings
		want string
	}{
		{"not a directory", serve.Settings{Dir: file}, file + " is not a directory: give the directory 'sitemap generate --out' wrote"},
		{"robots-from", serve.Settings{State: "x.db", Name: "sitemap", RobotsFrom: filepath.Join(file, "nope")}, "--robots-from: "},
		{"no such database", serve.Settings{DB: serve.SQLSettings{DB: file + ".sqlite", Table: "pages"}, Name: "sitemap"}, "--db "},
		{"columns", serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages", Columns: "nope"}, Name: "sitemap"}, "--columns: "},
		{"a preset", serve.Settings{DB: serve.SQLSettings{DB: path, Preset: "wordpress"}, Name: "sitemap"}, "--preset wordpress: open a CMS's database with package preset's Settings"},
		{"trigger on a crawl", serve.Settings{State: "x.db", Name: "sitemap", InstallTrigger: true}, "--install-trigger and --remove-trigger put triggers on a table"},
		{"addr", serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Name: "sitemap", Addr: "127.0.0.1:-1"}, "--addr 127.0.0.1:-1: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := serve.Run(context.Background(), c.s, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Run = %v, want %q", err, c.want)
			}
		})
	}
}

// TestRunTriggers: InstallTrigger puts the change log's triggers on a
// SQLite table, says so and returns; RemoveTrigger takes them off.
func TestRunTriggers(t *testing.T) {
	path := sqliteTable(t, "https://www.example.com/a")
	for _, remove := range []bool{false, true} {
		var log bytes.Buffer
		s := serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Name: "sitemap", InstallTrigger: !remove, RemoveTrigger: remove}
		if err := serve.Run(context.Background(), s, io.Discard, &log); err != nil {
			t.Fatalf("remove %v: %v", remove, err)
		}
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		installed, err := serve.TriggersInstalled(context.Background(), db, "pages")
		db.Close()
		if err != nil || installed == remove {
			t.Fatalf("remove %v: installed %v, %v; log %s", remove, installed, err, &log)
		}
		if !strings.HasPrefix(log.String(), "sitemap serve: ") {
			t.Errorf("log %q", &log)
		}
	}
}

// TestRunIndexNowCatchUp: with IndexNow.KeyFile and CatchUp, what the
// pages hold at start is submitted once the first build is done, and the
// ledger records it.
func TestRunIndexNowCatchUp(t *testing.T) {
	path := sqliteTable(t, "https://www.example.com/a", "https://www.example.com/b")
	got := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	const key = "0123456789abcdef"
	keyFile := filepath.Join(dir, key+".txt")
	os.WriteFile(keyFile, []byte(key), 0o644)
	s := serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Addr: "127.0.0.1:0", Name: "sitemap",
		BaseURL: "https://www.example.com/", ShutdownTimeout: 5 * time.Second, Recheck: time.Second,
		IndexNow: serve.IndexNowSettings{KeyFile: keyFile, State: filepath.Join(dir, "state.db"), Endpoint: srv.URL, CatchUp: true}}
	_, log, stop := runServer(t, s)
	select {
	case body := <-got:
		if !strings.Contains(body, `"https://www.example.com/a"`) || !strings.Contains(body, `"https://www.example.com/b"`) || !strings.Contains(body, key) {
			t.Errorf("submitted %s", body)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("nothing submitted in 60 s:\n%s", log)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(log.String(), "sitemap serve: indexnow: at start: ") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "sitemap serve: indexnow: at start: 2 URLs sent in 1 batch") {
		t.Errorf("log lacks the catch-up summary:\n%s", log)
	}
}
