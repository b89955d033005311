package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/serve"
)

// sitemap serve --install-trigger on a MariaDB table: serve then follows
// its change log (a commit in its page within the bound), and
// --remove-trigger takes the triggers away.
func TestServeMySQLTrigger(t *testing.T) {
	url := mariatest.DB(t)
	db, err := serve.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE pages (id int PRIMARY KEY, url varchar(200) NOT NULL, updated_at datetime)",
		"INSERT INTO pages VALUES (1, 'https://www.example.com/a', '2026-11-02 10:00:00'), (2, 'https://www.example.com/b', '2026-11-02 10:00:00')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--db", url, "--table", "pages", "--key", "id"}
	code, _, stderr := runCLI(t, "", append([]string{"serve", "--install-trigger"}, args...)...)
	if code != 0 || !strings.Contains(stderr, "change triggers installed on table pages (key id)") {
		t.Fatalf("--install-trigger: exit %d: %s", code, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	u, errb, done := startServe(t, ctx, append([]string{"--base-url", "https://www.example.com/", "--access-log=false"}, args...)...)
	if !strings.Contains(errb.String(), "changes: the change log of table pages") {
		t.Errorf("serve does not say it follows the change log:\n%s", errb)
	}
	if _, err := db.Exec("UPDATE pages SET url = 'https://www.example.com/renamed' WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	page := strings.TrimSuffix(u, "sitemap.xml") + "sitemap-1.xml"
	start := time.Now()
	for {
		if _, b := httpGet(t, page); strings.Contains(b, "https://www.example.com/renamed") {
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the renamed row is not served 20 s after the commit:\n%s", errb)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	code, _, stderr = runCLI(t, "", append([]string{"serve", "--remove-trigger"}, args...)...)
	if code != 0 || !strings.Contains(stderr, "the change triggers of table pages are removed") {
		t.Fatalf("--remove-trigger: exit %d: %s", code, stderr)
	}
	if on, err := serve.TriggersInstalled(context.Background(), db, "pages"); on || err != nil {
		t.Errorf("after --remove-trigger: installed %v, %v", on, err)
	}
}

// --install-trigger with a preset puts the triggers on the preset's
// tables; a query names none.
func TestServePresetTrigger(t *testing.T) {
	wiki := mediaWikiSQLite(t)
	code, _, stderr := runCLI(t, "", "serve", "--db", wiki, "--preset", "mediawiki", "--install-trigger")
	if code != 0 || !strings.Contains(stderr, "change triggers installed on tables page (key page_id), page_props (key pp_page)") {
		t.Fatalf("--install-trigger --preset: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "serve", "--db", wiki, "--query", "SELECT page_title AS url FROM page", "--install-trigger")
	if code == 0 || !strings.Contains(stderr, "give --db with --table or --preset") {
		t.Errorf("--install-trigger --query: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "serve", "--db", wiki, "--preset", "mediawiki", "--remove-trigger")
	if code != 0 || !strings.Contains(stderr, "the change triggers of tables page, page_props are removed") {
		t.Fatalf("--remove-trigger --preset: exit %d: %s", code, stderr)
	}
}
