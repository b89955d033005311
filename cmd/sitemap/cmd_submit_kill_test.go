package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestSubmitKilledResumes is the kill -9 test of an IndexNow submission
// with --state: a `sitemap submit` child process sending 50 URLs in
// batches of 10 is SIGKILLed while the endpoint holds its second batch
// (the endpoint has received it; the process has not seen the answer).
// The re-run sends what the ledger does not record as sent: the batch in
// flight again (the crash window: received but not recorded, so at least
// once) and the three never sent; nothing is lost, and every other URL
// arrives exactly once. A third run sends nothing. The test waits on the
// endpoint receiving the batch, never on time.
func TestSubmitKilledResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	var mu sync.Mutex
	var posts [][]string
	held := make(chan struct{})    // the endpoint holds a batch
	release := make(chan struct{}) // the test lets it go
	hold := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var b struct{ URLList []string }
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &b); err != nil {
			t.Errorf("body %q: %v", data, err)
		}
		mu.Lock()
		posts = append(posts, b.URLList)
		block := hold && len(posts) == 2
		if block {
			hold = false
		}
		mu.Unlock()
		if block {
			close(held)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	dir := t.TempDir()
	var list strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&list, "https://www.example.com/p%02d\n", i)
	}
	urls := filepath.Join(dir, "urls.txt")
	os.WriteFile(urls, []byte(list.String()), 0o644)
	st := filepath.Join(dir, "st.db")
	args := []string{"submit", "--key", submitKey, "--host", "www.example.com", "--state", st, "--batch-size", "10",
		"--endpoint", srv.URL, urls}

	cmd, stderr := startMain(t, dir, args...)
	<-held // the second batch has arrived at the endpoint
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	close(release)
	mu.Lock()
	if len(posts) != 2 {
		b, _ := os.ReadFile(stderr)
		t.Fatalf("%d batches before the kill, want 2\n%s", len(posts), b)
	}
	inFlight := map[string]bool{}
	for _, u := range posts[1] {
		inFlight[u] = true
	}
	mu.Unlock()

	if code, _, errb := runCLI(t, "", args...); code != exitOK {
		t.Fatalf("re-run: exit %d\n%s", code, errb)
	}
	mu.Lock()
	got := map[string]int{}
	for _, p := range posts {
		for _, u := range p {
			got[u]++
		}
	}
	n := len(posts)
	mu.Unlock()
	for i := 1; i <= 50; i++ {
		u := fmt.Sprintf("https://www.example.com/p%02d", i)
		want := 1
		if inFlight[u] {
			want = 2 // received, then killed before the outcome was recorded
		}
		if got[u] != want {
			t.Errorf("%s arrived %d times, want %d", u, got[u], want)
		}
	}
	if code, _, errb := runCLI(t, "", args...); code != exitOK || !strings.Contains(errb, "50 already submitted") {
		t.Errorf("third run: exit %d\n%s", code, errb)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(posts) != n {
		t.Errorf("the third run sent %d more batches", len(posts)-n)
	}
}
