package main

import (
	"context"
	"io"
	"os"
)

// interruptible returns r so that a Read waiting on input that may never
// come (a terminal, a pipe whose writer is silent) returns ctx.Err() as
// soon as ctx is done, so an interrupted run ends instead of waiting for
// the next line. Regular files are returned as they are: their reads do
// not wait on anyone.
func interruptible(ctx context.Context, r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return r
		}
	}
	return &ctxReader{ctx: ctx, r: r}
}

// ctxReader reads r in a goroutine, one Read at a time, into its own
// buffer. When ctx is done first, Read returns ctx.Err() and the blocked
// Read is left to finish (or not) on its own: the run is over, and the
// goroutine ends with the process or with the input.
type ctxReader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte
	pending chan ctxRead // the Read in flight, if any
	// idle, when set, is called before Read waits for input that is not
	// there yet.
	idle func()
}

type ctxRead struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
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
	if c.idle != nil {
		select {
		case res := <-c.pending:
			c.pending = nil
			return copy(p, c.buf[:res.n]), res.err
		default:
			c.idle()
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
