package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// genBatchLen and genMaxRefused are package generate's batch length and
// bound of the refused-loc set, which these tests cross.
const (
	genBatchLen   = 512
	genMaxRefused = 100000
)

// genPipeInput writes n text lines to a file: every entry valid and in
// scope except those the marks map sets to a different line.
func genPipeInput(t *testing.T, n int, marks map[int]string) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := marks[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "%sp/%d", genBase, i)
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The reader's messages (warnings, entries it refuses: T-04) and the
// builder's (entries out of scope: L-09) reach stderr in input order,
// across many batches, and repeats (L-17) are all counted.
func TestGeneratePipeMessageOrder(t *testing.T) {
	marks := map[int]string{}
	var want []int
	for i := 3; i <= 5*genBatchLen; i += 337 {
		switch i % 3 {
		case 0:
			marks[i] = fmt.Sprintf("https://other.example.org/%d", i) // builder: L-09
		case 1:
			marks[i] = fmt.Sprintf("%sbad/%d\xff", genBase, i) // reader: T-04
		default:
			marks[i] = fmt.Sprintf("%sq?a=%d&amp;b=2", genBase, i) // reader: E-05 warning
		}
		want = append(want, i)
	}
	dups := 0
	for i := 7; i <= 5*genBatchLen; i += 1001 {
		if _, ok := marks[i]; !ok {
			marks[i] = genBase + "p/1"
			dups++
		}
	}
	in := genPipeInput(t, 5*genBatchLen, marks)
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--site-url", genBase, "--dry-run", in)
	if code != exitProblems {
		t.Fatalf("exit %d, want %d:\n%s", code, exitProblems, stderr)
	}
	pos := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(in) + `:(\d+):`)
	var got []int
	for _, m := range pos.FindAllStringSubmatch(stderr, -1) {
		n, _ := strconv.Atoi(m[1])
		got = append(got, n)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("message lines\n got %v\nwant %v\nstderr:\n%s", got, want, stderr)
	}
	if w := fmt.Sprintf("sitemap: %d duplicate URLs skipped (L-17)", dups); !strings.Contains(stderr, w) {
		t.Errorf("stderr lacks %q:\n%s", w, stderr)
	}
}

// --strict on standard input stops at the first invalid entry, refused
// by the reader (T-04) or by the builder (L-09), even when the input then
// goes silent: the entries read are handed over before the reader waits,
// so the run does not wait for more input (or its end).
func TestGeneratePipeStrictStdinThenSilent(t *testing.T) {
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
func TestGeneratePipeNoGoroutineLeft(t *testing.T) {
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
