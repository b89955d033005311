package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// crawl --state postgres://… publishes what a crawl with an SQLite state
// file does, byte for byte, with the same report; a second run (unchanged
// site) too.
func TestCrawlPostgresState(t *testing.T) {
	srv := crawlTestSite(t)
	db := pgtest.DB(t)
	dir := t.TempDir()
	run := func(name, st string) (string, string) {
		t.Helper()
		out := filepath.Join(dir, name)
		report := filepath.Join(dir, name+".jsonl")
		code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--state", st, "--report", report, "--rate", "0")
		if code != exitProblems { // the site links a 404
			t.Fatalf("crawl --state %s: exit %d\n%s", st, code, stderr)
		}
		if strings.Contains(stderr, "postgres://") && strings.Contains(db, "@") && strings.Contains(stderr, db) {
			t.Errorf("stderr shows the connection URL as given:\n%s", stderr)
		}
		sm, err := os.ReadFile(filepath.Join(out, "sitemap.xml"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		return string(sm), string(rep)
	}
	for i := range 2 {
		wantSM, wantRep := run("sqlite", filepath.Join(dir, "state.db"))
		gotSM, gotRep := run("postgres", db)
		if gotSM != wantSM {
			t.Errorf("run %d: sitemap with the PostgreSQL state:\n%s\nwith SQLite:\n%s", i+1, gotSM, wantSM)
		}
		if gotRep != wantRep {
			t.Errorf("run %d: report with the PostgreSQL state:\n%s\nwith SQLite:\n%s", i+1, gotRep, wantRep)
		}
	}
	// The readers of a crawl state take the database too: the same link
	// graph as from the file.
	graphOf := func(st string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "links.json")
		if code, _, stderr := runCLI(t, "", "graph", "--state", st, "-o", out); code != exitOK {
			t.Fatalf("graph --state %s: exit %d\n%s", st, code, stderr)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	if got, want := graphOf(db), graphOf(filepath.Join(dir, "state.db")); got != want || !strings.Contains(got, `"edges"`) {
		t.Errorf("graph of the PostgreSQL state:\n%s\nof the file:\n%s", got, want)
	}
	// serve --state takes the database too: the same page as from the file.
	pageOf := func(st string) string {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		u, errb, done := startServe(t, ctx, "--state", st, "--base-url", "https://www.example.com/")
		resp, body := httpGet(t, strings.TrimSuffix(u, "sitemap.xml")+"sitemap-1.xml")
		if resp.StatusCode != 200 {
			t.Errorf("serve --state %s: %d %s", st, resp.StatusCode, body)
		}
		cancel()
		<-done
		if strings.Contains(errb.String(), db) && strings.Contains(db, "@") {
			t.Errorf("serve shows the connection URL as given:\n%s", errb.String())
		}
		return body
	}
	if got, want := pageOf(db), pageOf(filepath.Join(dir, "state.db")); got != want || !strings.Contains(got, "<loc>"+srv.URL+"/a</loc>") {
		t.Errorf("serve of the PostgreSQL state:\n%s\nof the file:\n%s", got, want)
	}
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", t.TempDir(), "--state", db, "--dry-run"); code != exitUsage {
		t.Errorf("crawl --dry-run with a postgres state: exit %d, want 2\n%s", code, stderr)
	}
}
