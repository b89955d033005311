package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
)

// indexnowSink is a fake IndexNow endpoint counting every URL posted.
type indexnowSink struct {
	mu   sync.Mutex
	seen map[string]int
}

func (s *indexnowSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URLList []string `json:"urlList"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	s.mu.Lock()
	for _, u := range body.URLList {
		s.seen[u]++
	}
	s.mu.Unlock()
	w.WriteHeader(200)
}

func (s *indexnowSink) count(u string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[u]
}

func (s *indexnowSink) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// tableURLs returns the url column of the table pages, sorted as served
// returns its locs.
func tableURLs(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT url FROM pages`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

var servedLoc = regexp.MustCompile(`<loc>([^<]*)</loc>`)

// served fetches the index and every page of a server: its locs, sorted.
func served(t *testing.T, base string) []string {
	t.Helper()
	res, idx := httpGet(t, base+"sitemap.xml")
	if res.StatusCode != 200 {
		return nil
	}
	var out []string
	for _, m := range servedLoc.FindAllStringSubmatch(idx, -1) {
		_, page := httpGet(t, base+m[1][strings.LastIndexByte(m[1], '/')+1:])
		for _, l := range servedLoc.FindAllStringSubmatch(page, -1) {
			out = append(out, l[1])
		}
	}
	slices.Sort(out)
	return out
}

// sitemap serve --feed logical follows a PostgreSQL table's commits: an
// insert, a rename, a new lastmod and a delete are served within seconds,
// and --indexnow-key-file submits each URL added or changed once, never
// a removed one.
func TestServePostgresFeedAndIndexNow(t *testing.T) {
	dsn := pgtest.DB(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(`CREATE TABLE pages (url text PRIMARY KEY, updated_at timestamptz NOT NULL)`)
	must(`INSERT INTO pages SELECT 'https://www.example.com/p/' || lpad(i::text, 3, '0'), timestamptz '2026-11-01 00:00:00+00' + i * interval '1 hour' FROM generate_series(1, 30) i`)
	sink := &indexnowSink{seen: map[string]int{}}
	endpoint := httptest.NewServer(sink)
	defer endpoint.Close()
	dir := t.TempDir()
	key := "0123456789abcdef0123456789abcdef"
	writeFile(t, filepath.Join(dir, key+".txt"), key)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, "--db", dsn, "--table", "pages", "--feed", "logical", "--per-page", "10",
		"--base-url", "https://www.example.com/", "--recheck", "1h",
		"--indexnow-key-file", filepath.Join(dir, key+".txt"), "--indexnow-state", filepath.Join(dir, "state.db"), "--indexnow-endpoint", endpoint.URL+"/indexnow", "--indexnow-catch-up")
	base := u[:strings.LastIndexByte(u, '/')+1]
	wait := func(what string, cond func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > 30*time.Second {
				t.Fatalf("waited 30 s for %s\n%s", what, errb.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		return time.Since(start)
	}
	wait("the first build's 30 URLs at the endpoint", func() bool { return sink.total() == 30 })
	must(`SET synchronous_commit = on`)
	must(`INSERT INTO pages VALUES ('https://www.example.com/p/new', '2026-11-20 00:00:00+00')`)
	must(`UPDATE pages SET url = 'https://www.example.com/p/renamed' WHERE url = 'https://www.example.com/p/005'`)
	must(`UPDATE pages SET updated_at = '2026-11-25 00:00:00+00' WHERE url = 'https://www.example.com/p/017'`)
	must(`DELETE FROM pages WHERE url = 'https://www.example.com/p/022'`)
	want := tableURLs(t, db)
	d := wait("the pages to equal the table", func() bool { return slices.Equal(served(t, base), want) })
	t.Logf("pages equal the table %s after the last commit", d)
	for _, u := range []string{"https://www.example.com/p/new", "https://www.example.com/p/renamed", "https://www.example.com/p/017"} {
		wait(u+" at the endpoint", func() bool { return sink.count(u) > 0 })
	}
	time.Sleep(3 * time.Second) // another round of the queue, which must send nothing more
	for u, want := range map[string]int{"https://www.example.com/p/new": 1, "https://www.example.com/p/renamed": 1, "https://www.example.com/p/017": 2,
		"https://www.example.com/p/022": 1, "https://www.example.com/p/005": 1, "https://www.example.com/p/001": 1} {
		if got := sink.count(u); got != want {
			t.Errorf("%s submitted %d times, want %d", u, got, want)
		}
	}
	cancel()
	if c := <-code; c != exitOK {
		t.Errorf("exit %d:\n%s", c, errb.String())
	}
}

// sitemap serve --indexnow-key-file and two sitemap submit runs on one
// state at once, all sending the same 2,000 URLs: each is sent once.
func TestServeAndSubmitShareTheLedger(t *testing.T) {
	dbPath := pagesDB(t, 2000)
	dir := t.TempDir()
	sink := &indexnowSink{seen: map[string]int{}}
	var posts atomic.Int64
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		sink.ServeHTTP(w, r)
	}))
	defer endpoint.Close()
	key := "0123456789abcdef0123456789abcdef"
	keyFile := filepath.Join(dir, key+".txt")
	writeFile(t, keyFile, key)
	st := filepath.Join(dir, "state.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, "--db", dbPath, "--table", "pages", "--columns", "loc=url,lastmod=updated_at",
		"--base-url", "https://www.example.com/", "--indexnow-key-file", keyFile, "--indexnow-state", st, "--indexnow-endpoint", endpoint.URL, "--indexnow-catch-up")
	// The submit runs read the sitemaps serve serves, so their entries
	// are the versions serve submits.
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, _, errb := runCLI(t, "", "submit", "--key", key, "--host", "www.example.com", "--state", st, "--batch-size", "100",
				"--endpoint", endpoint.URL, strings.TrimSuffix(u, "sitemap.xml")+"sitemap-1.xml"); code != exitOK {
				t.Errorf("submit: exit %d\n%s", code, errb)
			}
		}()
	}
	wg.Wait()
	for start := time.Now(); sink.total() < 2000; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatalf("%d of 2,000 URLs sent in a minute\n%s", sink.total(), errb.String())
		}
	}
	time.Sleep(3 * time.Second) // serve's queue runs again: nothing more to send
	sink.mu.Lock()
	for u, n := range sink.seen {
		if n != 1 {
			t.Errorf("%s sent %d times", u, n)
		}
	}
	sink.mu.Unlock()
	t.Logf("%d POSTs", posts.Load())
	cancel()
	if c := <-code; c != exitOK {
		t.Errorf("serve: exit %d\n%s", c, errb.String())
	}
}
