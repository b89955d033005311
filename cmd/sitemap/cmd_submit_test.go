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
	"testing"
)

const submitKey = "9f3c2a7e41b84d0c"

// indexNowEndpoint is a recording IndexNow endpoint on 127.0.0.1; status
// answers the n-th POST (from 1); nil: 200. It also serves the key file
// of submitKey at /<key>.txt.
type indexNowEndpoint struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []struct {
		Host, Key, KeyLocation string
		URLList                []string
	}
	status func(n int) int
}

func newIndexNowEndpoint(t *testing.T, status func(n int) int) *indexNowEndpoint {
	t.Helper()
	e := &indexNowEndpoint{status: status}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if r.URL.Path == "/"+submitKey+".txt" {
				io.WriteString(w, submitKey)
				return
			}
			http.NotFound(w, r)
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies = append(e.bodies, struct {
			Host, Key, KeyLocation string
			URLList                []string
		}{})
		if err := json.Unmarshal(b, &e.bodies[len(e.bodies)-1]); err != nil {
			t.Errorf("body %q: %v", b, err)
		}
		n := len(e.bodies)
		e.mu.Unlock()
		if e.status != nil {
			w.WriteHeader(e.status(n))
		}
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *indexNowEndpoint) urls() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, b := range e.bodies {
		out = append(out, b.URLList...)
	}
	return out
}

func (e *indexNowEndpoint) posts() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.bodies)
}

