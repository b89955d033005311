package preset

import (
	"context"
	"database/sql"
	"os"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/serve"
)

// loadWordPress loads testdata/wordpress/dump-NAME.sql, a WordPress site
// as WordPress 6.1 made it (testdata/wordpress/make.sh), into a new
// MariaDB database, and returns the database opened as `--db mysql://…`
// opens it.
func loadWordPress(t *testing.T, name string) *sql.DB {
	t.Helper()
	url := mariatest.DB(t)
	dsn, err := mariatest.DSN(url)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	b, err := os.ReadFile("testdata/wordpress/dump-" + name + ".sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(string(b)); err != nil {
		t.Fatalf("loading dump-%s.sql: %v", name, err)
	}
	return openDB(t, url)
}

// wpNoindex are the posts of the test sites that Yoast SEO and Rank Math
// mark noindex: WordPress's core sitemaps list them (they know nothing
// of either plugin, whose own sitemaps leave them out); the preset
// leaves them out.
var wpNoindex = []string{"yoast-noindex", "rank-math-noindex", "?p=17", "?p=18"}

// The WordPress preset lists what WordPress's core sitemaps list for the
// same database, but the posts marked noindex: posts, pages (nested
// three deep), the home page or the static front page, categories (with
// their parents), tags, post formats and authors, under a dated, a
// category-and-id and the plain permalink structure, a custom post type
// (product), with the prefixes
// wp_ and blog_; drafts, private, pending, scheduled and trashed posts,
// attachments and empty categories left out.
func TestWordPress(t *testing.T) {
	for _, c := range []struct{ name, prefix string }{{"dated", ""}, {"category", "blog_"}, {"plain", "wp_"}} {
		t.Run(c.name, func(t *testing.T) {
			db := loadWordPress(t, c.name)
			p, err := Load(context.Background(), db, "wordpress", Options{Prefix: c.prefix, PostTypes: []string{"product"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range listed(t, db, p, "") {
				loc, _, _ := strings.Cut(l, "\t")
				got = append(got, loc)
			}
			var want []string
			for _, w := range expected(t, "testdata/wordpress/wp-sitemap-"+c.name+".txt") {
				if !slices.ContainsFunc(wpNoindex, func(n string) bool { return strings.Contains(w, n) }) {
					want = append(want, w)
				}
			}
			sameList(t, got, want)
		})
	}
}

// A post's lastmod is its post_modified_gmt; the home page's the newest
// post's; a featured image is an image entry at the uploads URL.
func TestWordPressLastmodAndImage(t *testing.T) {
	db := loadWordPress(t, "dated")
	ctx := context.Background()
	p, err := WordPress(ctx, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var newest, home, photo string
	if err := db.QueryRow("SELECT DATE_FORMAT(MAX(post_modified_gmt), '%Y-%m-%dT%H:%i:%sZ') FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish'").Scan(&newest); err != nil {
		t.Fatal(err)
	}
	src, err := serve.SQL(ctx, db, p.Query)
	if err != nil {
		t.Fatal(err)
	}
	err = serve.All(src, "")(ctx, func(u *sitemap.URL) error {
		switch u.Loc {
		case "https://blog.example.com/":
			home = u.LastMod.String()
		case "https://blog.example.com/2026/04/with-a-photo/":
			if len(u.Images) == 1 {
				photo = u.Images[0].Loc
			}
			if u.LastMod.IsZero() {
				t.Errorf("%s has no lastmod", u.Loc)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if home != newest {
		t.Errorf("home lastmod %q, want the newest post's %q", home, newest)
	}
	if photo != "https://blog.example.com/wp-content/uploads/2026/11/photo one.jpg" {
		t.Errorf("featured image %q", photo)
	}
}

// The preset refuses a database that is not WordPress's, and an engine
// WordPress does not run on.
func TestWordPressRefuses(t *testing.T) {
	db := openDB(t, mariatest.DB(t))
	if _, err := WordPress(context.Background(), db, Options{}); err == nil || !strings.Contains(err.Error(), "wp_options") {
		t.Errorf("no wp_options: %v", err)
	}
	if _, err := WordPress(context.Background(), db, Options{Dialect: serve.SQLite}); err == nil || !strings.Contains(err.Error(), "MySQL") {
		t.Errorf("SQLite: %v", err)
	}
}
