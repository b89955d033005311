// Package extsort sorts records (byte strings) in bounded memory: the one
// external merge sort of the module (diff sorts entries by loc, view the
// site map's links). Records are held in memory up to a budget, then
// sorted and written as a run to a temporary file; at the end the runs
// are merged, FanIn at a time: each record is written once to its run,
// and past FanIn runs once more by the passes that bring them down to
// FanIn (each pass merges only as many runs as it must: with 1.5·FanIn
// runs, a third of the records are written twice), so the disk traffic
// grows linearly with the records (once up to FanIn runs: with the
// defaults, up to 1 GiB of records). In a run, a record is written as
// what it does not share with the one before (the runs are sorted, so
// records that share a long beginning, URLs for one, take a fraction of
// their size on disk). The sort is stable: records that compare equal
// come out in the order they were added.
//
// Run files are created in Options.Dir and, on Unix, unlinked at once:
// they are never seen there, and vanish with the process however it ends
// (elsewhere [Sorter.Close] removes them). Standard library only.
package extsort

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
)

// Options tunes a [Sorter]. The zero value is ready to use.
type Options struct {
	// Dir is where the run files go ("" = os.TempDir()).
	Dir string
	// Memory bounds the bytes of the records held in memory (each counts
	// its length and 32 bytes) before they are written as a run (default
	// 16 MiB).
	Memory int
	// Records, when above 0, bounds the number of records held in memory
	// as well.
	Records int
	// FanIn is how many runs are merged at once (default 64, at least 2).
	// Each run being merged holds a buffer of 8 MiB / FanIn, between 4 KiB
	// and 32 KiB (32 KiB up to 256 runs, 8 KiB at 1024).
	FanIn int
}

// Sorter collects records and returns them sorted. Not safe for
// concurrent use.
type Sorter struct {
	o       Options
	cmp     func(a, b []byte) int
	recs    []held
	held    int
	slab    []byte
	runs    []*runFile // in the order their records were added
	written int64
	sorted  bool
	prev    []byte // writeRun's record before
}

// held is a record held in memory, with its place among them (the sort
// in memory is stable by it, and pdqsort is several times faster than a
// stable sort).
type held struct {
	b   []byte
	seq int
}

// runFile is one sorted run on disk: each record as the uvarint length
// of the beginning it shares with the record before (0 for the first),
// the uvarint length of the rest, and the rest.
type runFile struct {
	f    *os.File
	name string // "" once unlinked
	size int64
}

// slabSize is the size of the blocks records are copied into (one
// allocation per block, not per record).
const slabSize = 64 << 10

// New returns a Sorter that orders records by cmp (negative when a sorts
// before b, as bytes.Compare).
func New(o Options, cmp func(a, b []byte) int) *Sorter {
	if o.Memory <= 0 {
		o.Memory = 16 << 20
	}
	if o.FanIn < 2 {
		o.FanIn = 64
	}
	return &Sorter{o: o, cmp: cmp}
}

// Add adds a copy of rec. An error is one of writing a run; the Sorter
// cannot be used further then (Close it).
func (s *Sorter) Add(rec []byte) error {
	if s.sorted {
		return errors.New("extsort: Add after Sort")
	}
	var c []byte
	if len(rec) > slabSize/4 {
		c = append([]byte(nil), rec...)
	} else {
		if cap(s.slab)-len(s.slab) < len(rec) {
			s.slab = make([]byte, 0, slabSize)
		}
		n := len(s.slab)
		s.slab = append(s.slab, rec...)
		c = s.slab[n:len(s.slab):len(s.slab)]
	}
	s.recs = append(s.recs, held{c, len(s.recs)})
	s.held += len(rec) + 32
	if s.held >= s.o.Memory || (s.o.Records > 0 && len(s.recs) >= s.o.Records) {
		return s.spill()
	}
	return nil
}

