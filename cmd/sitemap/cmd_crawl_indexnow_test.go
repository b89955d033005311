package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
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
