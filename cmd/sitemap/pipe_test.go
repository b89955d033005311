package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// pipeInputs writes a list of n URLs and a sitemap of them into dir.
func pipeInputs(t *testing.T, dir string, n int) (list, xml string) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		b.WriteString(genBase + "p/" + strconv.Itoa(i) + "\n")
	}
	list = filepath.Join(dir, "urls.txt")
	writeFile(t, list, b.String())
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", filepath.Join(dir, "public"), list); code != exitOK {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	return list, filepath.Join(dir, "public", "sitemap.xml")
}

// pipeCommands are command lines that write data to standard output.
func pipeCommands(t *testing.T) [][]string {
	dir := t.TempDir()
	list, xml := pipeInputs(t, dir, 2000)
	other := filepath.Join(dir, "other.txt")
	writeFile(t, other, genBase+"other\n")
	bad := filepath.Join(dir, "bad.txt")
	writeFile(t, bad, "not a url\n"+genBase+"\n")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><title>a</title></head><body><a href="/b">b</a></body></html>`))
	}))
	t.Cleanup(site.Close)
	return [][]string{
		{"generate", "--base-url", genBase, "--out", "-", list},
		{"generate", "--base-url", genBase, "--out", filepath.Join(dir, "json"), "--json", list},
		{"crawl", site.URL + "/", "--out", "-", "--rate", "0"},
		{"crawl", site.URL + "/", "--out", filepath.Join(dir, "crawled"), "--report", "-", "--rate", "0"},
		{"parse", xml},
		{"fetch", xml},
		{"diff", list, other},
		{"validate", "--format", "jsonl", bad},
	}
}

// TestStdoutReaderGone: every command writing to standard output ends
// the same way when its reader goes away (… | head -1): at once, no
// message, killed by SIGPIPE (the status 141 of a shell), as fetch and
// parse always did; generate --out - and crawl --out - said "write
// /dev/stdout: broken pipe" and exited 2. The pipe's read end is closed
// before the command starts: its first write finds the reader gone.
func TestStdoutReaderGone(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	for _, args := range pipeCommands(t) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		cmd.Stdout, cmd.Stderr = w, &stderr
		err = cmd.Run()
		w.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("%v: %v, want death by SIGPIPE", args, err)
			continue
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
			t.Errorf("%v: %v, want death by SIGPIPE; stderr %q", args, err, stderr.String())
		}
		// What the crawl says of itself on standard error comes before.
		if msg := stderr.String(); strings.Contains(msg, "pipe") || strings.Contains(msg, "sitemap: ") && args[0] != "crawl" {
			t.Errorf("%v: stderr %q, want no message about the pipe", args, msg)
		}
	}
}

// TestStdoutReaderGoneInProcess: execute returns exitPipe, and says
// nothing, when a write to standard output finds its reader gone (a
// process does not die of SIGPIPE for a pipe that is not its fd 1).
func TestStdoutReaderGoneInProcess(t *testing.T) {
	for _, args := range pipeCommands(t) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		var errb bytes.Buffer
		code := execute(context.Background(), &streams{In: strings.NewReader(""), Out: w, Err: &errb}, args)
		w.Close()
		if msg := errb.String(); code != exitPipe || strings.Contains(msg, "pipe") || strings.Contains(msg, "sitemap: ") && args[0] != "crawl" {
			t.Errorf("%v: exit %d, stderr %q; want %d and no message", args, code, msg, exitPipe)
		}
	}
}
