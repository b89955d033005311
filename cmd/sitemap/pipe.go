package main

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"
)

// exitPipe is what execute returns when the reader of standard output
// went away (… | head -1): main then ends the process as SIGPIPE would
// (diePipe), the status a shell shows as 141. Commands that let SIGPIPE
// kill them at the write (parse, fetch, …) end the same way; generate
// and crawl ignore it so as to clean up first (ignoreBrokenPipe), and
// end this way after (docs/CONVENTIONS.md).
const exitPipe = 128 + 13

// pipeOut is standard output as commands write it: it remembers a write
// that failed because the reader went away (EPIPE), so execute ends the
// run quietly, whatever error the command made of it.
type pipeOut struct {
	w    io.Writer
	gone atomic.Bool
}

func (p *pipeOut) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		p.gone.Store(true)
	}
	return n, err
}

// readerGone reports whether a write to w, standard output as execute
// gives it to commands, found its reader gone.
func readerGone(w io.Writer) bool {
	p, ok := w.(*pipeOut)
	return ok && p.gone.Load()
}

// isTerminal reports whether w is a terminal (standard output, seen
// through pipeOut).
func isTerminal(w io.Writer) bool {
	if p, ok := w.(*pipeOut); ok {
		w = p.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// diePipe ends the process as a write to a broken pipe does when SIGPIPE
// is not caught: the signal no longer caught (ignoreBrokenPipe), one more
// write to the standard output whose reader is gone raises it, and the
// runtime dies of it (a SIGPIPE sent with kill would be ignored). Where
// that does not end the process (no SIGPIPE), it exits with exitPipe.
func diePipe() {
	signal.Reset(syscall.SIGPIPE)
	os.Stdout.Write([]byte{'\n'})
	os.Exit(exitPipe)
}
