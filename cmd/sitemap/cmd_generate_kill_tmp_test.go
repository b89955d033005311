package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGenerateKilledLeavesNoTempFiles is the kill -9 test of a large
// generate: with its dedup set spilling (a small --dedup-memory), its
// entries held back for the hreflang check and their sorts, each in
// files in $TMPDIR, a SIGKILL while they are open leaves nothing there:
// every temporary file is unlinked as soon as it is opened. It used to
// leave sitemap-dedup-*.tmp files for ever.
func TestGenerateKilledLeavesNoTempFiles(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("subprocess test reading /proc")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	in := filepath.Join(dir, "urls.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range 150_000 {
		p := fmt.Sprintf("https://www.example.com/p/%d", i)
		fmt.Fprintf(w, `{"loc":%q,"alternates":[{"hreflang":"en","href":%q},{"hreflang":"fr","href":"%s?lang=fr"}]}`+"\n", p, p, p)
	}
	w.Flush()
	f.Close()
	cmd := exec.Command(os.Args[0], "generate", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "public"),
		"--dedup-memory", "1MiB", in)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the run holds temporary files of $TMPDIR open: the
	// dedup set's spill and the hreflang spool (under -race on a busy
	// machine the first spill comes after tens of seconds).
	open := 0
	for deadline := time.Now().Add(2 * time.Minute); open < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid))
		open = 0
		for _, fd := range fds {
			if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", cmd.Process.Pid, fd.Name())); err == nil && strings.HasPrefix(target, tmp) {
				open++
			}
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if open < 2 {
		t.Fatalf("the run never held two temporary files of $TMPDIR open (%d); it ended first?", open)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left in $TMPDIR after kill -9: %s", strings.Join(names, " "))
	}
}
