package view

import (
	"bufio"
	"container/heap"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
)

// sorter sorts records (strings without '\n') in bounded memory: up to
// max in memory, then runs of max spilled to temporary files and merged.
type sorter struct {
	max  int
	dir  string
	buf  []string
	runs []string // files
}

func (s *sorter) add(rec string) error {
	s.buf = append(s.buf, rec)
	if len(s.buf) >= s.max {
		return s.spill()
	}
	return nil
}

func (s *sorter) spill() error {
	slices.Sort(s.buf)
	f, err := os.CreateTemp(s.dir, "sitemap-html-*.run")
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f.Name())
	w := bufio.NewWriterSize(f, 256<<10)
	for _, r := range s.buf {
		w.WriteString(r)
		w.WriteByte('\n')
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	s.buf = s.buf[:0]
	return err
}

// each calls f with every record in order, then removes the runs.
func (s *sorter) each(ctx context.Context, f func(string) error) error {
	defer s.close()
	if len(s.runs) == 0 {
		slices.Sort(s.buf)
		for i, r := range s.buf {
			if i&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err := f(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	h := &runHeap{}
	for _, name := range s.runs {
		fh, err := os.Open(name)
		if err != nil {
			return err
		}
		defer fh.Close()
		r := &run{sc: bufio.NewScanner(fh)}
		r.sc.Buffer(make([]byte, 64<<10), 1<<20)
		if r.next() {
			heap.Push(h, r)
		} else if r.err != nil {
			return r.err
		}
	}
	n := 0
	for h.Len() > 0 {
		if n++; n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r := (*h)[0]
		if err := f(r.cur); err != nil {
			return err
		}
		if r.next() {
			heap.Fix(h, 0)
		} else {
			if r.err != nil {
				return r.err
			}
			heap.Pop(h)
		}
	}
	return nil
}

func (s *sorter) close() {
	for _, name := range s.runs {
		os.Remove(name)
	}
	s.runs = nil
	s.buf = nil
}

type run struct {
	sc  *bufio.Scanner
	cur string
	err error
}

func (r *run) next() bool {
	if r.sc.Scan() {
		r.cur = r.sc.Text()
		return true
	}
	r.err = r.sc.Err()
	if errors.Is(r.err, io.EOF) {
		r.err = nil
	}
	return false
}

type runHeap []*run

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return strings.Compare(h[i].cur, h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*run)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}
