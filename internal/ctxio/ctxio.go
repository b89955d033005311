// Package ctxio makes the reads of an io.Reader that may wait forever (a
// terminal, a silent pipe) return once a context is done: what an
// interrupted command or a cancelled library call needs from standard
// input. Standard library only.
package ctxio

import (
	"context"
	"io"
	"os"
)

// New returns r so that a Read waiting on input that may never
// come (a terminal, a pipe whose writer is silent) returns ctx.Err() as
// soon as ctx is done, so an interrupted run ends instead of waiting for
// the next line. Regular files are returned as they are: their reads do
// not wait on anyone.
func New(ctx context.Context, r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return r
		}
	}
	return &Reader{ctx: ctx, r: r}
}

// Reader reads r in a goroutine, one Read at a time, into its own
// buffer. When ctx is done first, Read returns ctx.Err() and the blocked
// Read is left to finish (or not) on its own: the run is over, and the
// goroutine ends with the process or with the input.
type Reader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte
	pending chan ctxRead // the Read in flight, if any
	// Idle, when set, is called before Read waits for input that is not
	// there yet.
	Idle func()
}

type ctxRead struct {
	n   int
	err error
}

// Read implements io.Reader.
func (c *Reader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if c.pending == nil {
		if cap(c.buf) < len(p) {
			c.buf = make([]byte, len(p))
		}
		buf := c.buf[:len(p)]
		ch := make(chan ctxRead, 1)
		c.pending = ch
		go func() {
			n, err := c.r.Read(buf)
			ch <- ctxRead{n, err}
		}()
	}
	if c.Idle != nil {
		select {
		case res := <-c.pending:
			c.pending = nil
			return copy(p, c.buf[:res.n]), res.err
		default:
			c.Idle()
		}
	}
	select {
	case res := <-c.pending:
		c.pending = nil
		return copy(p, c.buf[:res.n]), res.err
	case <-c.ctx.Done():
		// The Read in flight keeps c.buf; it is never read again.
		c.buf = nil
		return 0, c.ctx.Err()
	}
}
