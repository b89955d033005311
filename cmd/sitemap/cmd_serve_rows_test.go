package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// forgivingDB writes a SQLite file with a table pages(id, url,
// updated_at, ext) of n good rows and one whose lastmod is no date and
// whose ext is not JSON.
func forgivingDB(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL, updated_at TEXT, ext TEXT)`); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := db.Exec(`INSERT INTO pages VALUES (?, ?, '2026-11-01', NULL)`, i+1, fmt.Sprintf("https://www.example.com/p/%03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO pages VALUES (?, 'https://www.example.com/bad', 'n/a', 'not json')`, n+1); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestServeForgivingRows: serve --table without --columns finds the url,
// updated_at and ext columns by name and says so; it starts although a
// row holds a lastmod that is no date and an ext that is not JSON, serves
// that row without them, logs each dropped value once with its rule
// (across two builds of its page: before and after a change to another
// row), never in a response, and counts them in /metrics. Before, the row's page answered 503 and serve refused to
// start.
func TestServeForgivingRows(t *testing.T) {
	db := forgivingDB(t, 20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, "--db", db, "--table", "pages", "--key", "id", "--recheck", "100ms", "--access-log=false")
	base := strings.TrimSuffix(u, "sitemap.xml")
	check := func(page string) {
		t.Helper()
		if strings.Count(page, "<url>") != 21 || strings.Contains(page, "not json") || strings.Contains(page, "n/a") ||
			!strings.Contains(page, "<url><loc>https://www.example.com/bad</loc></url>") || !strings.Contains(page, "<lastmod>2026-11-01</lastmod>") {
			t.Fatalf("page 1:\n%s", page)
		}
	}
	res, page := httpGet(t, base+"sitemap-1.xml")
	if res.StatusCode != 200 {
		t.Fatalf("page 1: %s\n%s", res.Status, page)
	}
	check(page)
	// A change to another row of the page: the page is built again, the
	// bad row read again.
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(`UPDATE pages SET updated_at = '2026-11-20' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(page, "<lastmod>2026-11-20</lastmod>"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the change is not served after 20 s:\n%s", page)
		}
		res, page = httpGet(t, base+"sitemap-1.xml")
		if res.StatusCode != 200 {
			t.Fatalf("page 1: %s\n%s", res.Status, page)
		}
	}
	check(page)
	_, m := httpGet(t, base+"metrics")
	for _, rule := range []string{"M-01", "SRC-06"} {
		re := regexp.MustCompile(`sitemap_serve_dropped_values_total\{rule="` + rule + `"\} (\d+)\n`)
		if c := re.FindStringSubmatch(m); c == nil {
			t.Errorf("metrics lack the %s drops:\n%s", rule, m)
		} else if n, _ := strconv.Atoi(c[1]); n < 2 {
			t.Errorf("%s counted %d times over two page builds", rule, n)
		}
	}
	cancel()
	if c := <-code; c != exitOK {
		t.Errorf("exit %d", c)
	}
	log := errb.String()
	if !strings.Contains(log, "sitemap serve: columns found by name: loc=url, lastmod=updated_at, ext=ext\n") {
		t.Errorf("the columns found are not said:\n%s", log)
	}
	for _, want := range []string{
		`sitemap serve: https://www.example.com/bad: warning M-01: lastmod "n/a" is not a date`,
		`sitemap serve: https://www.example.com/bad: warning SRC-06: ext "not json" is not a JSON object`,
	} {
		if n := strings.Count(log, want); n != 1 {
			t.Errorf("logged %d times, want once: %s\n%s", n, want, log)
		}
	}
}

// TestServeColumnsTypo: a --columns column the table lacks is refused
// with the columns it has and the likely mapping.
func TestServeColumnsTypo(t *testing.T) {
	db := forgivingDB(t, 1)
	code, _, stderr := runCLI(t, "", "serve", "--db", db, "--table", "pages", "--columns", "lastmod=updated")
	if code != exitUsage || !strings.Contains(stderr, "it has id, url, updated_at, ext") || !strings.Contains(stderr, "did you mean lastmod=updated_at?") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}
