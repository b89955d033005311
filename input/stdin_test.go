package input

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// A Reader of "-" waiting on standard input that stays silent (a terminal,
// a pipe) returns once its context is done: Next waited for the next
// line, so an interrupted `sitemap validate -` did not exit.
func TestStdinSilentCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := NewReader(ctx, []string{"-"}, Options{Stdin: pr})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Next()
		done <- err
	}()
	go func() {
		pw.Write([]byte("https://www.example.com/a\n")) // read, then silence
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, io.EOF) {
			// The first entry may come before the cancel; the next
			// call must end.
			if _, err = r.Next(); !errors.Is(err, context.Canceled) {
				t.Errorf("after cancel: %v", err)
			}
		} else if !errors.Is(err, context.Canceled) {
			t.Errorf("Next: %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Next still waiting on a silent standard input 20s after the cancel")
	}
}
