package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// crawl --indexnow-key-file: after publishing, the pages whose content
// changed since their last submission are sent, each once.
func TestCrawlSubmitsChangesOnce(t *testing.T) {
	var aText atomic.Value
	aText.Store("first")
	var mu sync.Mutex
	var posts [][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/indexnow":
			var b struct{ URLList []string }
			data, _ := io.ReadAll(r.Body)
			json.Unmarshal(data, &b)
			mu.Lock()
			posts = append(posts, b.URLList)
			mu.Unlock()
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><title>home</title></head><body><a href="/a">a</a></body></html>`)
		case r.URL.Path == "/a":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><title>a</title></head><body>`+aText.Load().(string)+`</body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	out, st := filepath.Join(dir, "public"), filepath.Join(dir, "crawl.db")
	run := func() []string {
		mu.Lock()
		before := len(posts)
		mu.Unlock()
		code, _, errb := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--state", st, "--rate", "0",
			"--indexnow-key-file", keyFile, "--indexnow-endpoint", srv.URL+"/indexnow")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errb)
		}
		mu.Lock()
		defer mu.Unlock()
		var got []string
		for _, p := range posts[before:] {
			got = append(got, p...)
		}
		return got
	}
	if got := run(); !slices.Equal(got, []string{srv.URL + "/", srv.URL + "/a"}) {
		t.Fatalf("first crawl sent %q", got)
	}
	if got := run(); len(got) != 0 {
		t.Fatalf("unchanged crawl sent %q", got)
	}
	aText.Store("changed")
	if got := run(); !slices.Equal(got, []string{srv.URL + "/a"}) {
		t.Fatalf("crawl after /a changed sent %q", got)
	}
}

// crawl has the IndexNow options of generate (submit's, prefixed
// indexnow-): --indexnow-dry-run prints the batch and sends and records
// nothing, so the next run sends; --indexnow-max-per-day holds the rest
// back.
func TestCrawlIndexNowOptions(t *testing.T) {
	var posts atomic.Int64
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/indexnow":
			var b struct{ URLList []string }
			data, _ := io.ReadAll(r.Body)
			json.Unmarshal(data, &b)
			posts.Add(1)
			sent.Add(int64(len(b.URLList)))
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><title>home</title></head><body><a href="/a">a</a> <a href="/b">b</a></body></html>`)
		case r.URL.Path == "/a" || r.URL.Path == "/b":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><title>page</title></head><body>`+r.URL.Path+`</body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	out, st := filepath.Join(dir, "public"), filepath.Join(dir, "crawl.db")
	run := func(extra ...string) string {
		args := append([]string{"crawl", srv.URL + "/", "--out", out, "--state", st, "--rate", "0",
			"--indexnow-key-file", keyFile, "--indexnow-endpoint", srv.URL + "/indexnow"}, extra...)
		code, _, errb := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", extra, code, errb)
		}
		return errb
	}
	if errb := run("--indexnow-dry-run"); posts.Load() != 0 || !strings.Contains(errb, `indexnow: dry run: {"batch":1,`) {
		t.Fatalf("dry run: %d posts\n%s", posts.Load(), errb)
	}
	run("--indexnow-max-per-day", "2")
	if sent.Load() != 2 {
		t.Fatalf("quota 2: %d URLs sent", sent.Load())
	}
	run()
	if sent.Load() != 3 {
		t.Fatalf("after the quota: %d URLs sent in all, want the 3 pages", sent.Load())
	}
}
