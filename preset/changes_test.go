package preset

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/serve"
)

// watch serves p from db through the change log of its Changes tables
// (the triggers installed now), as `sitemap serve --preset NAME` does after
// --install-trigger; it returns a function that reports whether loc is
// served.
func watch(t *testing.T, db *sql.DB, p Preset, base string) func(loc string) bool {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	src, err := serve.SQL(ctx, db, p.Query)
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.InstallTriggers(ctx, db, src.ChangeTables()...); err != nil {
		t.Fatal(err)
	}
	if on, err := src.ChangeLog(ctx); !on || err != nil {
		t.Fatalf("ChangeLog = %v, %v after InstallTriggers", on, err)
	}
	o := serve.Options{BaseURL: base}
	o.FeedError = func(err error) { t.Errorf("the feed failed: %v", err) }
	h, err := serve.NewHandler(serve.WatchChanges(src, &serve.ChangeFeed{Poll: 20 * time.Millisecond}), o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; h.Close(); src.Close() })
	return func(loc string) bool {
		found := false
		h.Entries()(ctx, func(u *sitemap.URL) error {
			found = found || u.Loc == loc
			return nil
		})
		return found
	}
}

// within waits up to 5 seconds (the bound of a commit) for served(loc) to
// be want.
func within(t *testing.T, served func(string) bool, loc string, want bool, what string) {
	t.Helper()
	start := time.Now()
	for served(loc) != want {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("%s: %s served %v 20 s after the commit", what, loc, !want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%s: after %s", what, time.Since(start).Round(time.Millisecond))
}

// With the triggers on the preset's Changes tables, a post renamed in
// wp_posts and a post marked noindex by Yoast in wp_postmeta show in
// their pages within the bound.
func TestWordPressChanges(t *testing.T) {
	db := loadWordPress(t, "dated")
	p, err := Load(context.Background(), db, "wordpress", Options{})
	if err != nil {
		t.Fatal(err)
	}
	served := servedWithin(t, watch(t, db, p, "https://blog.example.com/"))
	served("https://blog.example.com/2026/02/hello-world-friends/", true, "at start")
	exec(t, db, "UPDATE wp_posts SET post_name = 'renamed-by-test' WHERE ID = 4")
	served("https://blog.example.com/2026/02/renamed-by-test/", true, "a post renamed")
	exec(t, db, "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (7, '_yoast_wpseo_meta-robots-noindex', '1')")
	served("https://blog.example.com/2026/05/a-b-testing-100/", false, "a post marked noindex")
}

// The MediaWiki preset's Changes on MariaDB and SQLite (PostgreSQL has its
// own feed): a page moved, and a page given __NOINDEX__ (page_props).
func TestMediaWikiChanges(t *testing.T) {
	for _, e := range engines {
		if e.d == serve.Postgres {
			continue
		}
		t.Run(e.name, func(t *testing.T) {
			db := loadMediaWiki(t, e, "mw_")
			if e.d == serve.SQLite {
				// The feed reads while the test writes: in WAL mode a
				// reader never makes a writer wait (SQLITE_BUSY).
				exec(t, db, "PRAGMA journal_mode=WAL")
			}
			p, err := MediaWiki(Options{Prefix: "mw_", Dialect: e.d})
			if err != nil {
				t.Fatal(err)
			}
			var id int64
			var title string
			if err := db.QueryRow("SELECT page_id, page_title FROM mw_page WHERE page_namespace = 0 AND page_is_redirect = 0 ORDER BY page_id LIMIT 1").Scan(&id, &title); err != nil {
				t.Fatal(err)
			}
			served := servedWithin(t, watch(t, db, p, "https://wiki.example.org/"))
			served("https://wiki.example.org/wiki/"+WikiURLEncode(title), true, "at start")
			exec(t, db, "UPDATE mw_page SET page_title = ? WHERE page_id = ?", "Moved_by_test", id)
			served("https://wiki.example.org/wiki/Moved_by_test", true, "a page moved")
			exec(t, db, "INSERT INTO mw_page_props (pp_page, pp_propname, pp_value) VALUES (?, 'noindex', '')", id)
			served("https://wiki.example.org/wiki/Moved_by_test", false, "a page given __NOINDEX__")
		})
	}
}

// servedWithin is within for served.
func servedWithin(t *testing.T, served func(string) bool) func(loc string, want bool, what string) {
	return func(loc string, want bool, what string) { t.Helper(); within(t, served, loc, want, what) }
}

func exec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", strings.TrimSpace(q), err)
	}
}