// sortHeld sorts the records held, stably.
func (s *Sorter) sortHeld() {
	slices.SortFunc(s.recs, func(a, b held) int {
		if c := s.cmp(a.b, b.b); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
}

// spill writes the records held as a new run.
func (s *Sorter) spill() error {
	if len(s.recs) == 0 {
		return nil
	}
	s.sortHeld()
	i := 0
	rf, err := s.writeRun(func() ([]byte, error) {
		if i == len(s.recs) {
			return nil, io.EOF
		}
		i++
		return s.recs[i-1].b, nil
	})
	clear(s.recs)
	s.recs, s.held, s.slab = s.recs[:0], 0, nil
	if err != nil {
		return err
	}
	s.runs = append(s.runs, rf)
	return nil
}

// writeRun writes the records next yields, up to io.EOF, as a run.
func (s *Sorter) writeRun(next func() ([]byte, error)) (*runFile, error) {
	f, err := os.CreateTemp(s.o.Dir, "sitemap-sort-*.run")
	if err != nil {
		return nil, fmt.Errorf("extsort: run file: %w", err)
	}
	rf := &runFile{f: f, name: f.Name()}
	if runtime.GOOS != "windows" && os.Remove(f.Name()) == nil {
		rf.name = ""
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var n [2 * binary.MaxVarintLen64]byte
	prev := s.prev[:0]
	for {
		rec, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			rf.close()
			return nil, err
		}
		shared := commonPrefix(prev, rec)
		m := binary.PutUvarint(n[:], uint64(shared))
		m += binary.PutUvarint(n[m:], uint64(len(rec)-shared))
		w.Write(n[:m])
		w.Write(rec[shared:])
		rf.size += int64(m + len(rec) - shared)
		prev = append(prev[:0], rec...)
	}
	s.prev = prev[:0]
	if err := w.Flush(); err != nil {
		rf.close()
		return nil, fmt.Errorf("extsort: run file: %w", err)
	}
	s.written += rf.size
	return rf, nil
}

func (rf *runFile) close() error {
	err := rf.f.Close()
	if rf.name != "" {
		if rerr := os.Remove(rf.name); err == nil {
			err = rerr
		}
	}
	return err
}

// BytesWritten is how many bytes of runs the Sorter has written so far.
func (s *Sorter) BytesWritten() int64 { return s.written }

// Sort returns the records in order. With no run on disk it sorts in
// memory; otherwise it writes what is held as a last run and merges the
// runs, FanIn at a time, in passes until at most FanIn are left, which
// the Reader merges as it is read. ctx is checked between records of the
// passes. No record may be added afterwards.
func (s *Sorter) Sort(ctx context.Context) (*Reader, error) {
	s.sorted = true
	if len(s.runs) == 0 {
		s.sortHeld()
		return &Reader{mem: s.recs}, nil
	}
	if err := s.spill(); err != nil {
		return nil, err
	}
	for len(s.runs) > s.o.FanIn {
		if err := s.pass(ctx); err != nil {
			return nil, err
		}
	}
	return s.merge(s.runs)
}

// pass merges consecutive groups of runs, each into one in its place (so
// that equal records keep their order): with more than FanIn² runs,
// every group of FanIn; otherwise only the last groups that bring the
// runs down to FanIn (the last run, the smallest, among them), so the
// fewest records are written again.
func (s *Sorter) pass(ctx context.Context) error {
	old, f := s.runs, s.o.FanIn
	start := 0
	if len(old) <= f*f {
		// Each merge of g runs removes g−1: groups of f, and one
		// smaller, remove len(old)−f.
		excess := len(old) - f
		start = len(old) - (excess/(f-1))*f
		if r := excess % (f - 1); r > 0 {
			start -= r + 1
		}
	}
	next := slices.Clone(old[:start])
	for i := start; i < len(old); {
		g := f
		if i == start && len(old) <= f*f {
			if g = (len(old) - start) % f; g == 0 {
				g = f
			}
		}
		group := old[i:min(i+g, len(old))]
		i += len(group)
		if len(group) == 1 {
			next = append(next, group[0])
			continue
		}
		rf, err := s.mergeRun(ctx, group)
		if err != nil {
			s.runs = append(next, old[i-len(group):]...) // for Close
			return err
		}
		for _, r := range group {
			r.close()
		}
		next = append(next, rf)
	}
	s.runs = next
	return nil
}

// commonPrefix is the length of the beginning a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// mergeRun merges runs into a new run.
func (s *Sorter) mergeRun(ctx context.Context, runs []*runFile) (*runFile, error) {
	m, err := s.merge(runs)
	if err != nil {
		return nil, err
	}
	n := 0
	return s.writeRun(func() ([]byte, error) {
		if n++; n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		return m.Next()
	})
}

// merge returns a Reader merging runs (ties go to the earlier run).
func (s *Sorter) merge(runs []*runFile) (*Reader, error) {
	r := &Reader{cmp: s.cmp}
	buf := min(max((8<<20)/s.o.FanIn, 4<<10), 32<<10)
	for i, rf := range runs {
		c := &runCursor{br: bufio.NewReaderSize(io.NewSectionReader(rf.f, 0, rf.size), buf), idx: i}
		ok, err := c.next()
		if err != nil {
			return nil, err
		}
		if ok {
			r.heap = append(r.heap, c)
		}
	}
	for i := len(r.heap)/2 - 1; i >= 0; i-- {
		r.down(i)
	}
	return r, nil
}

// Close removes the run files. The Sorter and its Readers must not be
// used afterwards.
func (s *Sorter) Close() error {
	var err error
	for _, rf := range s.runs {
		if e := rf.close(); err == nil {
			err = e
		}
	}
	s.runs, s.recs, s.slab = nil, nil, nil
	return err
}

// maxRecord bounds a length read back from a run file (a corrupt file
// must not make us allocate gigabytes).
const maxRecord = 1 << 30

// errCorrupt is a run file that does not read back as written.
var errCorrupt = errors.New("extsort: corrupt run file")

// runCursor reads one run.
type runCursor struct {
	br  *bufio.Reader
	idx int
	cur []byte
	buf []byte
}

// next reads the next record into cur; false at the end of the run. The
// record's shared beginning is the one cur holds already, in place.
func (c *runCursor) next() (bool, error) {
	shared, err := binary.ReadUvarint(c.br)
	if err == io.EOF {
		return false, nil
	}
	if err != nil || shared > uint64(len(c.cur)) {
		return false, errCorrupt
	}
	rest, err := binary.ReadUvarint(c.br)
	if err != nil || rest > maxRecord {
		return false, errCorrupt
	}
	n := shared + rest
	if uint64(cap(c.buf)) < n {
		b := make([]byte, n, max(n, 256))
		copy(b, c.cur[:shared])
		c.buf = b
	}
	c.cur = c.buf[:n]
	if _, err := io.ReadFull(c.br, c.cur[shared:]); err != nil {
		return false, errCorrupt
	}
	return true, nil
}

// Reader yields the sorted records.
type Reader struct {
	mem  []held
	i    int
	cmp  func(a, b []byte) int
	heap []*runCursor
	last *runCursor // the cursor of the record returned last, moved on at the next call
}

// Next returns the next record, or io.EOF after the last. The bytes are
// valid until the next call of Next.
func (r *Reader) Next() ([]byte, error) {
	if r.heap == nil && r.last == nil {
		if r.i >= len(r.mem) {
			return nil, io.EOF
		}
		rec := r.mem[r.i].b
		r.mem[r.i] = held{} // let it go once read
		r.i++
		return rec, nil
	}
	if r.last != nil {
		c := r.last
		r.last = nil
		ok, err := c.next()
		if err != nil {
			return nil, err
		}
		if ok {
			r.down(0)
		} else {
			n := len(r.heap) - 1
			r.heap[0] = r.heap[n]
			r.heap = r.heap[:n]
			if n > 0 {
				r.down(0)
			}
		}
	}
	if len(r.heap) == 0 {
		r.heap = nil
		return nil, io.EOF
	}
	top := r.heap[0]
	// The record is handed out from the cursor's buffer, which its next
	// read reuses: the cursor moves on at the next call.
	r.last = top
	return top.cur, nil
}

func (r *Reader) less(i, j int) bool {
	if c := r.cmp(r.heap[i].cur, r.heap[j].cur); c != 0 {
		return c < 0
	}
	return r.heap[i].idx < r.heap[j].idx
}

func (r *Reader) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(r.heap) {
			return
		}
		m := l
		if l+1 < len(r.heap) && r.less(l+1, l) {
			m = l + 1
		}
		if !r.less(m, i) {
			return
		}
		r.heap[i], r.heap[m] = r.heap[m], r.heap[i]
		i = m
	}
}
