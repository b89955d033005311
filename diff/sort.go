package diff

import (
	"bufio"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// record is one entry in a sort run: its loc (the key), its temporary
// record without Loc and Source (tempcodec.go), and its Source (kept apart
// so that equal entries from different files have equal data).
type record struct {
	loc  string
	data []byte
	src  string
	seq  int // order of arrival within a chunk (stability)
}

// sorter is an external merge sort of records by loc. Records are kept in
// memory up to chunkBytes, then sorted and written to a run file in dir;
// finish merges the runs (fanIn at a time, in several passes when there
// are more) into one sorted stream. The sort is stable: records with the
// same loc come out in the order they were added.
type sorter struct {
	dir        string
	chunkBytes int
	fanIn      int

	buf      []record
	bufBytes int
	runs     []string // run files, in the order their records were added

	scratch []byte // the record being encoded
	slab    []byte // where the buffered records' data is kept
}

// slabSize is the size of the blocks the buffered records' data is copied
// into (one allocation per block rather than per record). A block is
// dropped with the records of the chunk it served; the waste is at most
// one block per chunk.
const slabSize = 64 << 10

// keep returns a copy of b that lives until the buffer is spilled.
func (s *sorter) keep(b []byte) []byte {
	if len(b) > slabSize/4 {
		return append([]byte(nil), b...)
	}
	if cap(s.slab)-len(s.slab) < len(b) {
		s.slab = make([]byte, 0, slabSize)
	}
	n := len(s.slab)
	s.slab = append(s.slab, b...)
	return s.slab[n:len(s.slab):len(s.slab)]
}

func newSorter(dir string, chunkBytes, fanIn int) *sorter {
	return &sorter{dir: dir, chunkBytes: chunkBytes, fanIn: fanIn}
}

func (s *sorter) add(r record) error {
	r.seq = len(s.buf)
	s.buf = append(s.buf, r)
	s.bufBytes += len(r.loc) + len(r.data) + len(r.src) + 80
	if s.bufBytes >= s.chunkBytes {
		return s.spill()
	}
	return nil
}

func (s *sorter) sortBuf() {
	slices.SortFunc(s.buf, func(a, b record) int {
		if c := strings.Compare(a.loc, b.loc); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
}

// spill sorts the buffer and writes it as a new run file.
func (s *sorter) spill() error {
	if len(s.buf) == 0 {
		return nil
	}
	s.sortBuf()
	f, err := os.CreateTemp(s.dir, "run-*")
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f.Name())
	w := bufio.NewWriterSize(f, 64<<10)
	for _, r := range s.buf {
		writeRecord(w, r)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	clear(s.buf)
	s.buf, s.bufBytes = s.buf[:0], 0
	s.slab = nil
	return err
}

func writeRecord(w *bufio.Writer, r record) {
	var n [binary.MaxVarintLen64]byte
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(r.loc)))])
	w.WriteString(r.loc)
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(r.data)))])
	w.Write(r.data)
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(r.src)))])
	w.WriteString(r.src)
}

// stream yields records in loc order.
type stream interface {
	// next returns the next record, or io.EOF.
	next() (record, error)
	close() error
}

// finish returns the sorted stream of everything added. With no run on
// disk it sorts in memory. The caller closes the stream.
func (s *sorter) finish(ctx context.Context) (stream, error) {
	if len(s.runs) == 0 {
		s.sortBuf()
		return &memStream{recs: s.buf}, nil
	}
	if err := s.spill(); err != nil {
		return nil, err
	}
	for len(s.runs) > s.fanIn {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Merge the oldest runs into one that takes their place at the
		// front, so that equal locs stay in the order they were added.
		m, err := openMerge(s.runs[:s.fanIn])
		if err != nil {
			return nil, err
		}
		name, err := s.writeRun(m)
		m.close()
		if err != nil {
			return nil, err
		}
		for _, r := range s.runs[:s.fanIn] {
			os.Remove(r)
		}
		s.runs = append([]string{name}, s.runs[s.fanIn:]...)
	}
	return openMerge(s.runs)
}

func (s *sorter) writeRun(m stream) (string, error) {
	f, err := os.CreateTemp(s.dir, "run-*")
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	for {
		r, err := m.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return "", err
		}
		writeRecord(w, r)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), err
}

