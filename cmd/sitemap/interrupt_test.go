package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperSitemapMain is the sitemap command itself when the test
// binary is started by runMain: main() with the arguments after "--",
// signal handling and os.Exit included.
func TestHelperSitemapMain(t *testing.T) {
	if os.Getenv("SITEMAP_TEST_MAIN") != "1" {
		t.Skip("runs only as the child process of runMain")
	}
	for i, a := range os.Args {
		if a == "--" {
			os.Args = append([]string{"sitemap"}, os.Args[i+1:]...)
			break
		}
	}
	main()
}

// startMain starts `sitemap args...` as a child process (the test binary
// running main), with its standard output and error in files of dir.
func startMain(t *testing.T, dir string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperSitemapMain$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SITEMAP_TEST_MAIN=1")
	stderr := filepath.Join(dir, args[0]+".stderr")
	out, err := os.Create(filepath.Join(dir, args[0]+".stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, errf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		out.Close()
		errf.Close()
	})
	return cmd, stderr
}

// junkBomb writes a gzip file of 200 MiB of "x" lines (a few hundred KB
// compressed): concatenated gzip members of 1 MiB each, which readers
// take as one stream. Not one line is a URL, so a reader that checks for
// cancellation only between entries never checks.
func junkBomb(t *testing.T, dir string) string {
	t.Helper()
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte("x\n"), 1<<19))
	zw.Close()
	p := filepath.Join(dir, "junk.txt.gz")
	if err := os.WriteFile(p, bytes.Repeat(member.Bytes(), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// SIGTERM stops every command that reads sitemaps promptly, whatever the
// input: here a 200 MiB text of junk lines read without an error bound
// (--max-errors 0), which yields no entry at all. The bound is generous
// for a loaded machine; before the decoder checked its context, parse
// and validate went on for more than 20 s.
func TestSIGTERMStopsOnJunk(t *testing.T) {
	dir := t.TempDir()
	bomb := junkBomb(t, dir)
	for _, args := range [][]string{
		{"parse", "--format", "jsonl", "--max-errors", "0", bomb},
		{"validate", "--format", "jsonl", "--max-errors", "0", bomb},
		{"fetch", "--format", "jsonl", "--max-errors", "0", bomb},
		{"diff", "--max-errors", "0", bomb, bomb},
	} {
		cmd, stderr := startMain(t, dir, args...)
		// Started reading: it has said something about the junk.
		for deadline := time.Now().Add(60 * time.Second); ; {
			if st, err := os.Stat(stderr); err == nil && st.Size() > 0 {
				break
			}
			if b, _ := os.ReadFile(filepath.Join(dir, args[0]+".stdout")); len(b) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: nothing written after 60 s", args[0])
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
				b, _ := os.ReadFile(stderr)
				t.Errorf("%s: after SIGTERM: %v, want exit %d\n%s", args[0], err, exitUsage, tail(b))
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("%s: still running 30 s after SIGTERM", args[0])
		}
	}
}

// tail is the end of b, for a failure message.
func tail(b []byte) string {
	s := string(b)
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return strings.TrimSpace(s)
}

// Two signals at once (timeout(1) signals the process and its process
// group; so does a shell's job control) are one request to stop: the run
// still stops cleanly, exit 2 and nothing left in --out, where the second
// signal used to end the process at once (exit 130, temporary files left).
func TestTwoSignalsAtOnceStopCleanly(t *testing.T) {
	dir := t.TempDir()
	bomb := junkBomb(t, dir)
	out := filepath.Join(dir, "out")
	cmd, stderr := startMain(t, dir, "generate", "--base-url", "https://www.example.com/", "--out", out, "--max-errors", "0", bomb)
	for deadline := time.Now().Add(60 * time.Second); ; {
		if st, err := os.Stat(stderr); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("generate: nothing written after 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// The second a little after the first, as two kill(2) calls land
	// (an error: the run has already stopped, which is as good).
	time.Sleep(50 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
			b, _ := os.ReadFile(stderr)
			t.Errorf("after two SIGINTs at once: %v, want exit %d\n%s", err, exitUsage, tail(b))
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("still running 30 s after two SIGINTs")
	}
	if left, _ := filepath.Glob(filepath.Join(out, "*")); len(left) > 0 {
		t.Errorf("left in --out: %v", left)
	}
}

// interrupts: the first SIGINT cancels the context; a second one within
// the grace period is taken as part of the first (sent to the process
// and its group together), not as the one that ends the process at once.
// Were it not caught, SIGINT's default action would end this test
// binary, failing the run. (The grace is long here, so a loaded machine
// cannot make the test fail; the command's is a second.)
func TestInterruptsTakesTwoSignalsAtOnceAsOne(t *testing.T) {
	ctx, stop := interrupts(context.Background(), 30*time.Second)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the first SIGINT did not cancel the context")
	}
	time.Sleep(100 * time.Millisecond) // the code before this let go of the signals here
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // delivered, and survived
}
