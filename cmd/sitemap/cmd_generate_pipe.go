package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sitemapkit/sitemap/source"
)

// generate runs in two goroutines: a reader (genReader) opens the inputs,
// parses them and marks repeated locs (L-17); the caller's goroutine
// stamps lastmod from the state (M-05), adds the entries to the builder
// and prints every message. They pass batches of items, in input order,
// through a channel, and the batches come back through another one, so
// memory stays flat whatever the number of URLs. What the reader has to
// say (a warning, an entry it refused, an input it cannot read) is an item
// in the same sequence, so stderr reads exactly as if one goroutine did
// everything.

const (
	// genBatchLen is the number of items in a full batch: large enough
	// that a channel operation per batch costs nothing per entry.
	genBatchLen = 512
	// genBatches is the number of batches in circulation: one being
	// filled, one being consumed, the rest queued.
	genBatches = 4
)

type genItemKind uint8

const (
	genRecord  genItemKind = iota // rec, read from the input named msg
	genWarning                    // msg, a remark of the reader that costs no entry
	genInvalid                    // msg, an entry the reader refused
	genFatal                      // err, the run cannot go on
	// genRepeat is rec, read from the input named msg, whose loc the
	// reader has seen before (L-17). The consumer skips it, unless every
	// earlier copy was refused by the builder (see generateRun.repeat).
	genRepeat
)

// genItem is one step of the reader's output.
type genItem struct {
	kind genItemKind
	rec  source.Record
	msg  string
	err  error
}

// genBatch is a run of consecutive items.
type genBatch struct {
	items []genItem
}

// genReader is the reading side of a run. It stops, closing out, at the
// end of the inputs, after an item that ends the run, or as soon as ctx
// is done (the consumer cancels ctx when it stops).
type genReader struct {
	ctx  context.Context
	r    *generateRun // only o, s, format and seen are used here
	out  chan *genBatch
	free chan *genBatch
	done chan struct{} // closed when run returns
	cur  *genBatch     // the batch being filled, nil when none
}

func newGenReader(ctx context.Context, r *generateRun) *genReader {
	p := &genReader{ctx: ctx, r: r,
		out:  make(chan *genBatch, genBatches),
		free: make(chan *genBatch, genBatches),
		done: make(chan struct{}),
	}
	for range genBatches {
		p.free <- &genBatch{}
	}
	return p
}

// run reads every input in turn.
func (p *genReader) run() {
	defer close(p.done)
	defer close(p.out)
	for _, name := range p.r.o.Inputs {
		if err := p.ctx.Err(); err != nil {
			p.fatal(err)
			return
		}
		if err := p.readInput(name); err != nil {
			p.fatal(err)
			return
		}
		if p.ctx.Err() != nil {
			return
		}
	}
	p.flush()
}

// emit appends it to the current batch, sending the batch when it is
// full. It reports false when the consumer has stopped.
func (p *genReader) emit(it genItem) bool {
	if !p.batch() {
		return false
	}
	p.cur.items = append(p.cur.items, it)
	if len(p.cur.items) == genBatchLen {
		return p.flush()
	}
	return true
}

// flush sends the current batch, if any. It reports false when the
// consumer has stopped.
func (p *genReader) flush() bool {
	if p.cur == nil {
		return p.ctx.Err() == nil
	}
	select {
	case p.out <- p.cur:
		p.cur = nil
		return true
	case <-p.ctx.Done():
		return false
	}
}

// fatal sends err as the last item.
func (p *genReader) fatal(err error) {
	if p.emit(genItem{kind: genFatal, err: err}) {
		p.flush()
	}
}

// readInput reads one input to its end. It returns the error that ends
// the run (an unreadable input, a dedup set that cannot go on, an
// interrupt); it returns nil, too, when the consumer has stopped or when
// --strict ends the run at an invalid entry.
func (p *genReader) readInput(name string) error {
	ctx, r := p.ctx, p.r
	var in io.Reader
	display := name
	if name == "-" {
		in, display = interruptible(ctx, r.s.In), "<stdin>"
		if cr, ok := in.(*ctxReader); ok {
			// Before waiting on a terminal or a pipe, hand over what was
			// read: the consumer sees each entry as soon as it arrives
			// (the progress bar moves, --strict stops at once).
			cr.idle = func() { p.flush() }
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return cannotRun("cannot read input: %v", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return cannotRun("cannot read input: %s is a directory", name)
		}
		in = f
	}
	src, err := source.New(in, source.Options{Name: display, Format: r.format, Warn: func(e *source.Error) {
		p.emit(genItem{kind: genWarning, msg: e.Error() + " (warning)"})
	}})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun("cannot read input: %v", err)
	}
	for {
		rec, err := src.Next()
		if err == io.EOF {
			return nil
		}
		var serr *source.Error
		if errors.As(err, &serr) {
			if !p.emit(genItem{kind: genInvalid, msg: serr.Error()}) {
				return nil
			}
			if r.o.Strict {
				// The consumer stops at this entry; read no further.
				p.flush()
				return nil
			}
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return cannotRun("cannot read input %s: %v", display, err)
		}
		if r.seen != nil {
			// L-17: a repeated loc wastes the 50,000-URL budget; the
			// first valid occurrence is kept (also in the state, stamped
			// by the consumer). Whether an earlier copy was valid only the
			// consumer knows, so a repeat is marked here, not dropped.
			isNew, err := r.seen.Add(rec.URL.Loc)
			if err != nil {
				return cannotRun("remembering the URLs read (--dedup-memory %s, temporary directory %s): %v; give more --dedup-memory, free space there, or --keep-duplicates", &r.o.DedupMemory, os.TempDir(), err)
			}
			if !isNew {
				if !p.emit(genItem{kind: genRepeat, rec: rec, msg: display}) {
					return nil
				}
				continue
			}
		}
		if !p.emit(genItem{kind: genRecord, rec: rec, msg: display}) {
			return nil
		}
	}
}

