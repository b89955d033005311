// Command sitemap generates, reads, validates, discovers and crawls
// sitemaps. Each subcommand is a thin layer over the library packages; see
// `sitemap --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	// Its init maps the heap's first megabytes in one system call before
	// the heavier package initialisers run (start-up time).
	"github.com/sitemapkit/sitemap/internal/prefault"
)

func main() {
	if streamsInput(os.Args[1:]) {
		// Map more of the heap at once, for the input streaming through.
		prefault.Heap()
	}
	ctx, stop := context.Background(), func() {}
	if !instant(os.Args[1:]) {
		// Catching signals starts two threads: not for a command that
		// only prints.
		ctx, stop = interrupts(ctx, time.Second)
	}
	s := &streams{
		In:            os.Stdin,
		Out:           os.Stdout,
		Err:           os.Stderr,
		ErrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	code := execute(ctx, s, os.Args[1:])
	stop()
	if code == exitPipe {
		diePipe()
	}
	os.Exit(code)
}

// interrupts returns a context the first SIGINT or SIGTERM cancels: the
// run then stops cleanly and publishes nothing partial. A second signal
// ends the process at once, unless it comes within grace of the first:
// timeout(1) and a shell's job control signal the process and its
// process group together, and that pair is one request to stop, not a
// second one to give up on stopping cleanly. stop releases the signals.
func interrupts(parent context.Context, grace time.Duration) (ctx context.Context, stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		wait := time.NewTimer(grace)
		for {
			select {
			case <-sigs: // sent with the first
			case <-wait.C:
				signal.Stop(sigs) // the next one ends the process
				return
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		})
	}
}