type memStream struct {
	recs []record
	i    int
}

func (m *memStream) next() (record, error) {
	if m.i >= len(m.recs) {
		return record{}, io.EOF
	}
	r := m.recs[m.i]
	m.recs[m.i] = record{} // let it go once read
	m.i++
	return r, nil
}

func (m *memStream) close() error { m.recs = nil; return nil }

// runReader reads one run file.
type runReader struct {
	f   *os.File
	br  *bufio.Reader
	idx int // position among the merged runs: the tie-breaker
	cur record
	src string // the last Source read: runs repeat it, so it is shared
	buf []byte // the last record's data is read into slabs of this
}

var errCorruptRun = errors.New("diff: corrupt temporary run file")

// readSlabSize is the size of the blocks a run reader reads records' data
// into: small, as up to FanIn readers each hold one.
const readSlabSize = 4 << 10

// maxField bounds a length read back from a run file (a corrupt file
// must not make us allocate gigabytes).
const maxField = 1 << 30

// field reads one length-prefixed field. The bytes are valid until the
// next call unless keep is set, when they are a slice of a slab that is
// never written again.
func (r *runReader) field(keep bool) ([]byte, error) {
	n, err := binary.ReadUvarint(r.br)
	if err != nil || n > maxField {
		return nil, errCorruptRun
	}
	if p, err := r.br.Peek(int(n)); err == nil && !keep {
		r.br.Discard(int(n))
		return p, nil
	}
	var b []byte
	switch {
	case !keep || n > readSlabSize/4:
		b = make([]byte, n)
	default:
		if cap(r.buf)-len(r.buf) < int(n) {
			r.buf = make([]byte, 0, readSlabSize)
		}
		m := len(r.buf)
		r.buf = r.buf[:m+int(n)]
		b = r.buf[m : m+int(n) : m+int(n)]
	}
	if _, err := io.ReadFull(r.br, b); err != nil {
		return nil, errCorruptRun
	}
	return b, nil
}

func (r *runReader) next() (record, error) {
	if _, err := r.br.Peek(1); err == io.EOF {
		return record{}, io.EOF
	}
	loc, err := r.field(false)
	if err != nil {
		return record{}, err
	}
	rec := record{loc: string(loc)}
	if rec.data, err = r.field(true); err != nil {
		return record{}, err
	}
	src, err := r.field(false)
	if err != nil {
		return record{}, err
	}
	if string(src) != r.src {
		r.src = string(src)
	}
	rec.src = r.src
	return rec, nil
}

// merger is a k-way merge of run files.
type merger struct {
	h []*runReader
}

func openMerge(names []string) (*merger, error) {
	m := &merger{}
	for i, name := range names {
		f, err := os.Open(name)
		if err != nil {
			m.close()
			return nil, err
		}
		r := &runReader{f: f, br: bufio.NewReaderSize(f, 32<<10), idx: i}
		rec, err := r.next()
		if err == io.EOF {
			f.Close()
			continue
		}
		if err != nil {
			f.Close()
			m.close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r.cur = rec
		m.h = append(m.h, r)
	}
	heap.Init(m)
	return m, nil
}

func (m *merger) Len() int { return len(m.h) }
func (m *merger) Less(i, j int) bool {
	if c := strings.Compare(m.h[i].cur.loc, m.h[j].cur.loc); c != 0 {
		return c < 0
	}
	return m.h[i].idx < m.h[j].idx
}
func (m *merger) Swap(i, j int) { m.h[i], m.h[j] = m.h[j], m.h[i] }
func (m *merger) Push(x any)    { m.h = append(m.h, x.(*runReader)) }
func (m *merger) Pop() any {
	x := m.h[len(m.h)-1]
	m.h = m.h[:len(m.h)-1]
	return x
}

func (m *merger) next() (record, error) {
	if len(m.h) == 0 {
		return record{}, io.EOF
	}
	top := m.h[0]
	out := top.cur
	rec, err := top.next()
	switch {
	case err == io.EOF:
		top.f.Close()
		heap.Pop(m)
	case err != nil:
		return record{}, err
	default:
		top.cur = rec
		heap.Fix(m, 0)
	}
	return out, nil
}

func (m *merger) close() error {
	for _, r := range m.h {
		r.f.Close()
	}
	m.h = nil
	return nil
}
