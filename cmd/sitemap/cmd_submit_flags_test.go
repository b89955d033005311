package main

import (
	"bytes"
	"context"
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

// An interrupted submit says what it sent before it stopped, and how to
// send the rest: "nothing partial was published" (what generate says) is
// false once a batch went out.
func TestSubmitInterruptSaysWhatWasSent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	posts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		posts++
		n := posts
		mu.Unlock()
		if n == 2 {
			// Ctrl-C while the second batch waits for its answer, which
			// never comes: the client gives up when its context ends.
			cancel()
			<-r.Context().Done()
		}
	}))
	defer srv.Close()
	var locs []string
	for i := range 5 {
		locs = append(locs, fmt.Sprintf("https://www.example.com/p%d", i))
	}
	var out, errb bytes.Buffer
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errb}
	code := execute(ctx, s, []string{"submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", srv.URL, "--batch-size", "2", writeList(t, locs...)})
	stderr := errb.String()
	if code != exitUsage || strings.Contains(stderr, "nothing partial was published") ||
		!strings.Contains(stderr, "submit: interrupted") || !strings.Contains(stderr, "2 URLs sent in 1 batch") ||
		!strings.Contains(stderr, "--state") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// Flag values out of range are refused before anything is read or sent,
// as generate refuses --max-urls 0: --batch-size 20000 was sent as
// batches of 10,000 and --batch-size 0 or -5 as 10,000 without a word.
func TestSubmitFlagRanges(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	list := writeList(t, "https://www.example.com/a")
	for _, c := range []struct{ flag, val, want string }{
		{"--batch-size", "0", "--batch-size 0: use 1 to 10000 (IN-08)"},
		{"--batch-size", "-5", "--batch-size -5: use 1 to 10000 (IN-08)"},
		{"--batch-size", "20000", "--batch-size 20000: use 1 to 10000 (IN-08)"},
		{"--max-per-day", "-1", "--max-per-day -1: use 0 (no limit) or more"},
		{"--timeout", "-1s", "--timeout -1s: use a positive duration"},
		{"--timeout", "0", "--timeout 0s: use a positive duration"}, // was the client's defaults (30 s for headers, 5 min in all)
	} {
		code, _, errb := runCLI(t, "", "submit", "--key", submitKey, "--host", "www.example.com", "--endpoint", e.srv.URL, c.flag, c.val, list)
		if code != exitUsage || !strings.Contains(errb, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want exit 2 and %q", c.flag, c.val, code, errb, c.want)
		}
	}
	if e.posts() != 0 {
		t.Errorf("%d POSTs", e.posts())
	}
}

// One URL left for later is "1 URL was not sent", not "1 URLs were".
func TestSubmitDeferredCountReads(t *testing.T) {
	code, _, errb := runCLI(t, "", "submit", "--dry-run", "--max-per-day", "1", "--key", submitKey, "--host", "www.example.com",
		writeList(t, "https://www.example.com/a", "https://www.example.com/b"))
	if code != exitOK || !strings.Contains(errb, "warning: 1 URL was not sent;") {
		t.Errorf("exit %d, stderr:\n%s", code, errb)
	}
}

// --dry-run prints the body a real run sends: the host in its normal
// form (lower case, punycode), which the URLs are compared with; --host
// bücher.example refused every URL of the site.
func TestSubmitHostNormalForm(t *testing.T) {
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", "Bücher.example", writeList(t, "https://bücher.example/a"))
	if code != exitOK || !strings.Contains(out, `"host":"xn--bcher-kva.example"`) || !strings.Contains(out, `"urlList":["https://xn--bcher-kva.example/a"]`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// ... and the key location as the POST carries it.
func TestSubmitKeyLocationNormalForm(t *testing.T) {
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--key-location", "https://WWW.Example.com/k/"+submitKey+".txt",
		writeList(t, "https://www.example.com/k/a"))
	if code != exitOK || !strings.Contains(out, `"keyLocation":"https://www.example.com/k/`+submitKey+`.txt"`) || !strings.Contains(out, `"host":"www.example.com"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// --verify-key looks for https://HOST/KEY.txt; when that fails on a site
// served over http, the error says how to point it there.
func TestVerifyKeyHTTPHint(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	host := strings.TrimPrefix(e.srv.URL, "http://")
	code, _, errb := runCLI(t, "", "submit", "--key", submitKey, "--host", host, "--verify-key", "--timeout", "5s", "--endpoint", e.srv.URL, writeList(t, e.srv.URL+"/a"))
	if code != exitUsage || e.posts() != 0 || !strings.Contains(errb, "--key-location http://"+host+"/"+submitKey+".txt") {
		t.Errorf("exit %d, %d posts, stderr %q", code, e.posts(), errb)
	}
}

// An input that does not exist stops submit before anything is read,
// with one line: it printed a summary of nothing first ("0 URLs sent in 0
// batches (9 read)"), after reading the inputs before it.
func TestSubmitMissingInputFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.txt")
	code, out, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", writeList(t, "https://www.example.com/a"), missing)
	if code != exitUsage || out != "" || errb != "sitemap: "+missing+": no such file\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// A binary input (no URL list, CSV, JSONL nor sitemap) is a problem of the
// input, exit 1 with F-04, as generate, validate and parse say of it: submit
// exited 2.
func TestSubmitBinaryInput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "prog.txt")
	os.WriteFile(p, []byte("\x7fELF\x02\x01\x01\x00\x00\x00binary"), 0o644)
	code, _, errb := runCLI(t, "", "submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", p)
	if code != exitProblems || !strings.Contains(errb, "(F-04)") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
}

// A host, key location or endpoint submit cannot use is refused alone,
// exit 2: it was refused after the summary "0 URLs sent in 0 batches
// (0 read)", which read as if the run had happened.
func TestSubmitBadTargetRefusedBeforeSummary(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	list := writeList(t, "https://www.example.com/a")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", "www.example.com", "--key-location", "https://other.example.org/k.txt", "--endpoint", e.srv.URL},
			"key location https://other.example.org/k.txt is not on host www.example.com"},
		{[]string{"--host", "www.example.com", "--endpoint", "nope"}, `endpoint "nope" is not an http(s) URL`},
		{[]string{"--host", "a b", "--endpoint", e.srv.URL}, `host "a b" is not a host name`},
	} {
		for _, dry := range []bool{false, true} {
			args := append([]string{"submit", "--key", submitKey}, c.args...)
			if dry {
				args = append(args, "--dry-run")
			}
			code, out, errb := runCLI(t, "", append(args, list)...)
			if code != exitUsage || !strings.Contains(errb, c.want) || strings.Contains(errb, "submit: 0 URLs") || out != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and only %q", args, code, out, errb, c.want)
			}
		}
	}
	if e.posts() != 0 {
		t.Errorf("%d POSTs", e.posts())
	}
}