// batch makes sure there is a current batch, taking a free one. It
// reports false when the consumer has stopped.
func (p *genReader) batch() bool {
	if p.cur != nil {
		return true
	}
	select {
	case p.cur = <-p.free:
	case <-p.ctx.Done():
		return false
	}
	if p.cur.items == nil {
		p.cur.items = make([]genItem, 0, genBatchLen)
	}
	return true
}

// readAll feeds every input's entries to the builder. It returns an exit
// error for an unreadable input, an invalid entry under --strict, or a
// builder that cannot go on. The reading goroutine has ended when it
// returns.
func (r *generateRun) readAll(ctx context.Context) error {
	pctx, cancel := context.WithCancel(ctx)
	p := newGenReader(pctx, r)
	go p.run()
	defer func() {
		cancel()
		<-p.done
	}()
	for {
		var b *genBatch
		var ok bool
		select {
		case b, ok = <-p.out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !ok {
			return nil
		}
		for i := range b.items {
			if err := r.consume(ctx, &b.items[i]); err != nil {
				return err
			}
		}
		clear(b.items)
		b.items = b.items[:0]
		p.free <- b // never blocks: free holds every batch
	}
}

// consume handles one item of the reader, in input order.
func (r *generateRun) consume(ctx context.Context, it *genItem) error {
	switch it.kind {
	case genWarning:
		r.bar.Println(r.s.Err, it.msg)
		return nil
	case genInvalid:
		return r.invalid(it.msg)
	case genFatal:
		return it.err
	case genRepeat:
		if !r.repeat(it.rec.URL.Loc) {
			return nil
		}
	}
	return r.add(ctx, &it.rec, it.msg)
}

// genMaxRefused bounds the locs remembered as refused by the builder
// (generateRun.refused): at most this many, and genMaxRefusedBytes of
// locs, so that memory stays flat however bad the input.
const (
	genMaxRefused      = 100000
	genMaxRefusedBytes = 16 << 20
)

// repeat reports whether a repeated loc (L-17) is to be added after all:
// only when no earlier copy was added, that is when the builder refused
// each of them. Items come in input order, so the answer is exact while
// the refused set has room; past that, a repeat is skipped as before, and
// the first such skip says so once. A skipped repeat is counted.
func (r *generateRun) repeat(loc string) bool {
	if _, ok := r.refused[loc]; ok {
		return true
	}
	r.dups++
	if r.refusedFull && !r.refusedWarned {
		r.refusedWarned = true
		r.bar.Println(r.s.Err, fmt.Sprintf("sitemap: warning L-17: more than %d invalid entries; from here on a repeated URL is skipped even when its earlier copies were invalid", genMaxRefused))
	}
	return false
}

// refuse remembers loc as refused by the builder, so a later valid copy
// of it is published (L-17); accept forgets it again.
func (r *generateRun) refuse(loc string) {
	if r.seen == nil {
		return // --keep-duplicates: nothing is skipped
	}
	if _, ok := r.refused[loc]; ok {
		return
	}
	if len(r.refused) >= genMaxRefused || r.refusedBytes+len(loc) > genMaxRefusedBytes {
		r.refusedFull = true
		return
	}
	if r.refused == nil {
		r.refused = make(map[string]struct{})
	}
	r.refused[loc] = struct{}{}
	r.refusedBytes += len(loc)
}

// accept forgets loc as refused: it is published now.
func (r *generateRun) accept(loc string) {
	if len(r.refused) == 0 {
		return
	}
	if _, ok := r.refused[loc]; ok {
		delete(r.refused, loc)
		r.refusedBytes -= len(loc)
	}
}
