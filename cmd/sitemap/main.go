// Command sitemap generates, reads, validates, discovers and crawls
// sitemaps. Each subcommand is a thin layer over the library packages; see
// `sitemap --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

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
		// The first interrupt cancels the run, which then stops cleanly
		// and publishes nothing partial; a second one ends the process at
		// once. (Catching signals starts two threads: not for a command
		// that only prints.)
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-ctx.Done()
			stop()
		}()
	}
	s := &streams{
		In:            os.Stdin,
		Out:           os.Stdout,
		Err:           os.Stderr,
		ErrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	code := execute(ctx, s, os.Args[1:])
	stop()
	os.Exit(code)
}
