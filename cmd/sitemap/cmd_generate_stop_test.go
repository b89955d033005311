package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// cancelReader cancels its context once n bytes were read, as a SIGINT
// part-way through a run does, and goes on yielding lines.
type cancelReader struct {
	n      int
	cancel context.CancelFunc
	i      int
	buf    bytes.Buffer
}

func (r *cancelReader) Read(p []byte) (int, error) {
	if r.buf.Len() == 0 {
		if r.i >= 400000 {
			return 0, io.EOF
		}
		for range 1000 {
			r.i++
			fmt.Fprintf(&r.buf, "https://www.example.com/p/%d\n", r.i)
		}
	}
	n, _ := r.buf.Read(p)
	if r.n -= n; r.n <= 0 && r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	return n, nil
}

// A run interrupted part-way (context cancelled, as by SIGINT) publishes
// nothing: the previous files stay byte for byte, no temporary file is
// left, and the exit status is not 0.
func TestGenerateInterrupted(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--gzip", "../../examples/urls.txt"); code != exitOK {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	for _, at := range []int{1, 2 << 20, 6 << 20} {
		ctx, cancel := context.WithCancel(context.Background())
		var errb bytes.Buffer
		s := &streams{In: &cancelReader{n: at, cancel: cancel}, Out: io.Discard, Err: &errb}
		code := execute(ctx, s, []string{"generate", "--base-url", genBase, "--out", out, "--gzip", "--max-urls", "20000", "-"})
		cancel()
		if code == exitOK {
			t.Errorf("cancel after %d bytes: exit 0", at)
		}
		if after := snapshot(t, out); !equalSnapshots(before, after) {
			t.Errorf("cancel after %d bytes changed the published files: %v -> %v", at, snapshotNames(before), snapshotNames(after))
		}
	}
}

// silentReader is standard input whose writer never writes: Read tells
// the test it was called, then blocks until the test ends.
type silentReader struct {
	called chan struct{}
	end    chan struct{}
}

func (r *silentReader) Read(p []byte) (int, error) {
	select {
	case r.called <- struct{}{}:
	default:
	}
	<-r.end
	return 0, io.EOF
}

// An interrupt while the run waits for input (a terminal, a silent pipe)
// ends the run at once: exit 2, nothing published. Before, the run
// waited for the next line, so Ctrl-C did nothing.
func TestGenerateInterruptWhileWaitingForInput(t *testing.T) {
	out := t.TempDir()
	in := &silentReader{called: make(chan struct{}, 1), end: make(chan struct{})}
	defer close(in.end)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, &streams{In: in, Out: io.Discard, Err: &errb}, []string{"generate", "--base-url", genBase, "--out", out, "-"})
	}()
	<-in.called
	cancel()
	select {
	case code := <-done:
		if code != exitUsage || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("exit %d, stderr:\n%s", code, errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not stop after the interrupt; it is still waiting for input")
	}
	if got := snapshot(t, out); len(got) != 0 {
		t.Errorf("published %v", snapshotNames(got))
	}
}

// --strict on standard input stops at the first invalid entry, refused
// by the reader (T-04) or by the builder (L-09), even when the input then
// goes silent: the entries read are handed over before the reader waits,
// so the run does not wait for more input (or its end).
func TestGenerateStrictStdinThenSilent(t *testing.T) {
	for _, bad := range []string{genBase + "bad\xff", "https://other.example.org/x"} {
		in := &thenSilentReader{data: []byte(genBase + "a\n" + bad + "\n"), silent: silentReader{called: make(chan struct{}, 1), end: make(chan struct{})}}
		var errb bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- execute(context.Background(), &streams{In: in, Out: io.Discard, Err: &errb}, []string{"generate", "--base-url", genBase, "--strict", "--dry-run", "--input-format", "text", "-"})
		}()
		select {
		case code := <-done:
			if code != exitProblems || !strings.Contains(errb.String(), "<stdin>:2:") || !strings.Contains(errb.String(), "--strict: stopped") {
				t.Errorf("%q: exit %d, stderr:\n%s", bad, code, errb.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%q: --strict did not stop at the invalid entry; the run waits for more input", bad)
		}
		close(in.silent.end)
	}
}

// thenSilentReader returns data, then blocks like silentReader.
type thenSilentReader struct {
	data   []byte
	silent silentReader
}

func (r *thenSilentReader) Read(p []byte) (int, error) {
	if len(r.data) > 0 {
		n := copy(p, r.data)
		r.data = r.data[n:]
		return n, nil
	}
	return r.silent.Read(p)
}

// Every way the consumer stops early (--strict at an entry the builder
// refuses while the reader is far ahead, an interrupt part-way) ends the
// reading goroutine too: no goroutine outlives the run.
func TestGenerateNoGoroutineLeft(t *testing.T) {
	n := 20 * genBatchLen
	in := genPipeInput(t, n, map[int]string{5: "https://other.example.org/x"})
	out := t.TempDir()
	cases := []struct {
		name string
		args []string
		in   io.Reader
		want int
	}{
		{"strict builder", []string{"--strict", in}, nil, exitProblems},
		{"strict builder, duplicates kept", []string{"--strict", "--keep-duplicates", in}, nil, exitProblems},
		{"strict stdin", []string{"--strict", "-"}, strings.NewReader(strings.Repeat(genBase+"x\n", 3) + "https://other.example.org/x\n" + strings.Repeat(genBase+"y\n", n)), exitProblems},
		{"interrupt", []string{in}, &cancelAfterReader{n: 64 << 10, r: strings.NewReader(strings.Repeat(genBase+"z\n", n))}, exitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stdin := c.in
			if cr, ok := stdin.(*cancelAfterReader); ok {
				cr.cancel = cancel
				c.args[len(c.args)-1] = "-"
			}
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			var errb bytes.Buffer
			code := execute(ctx, &streams{In: stdin, Out: io.Discard, Err: &errb}, append([]string{"generate", "--base-url", genBase, "--out", out}, c.args...))
			if code != c.want {
				t.Fatalf("exit %d, want %d:\n%s", code, c.want, errb.String())
			}
			// Goroutines that have returned may take a moment to be
			// counted out; one that leaked never is.
			deadline := time.Now().Add(30 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if now := runtime.NumGoroutine(); now > before {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines before the run, %d after:\n%s", before, now, buf[:runtime.Stack(buf, true)])
			}
			if got := snapshot(t, out); len(got) != 0 {
				t.Errorf("published %v", snapshotNames(got))
			}
		})
	}
}

// cancelAfterReader reads r and cancels the run once n bytes were read.
type cancelAfterReader struct {
	n      int
	r      io.Reader
	cancel context.CancelFunc
}

func (c *cancelAfterReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}
