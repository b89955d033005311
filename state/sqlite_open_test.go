package state

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSQLiteRefusesOtherFiles: a file that is not a state file (an
// application's own SQLite database given to --state by mistake, a
// report, a text file) is refused with a message that says so, and is
// left as it was: no state table created in it, its journal mode kept.
func TestOpenSQLiteRefusesOtherFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	app := filepath.Join(dir, "app.sqlite")
	db, err := sql.Open("sqlite", app)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE pages(url TEXT PRIMARY KEY, updated_at TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	text := filepath.Join(dir, "crawl.jsonl")
	if err := os.WriteFile(text, []byte(`{"url":"https://www.example.com/"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{app, text} {
		st, err := OpenSQLite(ctx, path, SQLiteOptions{})
		if err == nil {
			st.Close()
			t.Errorf("%s: opened as a state file", path)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "not a sitemap state file") || !strings.Contains(msg, path) {
			t.Errorf("%s: %v; want a message that it is not a state file", path, err)
		}
	}
	db, err = sql.Open("sqlite", app)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables, mode string
	if err := db.QueryRow(`SELECT group_concat(name, ' ') FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if tables != "pages" || mode != "delete" {
		t.Errorf("the application database was changed: tables %q, journal mode %q", tables, mode)
	}
	if b, _ := os.ReadFile(text); !strings.HasPrefix(string(b), `{"url"`) {
		t.Errorf("the text file was changed: %q", b)
	}

	// A new file, an empty one and a state file open as before.
	for _, name := range []string{"new.db", "empty.db"} {
		path := filepath.Join(dir, name)
		if name == "empty.db" {
			os.WriteFile(path, nil, 0o644)
		}
		st, err := OpenSQLite(ctx, path, SQLiteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st.Close()
		st, err = OpenSQLite(ctx, path, SQLiteOptions{})
		if err != nil {
			t.Fatalf("%s reopened: %v", name, err)
		}
		st.Close()
	}
}

// TestOpenSQLiteUnwritableDirectory: a state file in a directory where
// no file can be created (read-only, another user's) is refused saying
// so and what to do, not in SQLite's "unable to open database file
// (14)".
func TestOpenSQLiteUnwritableDirectory(t *testing.T) {
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		// root writes through permissions; sysfs refuses new files
		// even to root.
		dir = "/sys"
		if _, err := os.Stat(dir); err != nil {
			t.Skip("no /sys to stand for a directory root cannot write to")
		}
	} else {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	path := filepath.Join(dir, "sitemap-state.db")
	st, err := OpenSQLite(context.Background(), path, SQLiteOptions{})
	if err == nil {
		st.Close()
		t.Fatalf("%s: opened", path)
	}
	if msg := err.Error(); !strings.Contains(msg, "cannot create a file in "+dir) || !strings.HasSuffix(msg, "give a state file in a directory you can write to") {
		t.Errorf("%v; want why no file can be created there, and what to do", err)
	}
}
