package serve

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// crawlState writes a crawl state file: pages listed, left out, and still
// to fetch; finished when told.
func crawlState(t *testing.T, listed, left, pending int, finish bool) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crawl.db")
	st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := st.Crawl()
	if listed+left+pending == 0 {
		return path
	}
	if _, err := log.Begin(ctx, "https://www.example.com/", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for i := range listed + left + pending {
			loc := "https://www.example.com/p/" + string(rune('a'+i))
			if err := tx.Enqueue(ctx, state.CrawlLink{Loc: loc, Depth: 1}); err != nil {
				return err
			}
			var r state.CrawlResult
			switch {
			case i < listed:
				r = state.CrawlResult{Loc: loc, Status: 200, Entry: &sitemap.URL{Loc: loc}}
			case i < listed+left:
				r = state.CrawlResult{Loc: loc, Status: 404, Reason: "status:404"}
			default:
				continue // still to fetch
			}
			if err := tx.Record(ctx, r); err != nil {
				return err
			}
		}
		if finish {
			return tx.Finish(ctx, "")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// OpenCrawl serves a finished crawl that listed pages, and refuses, each
// with its reason, a missing file, a state without a crawl, a crawl not
// finished, and one that listed no page.
func TestOpenCrawl(t *testing.T) {
	ctx := context.Background()
	src, closeState, err := OpenCrawl(ctx, crawlState(t, 2, 1, 0, true))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := src.Entries(ctx, "", nil, func(Key, *sitemap.URL) error { n++; return nil }); err != nil || n != 2 {
		t.Errorf("entries %d, %v; want the 2 listed", n, err)
	}
	closeState()

	missing := filepath.Join(t.TempDir(), "none.db")
	if _, _, err := OpenCrawl(ctx, missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("missing file: %v", err)
	}
	for _, c := range []struct {
		name string
		path string
		want CrawlStateError
	}{
		{"no crawl", crawlState(t, 0, 0, 0, false), CrawlStateError{}},
		{"not finished", crawlState(t, 1, 0, 2, false), CrawlStateError{NotFinished: true, Pending: 2}},
		{"no page listed", crawlState(t, 0, 3, 0, true), CrawlStateError{Left: 3}},
	} {
		_, _, err := OpenCrawl(ctx, c.path)
		var cse *CrawlStateError
		if !errors.As(err, &cse) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		c.want.Path = c.path
		if *cse != c.want || !strings.HasPrefix(err.Error(), c.path) {
			t.Errorf("%s: %+v (%v), want %+v", c.name, *cse, err, c.want)
		}
	}
}

// OpenDB opens an existing SQLite file read-only and names a missing one.
func TestOpenDB(t *testing.T) {
	path := crawlState(t, 1, 0, 0, true) // any SQLite file
	db, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE x (a int)"); err == nil {
		t.Error("a write succeeded on a read-only database")
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := OpenDB(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "give a SQLite file, a postgres:// or a mysql:// URL") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("OpenDB created the file")
	}
	// A directory, a text file and an empty file are refused by name
	// (SQLite said "disk I/O error (10)" and "file is not a database
	// (26)" at the first query, and read an empty file as a database
	// with no table).
	dir := t.TempDir()
	text := filepath.Join(dir, "urls.txt")
	os.WriteFile(text, []byte("https://www.example.com/\n"), 0o644)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	for name, want := range map[string]string{
		dir:   dir + " is a directory; give a SQLite file",
		text:  text + " is not a SQLite database; give a SQLite file",
		empty: empty + " is not a SQLite database; give a SQLite file",
	} {
		if db, err := OpenDB(name); err == nil || !strings.HasPrefix(err.Error(), want) {
			if db != nil {
				db.Close()
			}
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
