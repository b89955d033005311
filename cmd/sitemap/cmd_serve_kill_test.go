package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeKilledDuringChanges is the kill -9 test of sitemap serve with
// a page cache: a child process serving a SQLite table that another
// connection keeps renaming rows of is killed at random moments, five
// times. Each start sweeps what the killed one left in --cache-dir, and
// the last start (the writes stopped) serves exactly the table, from a
// cache directory holding its pages and index and nothing else.
func TestServeKilledDuringChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "site.sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(wal)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, updated_at TEXT NOT NULL)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
		 INSERT INTO pages SELECT i, printf('https://www.example.com/p/%06d', i), '2026-11-01 10:00:00' FROM n`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rnd := rand.New(rand.NewPCG(1, 2))
		for n := 0; ctx.Err() == nil; n++ {
			id := 1 + rnd.IntN(20000)
			db.Exec(`UPDATE pages SET url = ? WHERE id = ?`, fmt.Sprintf("https://www.example.com/r/%06d-%d", id, n), id)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	cache := filepath.Join(dir, "cache")
	ready := regexp.MustCompile(`listening on (http://\S+/)sitemap\.xml`)
	start := func(i int) (func(), string) {
		sub := filepath.Join(dir, fmt.Sprint(i))
		os.Mkdir(sub, 0o755)
		cmd, stderr := startMain(t, sub, "serve", "--db", path, "--table", "pages", "--key", "id", "--per-page", "1000",
			"--base-url", "https://www.example.com/", "--cache-dir", cache, "--recheck", "100ms", "--addr", "127.0.0.1:0", "--access-log=false")
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			b, _ := os.ReadFile(stderr)
			if m := ready.FindSubmatch(b); m != nil {
				return func() { cmd.Process.Kill(); cmd.Wait() }, string(m[1])
			}
			if time.Now().After(deadline) {
				t.Fatalf("serve did not start:\n%s", b)
			}
		}
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := range 5 {
		kill, _ := start(i)
		time.Sleep(time.Duration(50+rnd.IntN(400)) * time.Millisecond) // rebuilding pages the writer changed
		kill()
		ents, _ := os.ReadDir(cache)
		t.Logf("kill %d: %d files left in the cache directory", i, len(ents))
	}
	stop()
	wg.Wait()
	kill, base := start(5)
	defer kill()
	want := tableURLs(t, db)
	if got := served(t, base); !slices.Equal(got, want) {
		t.Fatalf("after the restarts the pages list %d URLs, the table %d", len(got), len(want))
	}
	ents, _ := os.ReadDir(cache)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if !strings.HasPrefix(e.Name(), "doc-") {
			t.Errorf("the cache directory holds %s", e.Name())
		}
	}
	// 20 pages of 1,000 and the index.
	if len(names) != 21 {
		t.Errorf("the cache directory holds %d files, want 21: %v", len(names), names)
	}
}
