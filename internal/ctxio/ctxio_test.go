package ctxio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A producer writing small pieces into a pipe with pauses: everything is
// read, in order, in far fewer reads of the pipe than writes (a short
// read is followed by a pause that lets the next writes pile up).
func TestGatherTrickle(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	const writes = 400
	var want bytes.Buffer
	for i := range writes {
		want.WriteString(strings.Repeat(string(rune('a'+i%26)), 99) + "\n")
	}
	go func() {
		for i := range writes {
			pw.Write(want.Bytes()[i*100 : (i+1)*100])
			time.Sleep(200 * time.Microsecond)
		}
		pw.Close()
	}()
	r := New(context.Background(), pr).(*Reader)
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("read %d bytes, want the %d written", len(got), want.Len())
	}
	if r.reads > writes/4 {
		t.Errorf("%d reads of the pipe for %d writes, want at most %d", r.reads, writes, writes/4)
	}
}

// A read waiting on a silent pipe returns ctx's error once ctx is done;
// Idle is called once the wait passes IdleAfter, not before the input
// that was there is read.
func TestCancelAndIdle(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := New(ctx, pr).(*Reader)
	idle := 0
	r.Idle = func() { idle++ }
	pw.Write([]byte("one line\n"))
	buf := make([]byte, 100)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "one line\n" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if idle != 0 {
		t.Fatalf("Idle called %d times before a wait", idle)
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Read returned %v after the cancel", d)
	}
	if idle != 1 {
		t.Fatalf("Idle called %d times in one long wait, want 1", idle)
	}
}

// A regular file and a Reader are returned as they are; any other
// reader is read through a Reader to its error.
func TestNew(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("x"), 0o600)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	if New(ctx, f) != io.Reader(f) {
		t.Error("a regular file was wrapped")
	}
	r := New(ctx, strings.NewReader("abc"))
	if New(ctx, r) != r {
		t.Error("a Reader was wrapped again")
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "abc" {
		t.Errorf("ReadAll = %q, %v", b, err)
	}
}
