package seen

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
)

// run is one sorted run of keys on disk, in a temporary file with no
// name (createRunFile), so nothing is left behind whatever ends the
// process: 16 bytes a key (hi then lo, little-endian).
// In memory it keeps the hi of the first key of each block of blockKeys
// keys (4 KiB) and its own filter, so a lookup is a filter probe and,
// when the filter says "maybe", a binary search in memory and one pread
// of 1 KiB about the key's guessed place (readNear), or of its 4 KiB
// block when that does not settle it (two when equal his straddle a
// block). The file is read and written
// with pread/pwrite and streamed, never mapped: only the page cache
// holds it, not the process.
type run struct {
	f      *os.File
	name   string // "" once unlinked
	n      int64
	level  int // 0 for a spill; a merge of runs of level l is of level l+1
	index  []uint64
	last   uint64 // the hi of the last key
	filter filter
}

const (
	blockKeys = 256
	blockSize = blockKeys * 16
	// ioChunk is how many bytes a spill or merge reads or writes at a
	// time, per file.
	ioChunk = 64 << 10
)

func getKey(b []byte) key {
	return key{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

// has reports whether k is in the run, reading into block (blockSize
// bytes).
func (r *run) has(k key, block []byte) (bool, error) {
	if !r.filter.has(k) {
		return false, nil
	}
	return r.read(k, block)
}

// read reports whether k is in the run, reading the file.
func (r *run) read(k key, block []byte) (bool, error) {
	if r.n == 0 {
		return false, nil
	}
	// The first block whose first hi is ≥ k.hi; k is in it or in the
	// one before.
	first := r.searchIndex(k.hi)
	if first > 0 {
		first--
	}
	if found, sure, err := r.readNear(k, first, block); sure || err != nil {
		return found, err
	}
	for b := first; b < len(r.index); b++ {
		if b > first && r.index[b] > k.hi {
			return false, nil
		}
		keys := min(int64(blockKeys), r.n-int64(b)*blockKeys)
		buf := block[:keys*16]
		if _, err := r.f.ReadAt(buf, int64(b)*blockSize); err != nil {
			return false, fmt.Errorf("dedup spill file: %w", err)
		}
		// Binary search in the block: the first key ≥ k.
		i := sort.Search(int(keys), func(i int) bool { return !getKey(buf[i*16:]).less(k) })
		if i < int(keys) {
			return getKey(buf[i*16:]) == k, nil
		}
	}
	return false, nil
}

// searchIndex returns the first block whose first hi is ≥ hi
// (len(r.index) when there is none), as sort.Search over r.index would,
// without its binary search: the his are hashes, spread evenly between
// the first and the last, so hi's place is guessed by interpolation and
// the guess is off by about √n/512 blocks for a run of n keys (8 blocks
// for 16 million keys, one or two cache lines of the index), where a
// binary search takes one cache miss a step (16 steps at 16 million
// keys, 5 % of generate's CPU at 10⁸ URLs). From the guess it steps
// towards the answer, doubling its steps (so it is never worse than
// about twice a binary search, whatever the keys).
func (r *run) searchIndex(hi uint64) int {
	ix := r.index
	n := len(ix)
	if n == 0 || hi <= ix[0] {
		return 0
	}
	if hi > r.last {
		return n
	}
	// ix[0] < hi ≤ r.last: guess the place of hi between them.
	g := int(float64(hi-ix[0]) / (float64(r.last-ix[0]) + 1) * float64(n))
	g = min(max(g, 1), n-1)
	// Find lo < hi' ≤ up with ix[lo] < hi and (up == n or ix[up] ≥ hi),
	// then search between them.
	lo, up := 0, n
	if ix[g] < hi {
		lo = g
		for step := 1; ; step *= 2 {
			if lo+step >= n {
				break
			}
			if ix[lo+step] >= hi {
				up = lo + step
				break
			}
			lo += step
		}
	} else {
		up = g
		for step := 1; ; step *= 2 {
			if up-step <= 0 {
				break
			}
			if ix[up-step] < hi {
				lo = up - step
				break
			}
			up -= step
		}
	}
	// ix[lo] < hi, and ix[up] ≥ hi or up == n: the answer is in (lo, up].
	for up-lo > 8 {
		mid := int(uint(lo+up) >> 1)
		if ix[mid] < hi {
			lo = mid
		} else {
			up = mid
		}
	}
	for lo+1 < up && ix[lo+1] < hi {
		lo++
	}
	return lo + 1
}

// nearKeys is how many keys readNear reads: a window about k's place
// guessed from the block's first and last hi. The keys are hashes, so
// their his are spread evenly and a key of a 256-key block lies within
// about 8 places (one standard deviation) of its guess; the window is
// four of them each way, and a pread of 1 KiB costs about four fifths of
// one of 4 KiB (1.65 against 2.07 µs of CPU here).
const nearKeys = 64

// readNear looks for k in a window of nearKeys keys of block b, about
// its place guessed by interpolation. sure is false when the window does
// not settle it (k lies before or after the window, which does not start
// or end the block, or his equal to k's may go on into the next block):
// then the whole block must be read.
func (r *run) readNear(k key, b int, block []byte) (found, sure bool, err error) {
	keys := min(int64(blockKeys), r.n-int64(b)*blockKeys)
	if keys <= nearKeys {
		return false, false, nil
	}
	lo, hi := r.index[b], r.last
	if b+1 < len(r.index) {
		hi = r.index[b+1]
	}
	if k.hi < lo || k.hi >= hi {
		// Before the block's first key (it is not in the run when b is
		// the first block) or at or past the next block's first hi (his
		// equal to it may straddle the two).
		return false, false, nil
	}
	// Where k.hi falls between lo and hi, scaled to the block's keys.
	at := int64(float64(k.hi-lo) / float64(hi-lo) * float64(keys))
	start := max(min(at-nearKeys/2, keys-nearKeys), 0)
	buf := block[:nearKeys*16]
	if _, err := r.f.ReadAt(buf, int64(b)*blockSize+start*16); err != nil {
		return false, true, fmt.Errorf("dedup spill file: %w", err)
	}
	i := sort.Search(nearKeys, func(i int) bool { return !getKey(buf[i*16:]).less(k) })
	switch {
	case i < nearKeys && getKey(buf[i*16:]) == k:
		return true, true, nil
	case i == 0 && start > 0, i == nearKeys && start+nearKeys < keys:
		return false, false, nil // before or after the window
	}
	// k lies between two keys of the window (or before the block's first
	// key, or after its last, which is below the next block's first hi).
	return false, true, nil
}

// close closes the run's file (removing it where it could not be
// unlinked at creation) and releases its filter.
func (r *run) close() error {
	r.filter.release()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	if r.name != "" {
		if rerr := os.Remove(r.name); err == nil && rerr != nil {
			err = rerr
		}
	}
	r.f = nil
	return err
}

// bytes is the memory the run holds (its index and filter).
func (r *run) bytes() int64 { return int64(cap(r.index))*8 + r.filter.bytes() }

// createRunFile creates a spill file in dir with no name where the
// system allows (Linux: O_TMPFILE), else creates it and unlinks it at
// once where the system allows an open file to be removed (other Unix
// systems, where a process killed between the two leaves the file), so
// a killed process leaves no file behind; name is "" then.
func createRunFile(dir string) (f *os.File, name string, err error) {
	if f, err := openNameless(dir); err == nil {
		return f, "", nil
	}
	f, err = os.CreateTemp(dir, "sitemap-dedup-*.tmp")
	if err != nil {
		return nil, "", fmt.Errorf("dedup spill file: %w", err)
	}
	if runtime.GOOS == "windows" {
		return f, f.Name(), nil
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, "", fmt.Errorf("dedup spill file: %w", err)
	}
	return f, "", nil
}

// runWriter writes sorted keys into a new run, building its index and
// filter as it goes.
type runWriter struct {
	r       *run
	w       []byte
	off     int64
	written *int64 // the shard's count of bytes written
}

// newRunWriter starts a run of level level and n keys in dir, with a
// filter of blocks blocks (0: none, every lookup reads the file), writing
// through buf (ioChunk bytes).
func newRunWriter(dir string, level int, n int64, blocks uint64, buf []byte, written *int64) (*runWriter, error) {
	f, name, err := createRunFile(dir)
	if err != nil {
		return nil, err
	}
	r := &run{f: f, name: name, level: level, index: make([]uint64, 0, n/blockKeys+1)}
	r.filter = newFilter(blocks, n)
	return &runWriter{r: r, w: buf[:0], written: written}, nil
}

func (rw *runWriter) put(k key) error {
	r := rw.r
	if r.n%blockKeys == 0 {
		r.index = append(r.index, k.hi)
	}
	r.n++
	r.last = k.hi
	r.filter.add(k)
	rw.w = binary.LittleEndian.AppendUint64(rw.w, k.hi)
	rw.w = binary.LittleEndian.AppendUint64(rw.w, k.lo)
	if len(rw.w) == cap(rw.w) {
		return rw.flush()
	}
	return nil
}

func (rw *runWriter) flush() error {
	if len(rw.w) == 0 {
		return nil
	}
	if _, err := rw.r.f.WriteAt(rw.w, rw.off); err != nil {
		return fmt.Errorf("dedup spill file: %w", err)
	}
	rw.off += int64(len(rw.w))
	*rw.written += int64(len(rw.w))
	rw.w = rw.w[:0]
	return nil
}

// finish flushes the run and returns it.
func (rw *runWriter) finish() (*run, error) {
	if err := rw.flush(); err != nil {
		rw.abort()
		return nil, err
	}
	return rw.r, nil
}

// abort drops the run being written.
func (rw *runWriter) abort() { rw.r.close() }

// cursor reads a run's keys in order, a chunk at a time.
type cursor struct {
	r    *run
	buf  []byte
	left []byte
	off  int64
	todo int64 // keys not read into buf yet
	cur  key
}

func newCursor(r *run, buf []byte) *cursor {
	return &cursor{r: r, buf: buf, todo: r.n}
}

// next moves to the next key; false at the end.
func (c *cursor) next() (bool, error) {
	if len(c.left) == 0 {
		if c.todo == 0 {
			return false, nil
		}
		n := min(int64(len(c.buf)/16), c.todo) * 16
		c.left = c.buf[:n]
		if _, err := c.r.f.ReadAt(c.left, c.off); err != nil && err != io.EOF {
			return false, fmt.Errorf("dedup spill file: %w", err)
		}
		c.off += n
		c.todo -= n / 16
	}
	c.cur = getKey(c.left)
	c.left = c.left[16:]
	return true, nil
}

// mergeRuns writes the keys of runs (sorted, no key in two of them) into
// w in order. fanIn is small (a level's runs), so the smallest head is
// found by a scan.
func mergeRuns(runs []*run, bufs [][]byte, w *runWriter) error {
	cs := make([]*cursor, 0, len(runs))
	for i, r := range runs {
		c := newCursor(r, bufs[i])
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			cs = append(cs, c)
		}
	}
	for len(cs) > 0 {
		m := 0
		for i := 1; i < len(cs); i++ {
			if cs[i].cur.less(cs[m].cur) {
				m = i
			}
		}
		if err := w.put(cs[m].cur); err != nil {
			return err
		}
		ok, err := cs[m].next()
		if err != nil {
			return err
		}
		if !ok {
			cs = append(cs[:m], cs[m+1:]...)
		}
	}
	return nil
}

// rebuildFilter replaces r's filter by one of blocks blocks, reading the
// run once (no write).
func (r *run) rebuildFilter(blocks uint64, buf []byte) error {
	r.filter.release()
	r.filter = newFilter(blocks, r.n)
	return r.fill(buf, nil)
}

// fill adds every key of the run to its filter, and to also when not
// nil, reading the run once through buf.
func (r *run) fill(buf []byte, also *filter) error {
	c := newCursor(r, buf)
	for {
		ok, err := c.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		r.filter.add(c.cur)
		if also != nil {
			also.add(c.cur)
		}
	}
}