func writeList(t *testing.T, locs ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "changed.txt")
	if err := os.WriteFile(p, []byte("# changed today\n"+strings.Join(locs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSubmitSendsAndSummarises(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	list := writeList(t, "https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/a")
	code, out, errb := runCLI(t, "", "submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL, list)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, out %q\n%s", code, out, errb)
	}
	if got := e.urls(); !slices.Equal(got, []string{"https://www.example.com/a", "https://www.example.com/b"}) {
		t.Errorf("received %q", got)
	}
	if !strings.Contains(errb, "batch 1: 2 URLs: sent: HTTP 200: received") || !strings.Contains(errb, "submit: 2 URLs sent in 1 batch; 1 duplicate (3 read)") {
		t.Errorf("stderr:\n%s", errb)
	}
}

func TestSubmitFailuresExit1(t *testing.T) {
	for _, st := range []int{422, 403, 400} {
		e := newIndexNowEndpoint(t, func(int) int { return st })
		code, _, errb := runCLI(t, "", "submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL, writeList(t, "https://www.example.com/a"))
		if code != 1 || e.posts() != 1 || !strings.Contains(errb, "failed: HTTP "+itoa(st)) {
			t.Errorf("%d: exit %d, %d posts\n%s", st, code, e.posts(), errb)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSubmitForeignHostNamed(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	code, _, errb := runCLI(t, "", "submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL,
		writeList(t, "https://www.example.com/a", "https://evil.example.net/b"))
	if code != 1 || !slices.Equal(e.urls(), []string{"https://www.example.com/a"}) ||
		!strings.Contains(errb, "https://evil.example.net/b: error IN-08: on host evil.example.net, not www.example.com; not sent") {
		t.Fatalf("exit %d, received %q\n%s", code, e.urls(), errb)
	}
}

func TestSubmitBadKeyNoRequest(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	list := writeList(t, "https://www.example.com/a")
	for _, args := range [][]string{
		{"--key", "bad_key!"},
		{"--key", "short"},
		{},
		{"--key", submitKey, "--key-file", "x"},
	} {
		args = append(append([]string{"submit", "--host", "www.example.com", "--endpoint", e.srv.URL}, args...), list)
		code, _, errb := runCLI(t, "", args...)
		if code != 2 {
			t.Errorf("%q: exit %d\n%s", args, code, errb)
		}
	}
	if e.posts() != 0 {
		t.Fatalf("%d posts", e.posts())
	}
}

func TestSubmitKeyFileAndVerifyKey(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	dir := t.TempDir()
	code, out, errb := runCLI(t, "", "indexnow", "key", "--key", submitKey, "--out", dir)
	if code != 0 || out != submitKey+"\n" {
		t.Fatalf("indexnow key: exit %d %q\n%s", code, out, errb)
	}
	keyFile := filepath.Join(dir, submitKey+".txt")
	list := writeList(t, e.srv.URL+"/a")
	host := strings.TrimPrefix(e.srv.URL, "http://")
	// The key file is served: the check passes and the URL is sent.
	code, _, errb = runCLI(t, "", "submit", "--key-file", keyFile, "--key-location", e.srv.URL+"/"+submitKey+".txt", "--verify-key", "--endpoint", e.srv.URL, list)
	if code != 0 || e.posts() != 1 || !strings.Contains(errb, "holds the key") {
		t.Fatalf("verified: exit %d, %d posts\n%s", code, e.posts(), errb)
	}
	if b := e.bodies[0]; b.Host != host || b.KeyLocation != e.srv.URL+"/"+submitKey+".txt" || b.Key != submitKey {
		t.Errorf("body %+v", b)
	}
	// Another key, whose file the host does not serve: nothing is sent.
	other := "0000aaaa1111bbbb"
	code, _, errb = runCLI(t, "", "submit", "--key", other, "--host", host, "--key-location", e.srv.URL+"/"+other+".txt", "--verify-key", "--endpoint", e.srv.URL, list)
	if code != 2 || e.posts() != 1 || !strings.Contains(errb, "is missing") {
		t.Fatalf("missing key file: exit %d, %d posts\n%s", code, e.posts(), errb)
	}
}

func TestSubmitStateExactlyOnce(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	st := filepath.Join(t.TempDir(), "st.db")
	list := writeList(t, "https://www.example.com/a", "https://www.example.com/b")
	for i, want := range []int{2, 2} {
		code, _, errb := runCLI(t, "", "submit", "--state", st, "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL, list)
		if code != 0 || len(e.urls()) != want {
			t.Fatalf("run %d: exit %d, %d URLs received\n%s", i+1, code, len(e.urls()), errb)
		}
		if i == 1 && !strings.Contains(errb, "0 URLs sent in 0 batches; 2 already submitted") {
			t.Errorf("second run:\n%s", errb)
		}
	}
}

// The output of 'sitemap diff --format jsonl' through 'sitemap submit':
// only the added and modified URLs arrive.
func TestDiffThroughSubmit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+body+"</urlset>\n"), 0o644)
		return p
	}
	old := write("old.xml", `<url><loc>https://www.example.com/same</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://www.example.com/changed</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://www.example.com/gone</loc></url>`)
	cur := write("new.xml", `<url><loc>https://www.example.com/same</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://www.example.com/changed</loc><lastmod>2026-02-01</lastmod></url>
<url><loc>https://www.example.com/added</loc></url>`)
	code, changes, errb := runCLI(t, "", "diff", "--format", "jsonl", old, cur)
	if code != 1 {
		t.Fatalf("diff: exit %d\n%s", code, errb)
	}
	e := newIndexNowEndpoint(t, nil)
	code, _, errb = runCLI(t, changes, "submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL, "-")
	if code != 0 {
		t.Fatalf("submit: exit %d\n%s", code, errb)
	}
	if got := e.urls(); !slices.Equal(got, []string{"https://www.example.com/added", "https://www.example.com/changed"}) {
		t.Fatalf("received %q", got)
	}
}

func TestSubmitHelpExamples(t *testing.T) {
	t.Chdir("../..")
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", "examples/urls.txt")
	if code != 0 || !strings.Contains(out, `"urlList":["https://www.example.com/",`) {
		t.Fatalf("example 1: exit %d %q\n%s", code, out, errb)
	}
	_, changes, _ := runCLI(t, "", "diff", "--format", "jsonl", "testdata/samples/basic.xml", "testdata/samples/badorder.xml")
	code, out, errb = runCLI(t, changes, "submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", "-")
	if code != 0 || !strings.Contains(out, `"batch":1`) {
		t.Fatalf("example 2: exit %d %q\n%s", code, out, errb)
	}
	code, out, errb = runCLI(t, "", "submit", "--dry-run", "--max-per-day", "2", "--key", submitKey, "--host", "www.example.com", "testdata/samples/basic.xml")
	if code != 0 || strings.Count(out, "https://") != 2 || !strings.Contains(errb, "1 left for a later run") {
		t.Fatalf("example 3: exit %d %q\n%s", code, out, errb)
	}
}

func TestIndexNowKeyExample(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errb := runCLI(t, "", "indexnow", "key", "--out", "public/")
	key := strings.TrimSpace(out)
	if code != 0 || len(key) != 32 {
		t.Fatalf("exit %d %q\n%s", code, out, errb)
	}
	b, err := os.ReadFile(filepath.Join("public", key+".txt"))
	if err != nil || string(b) != key || !strings.Contains(errb, "public/"+key+".txt") {
		t.Fatalf("key file %q %v\n%s", b, err, errb)
	}
}

func TestPingSaysWhatToDo(t *testing.T) {
	code, out, errb := runCLI(t, "", "ping", "https://www.example.com/sitemap.xml")
	if code != 1 || out != "" || !strings.Contains(errb, "sitemap robots add robots.txt https://www.example.com/sitemap.xml") ||
		!strings.Contains(errb, "sitemap submit") {
		t.Fatalf("exit %d\n%s", code, errb)
	}
}

// --dry-run with --state skips what the state has seen sent and writes
// nothing: no state file is created.
func TestSubmitDryRunWritesNoState(t *testing.T) {
	st := filepath.Join(t.TempDir(), "st.db")
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--state", st, "--key", submitKey, "--host", "www.example.com", writeList(t, "https://www.example.com/a"))
	if code != 0 || !strings.Contains(out, "https://www.example.com/a") {
		t.Fatalf("exit %d %q\n%s", code, out, errb)
	}
	if _, err := os.Stat(st); err == nil {
		t.Fatal("a dry run created the state file")
	}
}

// submit's I-05 hint names a flag submit has: an index's child on
// another site is not read, the hint says --allow-off-site, and
// --allow-off-site reads it (submit had no such flag, so the hint
// misled).
func TestSubmitOffSiteChild(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/x</loc></url></urlset>`)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>`+other.URL+`/s.xml</loc></sitemap></sitemapindex>`)
	}))
	defer srv.Close()
	args := []string{"submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", srv.URL + "/index.xml"}
	code, out, errb := runCLI(t, "", args...)
	if code != exitProblems || out != "" || !strings.Contains(errb, "not followed (--allow-off-site follows it)") {
		t.Fatalf("without --allow-off-site: exit %d, out %q\n%s", code, out, errb)
	}
	code, out, errb = runCLI(t, "", append([]string{args[0], "--allow-off-site"}, args[1:]...)...)
	if code != exitOK || !strings.Contains(out, `"urlList":["https://www.example.com/x"]`) || !strings.Contains(errb, "followed anyway (--allow-off-site)") {
		t.Fatalf("with --allow-off-site: exit %d, out %q\n%s", code, out, errb)
	}
}
