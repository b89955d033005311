// Package ctxio makes the reads of an io.Reader that may wait forever (a
// terminal, a silent pipe) return once a context is done: what an
// interrupted command or a cancelled library call needs from standard
// input. Standard library only.
package ctxio

import (
	"context"
	"io"
	"os"
	"sync"
	"time"
)

// New returns r so that a Read waiting on input that may never
// come (a terminal, a pipe whose writer is silent) returns ctx.Err() as
// soon as ctx is done, so an interrupted run ends instead of waiting for
// the next line. Regular files are returned as they are: their reads do
// not wait on anyone; so is a *Reader.
func New(ctx context.Context, r io.Reader) io.Reader {
	switch f := r.(type) {
	case *Reader:
		return r
	case *os.File:
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return r
		}
		return &Reader{ctx: ctx, r: r, gather: true}
	}
	return &Reader{ctx: ctx, r: r}
}

// Reader reads r ahead in one goroutine, a chunk of up to 64 KiB at a
// time, and hands the chunks to Read. When ctx is done first, Read
// returns ctx.Err() and the blocked read of r is left to finish (or not)
// on its own: the run is over. The goroutine ends at the input's end or
// first error, or once ctx is done and its read of r has returned; a
// caller that stops reading early cancels ctx to end it (it holds up to
// 192 KiB of read-ahead meanwhile).
//
// Reading a pipe or a terminal (an *os.File), a read that brought less
// than half a chunk is followed by a pause before the next, so that input
// trickling in small writes (a producer's 8 KiB writes) is taken in one
// read of what piled up meanwhile, not one wake-up of the reading
// goroutines per write: the CPU per byte of a slow producer stays near
// that of a fast one. The pause adapts to the input's rate, aiming at
// half a chunk a read, between MinGather and MaxGather (so a pipe, 64 KiB
// on Linux, does not fill and stall its writer for long); a fast
// producer, whose reads are long, is never paused.
type Reader struct {
	ctx    context.Context
	r      io.Reader
	gather bool
	// Idle, when set, is called when Read has waited IdleAfter for input
	// that is not there yet (and then waits on).
	Idle func()

	once sync.Once
	full chan chunk  // chunks read, in order
	free chan []byte // buffers to fill
	cur  chunk       // the chunk being read by Read
	off  int
	// reads counts the reads of r (tests).
	reads int
}

type chunk struct {
	buf []byte
	err error
}

const (
	// chunkSize is the most one read of the input takes.
	chunkSize = 64 << 10
	// MinGather and MaxGather bound the pause after a short read of a
	// pipe or terminal.
	MinGather = 100 * time.Microsecond
	MaxGather = 10 * time.Millisecond
	// IdleAfter is how long Read waits for input before it calls Idle.
	IdleAfter = 20 * time.Millisecond
)

func (c *Reader) start() {
	c.full = make(chan chunk, 2)
	c.free = make(chan []byte, 3)
	for range 3 {
		c.free <- make([]byte, chunkSize)
	}
	go c.loop()
}

// loop reads the input into free buffers until an error (io.EOF
// included) or ctx is done.
func (c *Reader) loop() {
	pause, paused := time.Millisecond, false
	for {
		var buf []byte
		select {
		case buf = <-c.free:
		case <-c.ctx.Done():
			return
		}
		n, err := c.r.Read(buf)
		c.reads++
		select {
		case c.full <- chunk{buf[:n], err}:
		case <-c.ctx.Done():
			return
		}
		if err != nil {
			return
		}
		if !c.gather {
			continue
		}
		if paused {
			// What piled up in the pause says the input's rate: aim at
			// half a chunk.
			pause = min(max(pause*time.Duration(chunkSize/2)/time.Duration(max(n, 1)), MinGather), MaxGather)
			paused = false
		}
		if n < chunkSize/2 {
			time.Sleep(pause)
			paused = true
		}
	}
}

// Read implements io.Reader.
func (c *Reader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	c.once.Do(c.start)
	for c.off == len(c.cur.buf) {
		if c.cur.err != nil {
			return 0, c.cur.err
		}
		if c.cur.buf != nil {
			c.free <- c.cur.buf[:cap(c.cur.buf)] // never blocks: free holds every buffer
		}
		ch, err := c.next()
		if err != nil {
			return 0, err
		}
		c.cur, c.off = ch, 0
	}
	n := copy(p, c.cur.buf[c.off:])
	c.off += n
	return n, nil
}

// next waits for the next chunk, calling Idle once it has waited
// IdleAfter.
func (c *Reader) next() (chunk, error) {
	select {
	case ch := <-c.full:
		return ch, nil
	default:
	}
	if c.Idle != nil {
		t := time.NewTimer(IdleAfter)
		select {
		case ch := <-c.full:
			t.Stop()
			return ch, nil
		case <-c.ctx.Done():
			t.Stop()
			return chunk{}, c.ctx.Err()
		case <-t.C:
			c.Idle()
		}
	}
	select {
	case ch := <-c.full:
		return ch, nil
	case <-c.ctx.Done():
		return chunk{}, c.ctx.Err()
	}
}
