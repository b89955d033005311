package seen

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sort"
)

// diskRun is the keys spilled so far, sorted, in a temporary file: 16
// bytes a key (hi then lo, little-endian). In memory it keeps the hi of
// the first key of each block of blockKeys keys (4 KiB), so a lookup is
// a binary search in memory and one pread (two when equal his straddle a
// block). The file is read and written with pread/pwrite and streamed,
// never mapped: only the page cache holds it, not the process. A spill
// merges the sorted keys of the memory table with the file into the
// other of two files in one sequential pass, and empties the first.
type diskRun struct {
	dir string
	f   *os.File // nil until the first spill
	// spare is the file the next merge writes (the one before last,
	// truncated), so spills reuse two files instead of creating one each.
	spare *os.File
	n     int64
	index []uint64
	block [blockKeys * 16]byte
	// rbuf and wbuf are the merge's buffers, kept between spills.
	rbuf, wbuf []byte
}

const (
	blockKeys = 256
	blockSize = blockKeys * 16
	// ioChunk is how many bytes a merge reads or writes at a time.
	ioChunk = 64 << 10
)

func getKey(b []byte) key {
	return key{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

// has reports whether k is on disk.
func (d *diskRun) has(k key) (bool, error) {
	if d.n == 0 {
		return false, nil
	}
	// The first block whose first hi is ≥ k.hi; k is in it or in the
	// one before.
	first := sort.Search(len(d.index), func(i int) bool { return d.index[i] >= k.hi })
	if first > 0 {
		first--
	}
	for b := first; b < len(d.index); b++ {
		if b > first && d.index[b] > k.hi {
			return false, nil
		}
		keys := min(int64(blockKeys), d.n-int64(b)*blockKeys)
		buf := d.block[:keys*16]
		if _, err := d.f.ReadAt(buf, int64(b)*blockSize); err != nil {
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

// merge writes the keys on disk and ks (sorted, none of them on disk)
// into a new file in order, replacing the old one, and calls add for
// every key written when f is not nil (to fill a new filter).
func (d *diskRun) merge(ks []key, fill func(key)) error {
	nf := d.spare
	if nf == nil {
		f, err := os.CreateTemp(d.dir, "sitemap-dedup-*.tmp")
		if err != nil {
			return fmt.Errorf("dedup spill file: %w", err)
		}
		nf = f
	}
	d.spare = nil
	if d.rbuf == nil {
		d.rbuf = make([]byte, ioChunk)
		d.wbuf = make([]byte, 0, ioChunk)
	}
	w := d.wbuf[:0]
	var woff int64
	index := make([]uint64, 0, (d.n+int64(len(ks)))/blockKeys+1)
	var count int64
	emit := func(k key) error {
		if count%blockKeys == 0 {
			index = append(index, k.hi)
		}
		count++
		if fill != nil {
			fill(k)
		}
		w = binary.LittleEndian.AppendUint64(w, k.hi)
		w = binary.LittleEndian.AppendUint64(w, k.lo)
		if len(w) == cap(w) {
			if _, err := nf.WriteAt(w, woff); err != nil {
				return err
			}
			woff += int64(len(w))
			w = w[:0]
		}
		return nil
	}
	fail := func(err error) error {
		nf.Close()
		os.Remove(nf.Name())
		return fmt.Errorf("dedup spill file: %w", err)
	}
	// The old keys, a chunk at a time.
	var roff int64
	r := d.rbuf[:0]
	left := d.n
	next := func() (key, bool, error) {
		if len(r) == 0 {
			if left == 0 {
				return key{}, false, nil
			}
			n := min(int64(ioChunk), left*16)
			r = d.rbuf[:n]
			if _, err := d.f.ReadAt(r, roff); err != nil && err != io.EOF {
				return key{}, false, err
			}
			roff += n
		}
		k := getKey(r)
		r = r[16:]
		left--
		return k, true, nil
	}
	old, ok, err := next()
	if err != nil {
		return fail(err)
	}
	for _, k := range ks {
		for ok && old.less(k) {
			if err := emit(old); err != nil {
				return fail(err)
			}
			if old, ok, err = next(); err != nil {
				return fail(err)
			}
		}
		if err := emit(k); err != nil {
			return fail(err)
		}
	}
	for ok {
		if err := emit(old); err != nil {
			return fail(err)
		}
		if old, ok, err = next(); err != nil {
			return fail(err)
		}
	}
	if len(w) > 0 {
		if _, err := nf.WriteAt(w, woff); err != nil {
			return fail(err)
		}
	}
	if d.f != nil {
		// Emptied now, so the page cache holds one run, not two.
		if err := d.f.Truncate(0); err != nil {
			return fail(err)
		}
	}
	d.spare, d.f, d.n, d.index = d.f, nf, count, index
	return nil
}

// close closes and removes the files, if any.
func (d *diskRun) close() error {
	err := closeRemove(d.f)
	if err2 := closeRemove(d.spare); err == nil {
		err = err2
	}
	d.f, d.spare = nil, nil
	return err
}

func closeRemove(f *os.File) error {
	if f == nil {
		return nil
	}
	err := f.Close()
	if rerr := os.Remove(f.Name()); err == nil && rerr != nil {
		err = rerr
	}
	return err
}

// bytes is the memory the run holds (its index and buffers).
func (d *diskRun) bytes() int64 {
	return int64(cap(d.index))*8 + int64(cap(d.rbuf)+cap(d.wbuf)) + blockSize
}
