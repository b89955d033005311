package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// syncBuffer is a standard error a running server writes while the test
// reads it; ready gets the URL of the serveReady line.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	ready chan string
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{ready: make(chan string, 1)} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Write(p)
	for line := range strings.SplitSeq(string(p), "\n") {
		if rest, ok := strings.CutPrefix(line, serveReady); ok {
			u, _, _ := strings.Cut(rest, " ")
			select {
			case s.ready <- u:
			default:
			}
		}
	}
	return len(p), nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs `sitemap serve args…` in-process on a free port of
// 127.0.0.1 until ctx is done; it returns the URL the server printed and
// a channel with the exit code.
func startServe(t *testing.T, ctx context.Context, args ...string) (string, *syncBuffer, chan int) {
	t.Helper()
	errb := newSyncBuffer()
	code := make(chan int, 1)
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: errb}
	go func() { code <- execute(ctx, s, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	select {
	case u := <-errb.ready:
		return u, errb, code
	case c := <-code:
		t.Fatalf("serve %v exited %d before listening:\n%s", args, c, errb.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("serve %v did not start:\n%s", args, errb.String())
	}
	return "", nil, nil
}

// pagesDB writes a SQLite file with a table pages(url, updated_at) of n rows.
func pagesDB(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT NOT NULL)`,
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < %d)
		 INSERT INTO pages SELECT printf('https://www.example.com/page/%%07d', i), printf('2026-11-%%02d 10:00:00', 1 + i %% 20) FROM n`, n),
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func httpGet(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// serve --db FILE --table: the index, a page, a 304, health, metrics,
// the access log, and a clean exit when stopped.
func TestServeSQLite(t *testing.T) {
	db := pagesDB(t, 25)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, "--db", db, "--table", "pages", "--columns", "loc=url,lastmod=updated_at", "--per-page", "10", "--base-url", "https://www.example.com/", "--no-warm")
	base := strings.TrimSuffix(u, "sitemap.xml")
	res, idx := httpGet(t, u)
	if res.StatusCode != 200 || strings.Count(idx, "<sitemap>") != 3 || !strings.Contains(idx, "<loc>https://www.example.com/sitemap-3.xml</loc><lastmod>2026-11-05T10:00:00Z</lastmod>") {
		t.Fatalf("index: %s\n%s", res.Status, idx)
	}
	res, page := httpGet(t, base+"sitemap-3.xml")
	if res.StatusCode != 200 || strings.Count(page, "<url>") != 5 || res.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Errorf("page 3: %s %v\n%s", res.Status, res.Header, page)
	}
	if res, _ := httpGet(t, base+"sitemap-3.xml", "If-None-Match", res.Header.Get("ETag")); res.StatusCode != 304 {
		t.Errorf("second request with the ETag: %s", res.Status)
	}
	if res, b := httpGet(t, base+"healthz"); res.StatusCode != 200 || b != "ok\n" {
		t.Errorf("healthz: %s %q", res.Status, b)
	}
	_, m := httpGet(t, base+"metrics")
	for _, want := range []string{`sitemap_serve_documents_total{kind="page"} 1`, "sitemap_serve_not_modified_total 1", "sitemap_serve_pages 3", `sitemap_serve_requests_total{code="200"}`, "sitemap_serve_page_build_seconds_count 3"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q:\n%s", want, m)
		}
	}
	cancel()
	if c := <-code; c != exitOK {
		t.Errorf("exit %d after the context ended:\n%s", c, errb.String())
	}
	if log := errb.String(); !strings.Contains(log, `"GET /sitemap-3.xml HTTP/1.1" 200 `) || !strings.Contains(log, `"GET /sitemap-3.xml HTTP/1.1" 304 0`) {
		t.Errorf("access log:\n%s", log)
	}
}

// A SIGTERM while a page is being sent lets it finish: the client reads
// the whole document, and the command exits 0.
func TestServeSIGTERMFinishesPage(t *testing.T) {
	db := pagesDB(t, 50000)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	u, errb, code := startServe(t, ctx, "--db", db, "--table", "pages", "--columns", "loc=url,lastmod=updated_at", "--access-log=false", "--per-page", "50000")
	page := strings.TrimSuffix(u, "sitemap.xml") + "sitemap-1.xml"
	// A client with a small receive buffer that reads slowly: the server
	// is still writing the page when the signal comes.
	dialer := &net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	res, err := client.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	br := bufio.NewReaderSize(res.Body, 1024)
	head := make([]byte, 1024)
	if _, err := io.ReadFull(br, head); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Wait until the server has stopped listening, then read the rest.
	addr := strings.TrimPrefix(strings.Split(u, "/")[2], "")
	for deadline := time.Now().Add(time.Minute); ; {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections a minute after SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatalf("the page was cut after SIGTERM: %v", err)
	}
	doc := string(head) + string(rest)
	if n := strings.Count(doc, "<url>"); n != 50000 || !strings.HasSuffix(doc, "</urlset>\n") {
		t.Errorf("after SIGTERM the page has %d entries (want 50000), ends %q", n, doc[len(doc)-30:])
	}
	if c := <-code; c != exitOK {
		t.Errorf("exit %d after SIGTERM:\n%s", c, errb.String())
	}
}

func TestServeUsage(t *testing.T) {
	db := pagesDB(t, 1)
	for _, args := range [][]string{
		{"serve"},
		{"serve", ".", "--db", db},
		{"serve", "--db", db},
		{"serve", "--table", "pages"},
		{"serve", "--db", db, "--table", "nosuch"},
		{"serve", "--db", filepath.Join(t.TempDir(), "missing.sqlite"), "--table", "pages"},
		{"serve", "--db", db, "--table", "pages", "--columns", "url"},
		{"serve", "--db", db, "--table", "pages", "--columns", "loc=url", "--per-page", "50001"},
		{"serve", "nosuchdir"},
		{"serve", "--state", "nosuch.db"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "serve") && !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// An entry the encoder refuses is left out of its page and said on
// standard error, on one line.
func TestServeSkipped(t *testing.T) {
	db := pagesDB(t, 3)
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(`INSERT INTO pages VALUES ('https://www.example.com/a b' || char(10) || 'c', '2026-11-01 00:00:00')`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, "--db", db, "--table", "pages", "--columns", "loc=url,lastmod=updated_at", "--access-log=false")
	_, page := httpGet(t, strings.TrimSuffix(u, "sitemap.xml")+"sitemap-1.xml")
	cancel()
	<-code
	if n := strings.Count(page, "<url>"); n != 3 {
		t.Errorf("page has %d entries, want the 3 good ones:\n%s", n, page)
	}
	log := errb.String()
	// changes:, listening, the entry, stopping
	if !strings.Contains(log, "sitemap serve: entry left out of its page: ") || !strings.Contains(log, `a b\nc" contains a space`) || strings.Count(log, "\n") != 4 {
		t.Errorf("stderr:\n%s", log)
	}
}
