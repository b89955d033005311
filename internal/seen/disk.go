package seen

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"
)

// diskTable is a set of 64-bit hashes in a temporary file: open addressing
// over buckets of bucketSlots 8-byte slots (little-endian, 0 = empty). A
// hash's home bucket is its top bits, and a full bucket overflows into the
// next one (linear probing by bucket), so a lookup is usually one 512-byte
// pread. The file is read and written with ReadAt/WriteAt, never mapped:
// only the page cache holds it, not the process's memory. When an insert
// would pass maxLoad, the table is rehashed into a new file twice as large
// (or more), streaming the old one in order.
//
// The hashes stored are mixHash(x): a bijection of the URL hash, so the
// home bucket does not depend on the bits that already picked the shard.
type diskTable struct {
	dir  string
	f    *os.File
	bits uint  // log2 of the number of buckets
	n    int64 // hashes held
	buf  [bucketSlots * 8]byte
}

const (
	bucketSlots = 64
	bucketBytes = bucketSlots * 8
	// maxLoadNum/maxLoadDen is the load above which the table grows.
	maxLoadNum, maxLoadDen = 7, 10
	// rehashChunk is how many buckets a rehash reads at a time.
	rehashChunk = 64
)

// mixHash is a bijection on uint64 (an odd multiplier) that keeps 0 at 0.
func mixHash(x uint64) uint64 { return x * 0x9e3779b97f4a7c15 }

// newDiskTable creates an empty table of at least slots slots in a new
// temporary file in dir ("" = os.TempDir()).
func newDiskTable(dir string, slots int64) (*diskTable, error) {
	b := uint(0)
	for int64(bucketSlots)<<b < slots {
		b++
	}
	f, err := os.CreateTemp(dir, "sitemap-dedup-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("dedup spill file: %w", err)
	}
	if err := f.Truncate(int64(bucketBytes) << b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("dedup spill file: %w", err)
	}
	return &diskTable{dir: dir, f: f, bits: b}, nil
}

func (d *diskTable) buckets() int64 { return 1 << d.bits }

func (d *diskTable) home(m uint64) int64 {
	if d.bits == 0 {
		return 0
	}
	return int64(m >> (64 - d.bits))
}

func (d *diskTable) read(i int64, b []byte) error {
	if _, err := d.f.ReadAt(b, i*bucketBytes); err != nil {
		return fmt.Errorf("dedup spill file: %w", err)
	}
	return nil
}

func (d *diskTable) write(i int64, b []byte) error {
	if _, err := d.f.WriteAt(b, i*bucketBytes); err != nil {
		return fmt.Errorf("dedup spill file: %w", err)
	}
	return nil
}

// has reports whether the mixed hash m is in the table.
func (d *diskTable) has(m uint64) (bool, error) {
	mask := d.buckets() - 1
	i := d.home(m)
	for range d.buckets() {
		if err := d.read(i, d.buf[:]); err != nil {
			return false, err
		}
		for k := 0; k < bucketBytes; k += 8 {
			switch binary.LittleEndian.Uint64(d.buf[k:]) {
			case m:
				return true, nil
			case 0:
				return false, nil
			}
		}
		i = (i + 1) & mask
	}
	return false, nil
}

// insertSorted adds mixed hashes given in ascending order (so in home
// bucket order) and not in the table yet (the callers guarantee it: the
// set checks the disk before keeping a hash in memory), growing the table first when they would pass maxLoad.
// Each bucket touched is read and written once (bar overflows).
func (d *diskTable) insertSorted(ms []uint64) error {
	need := d.n + int64(len(ms))
	if need*maxLoadDen > d.buckets()*bucketSlots*maxLoadNum {
		if err := d.grow(need); err != nil {
			return err
		}
	}
	mask := d.buckets() - 1
	cur, dirty, fill := int64(-1), false, 0
	for _, m := range ms {
		i := d.home(m)
		for {
			if i != cur {
				if dirty {
					if err := d.write(cur, d.buf[:]); err != nil {
						return err
					}
				}
				if err := d.read(i, d.buf[:]); err != nil {
					return err
				}
				cur, dirty, fill = i, false, 0
				for fill < bucketSlots && binary.LittleEndian.Uint64(d.buf[fill*8:]) != 0 {
					fill++
				}
			}
			if fill < bucketSlots {
				binary.LittleEndian.PutUint64(d.buf[fill*8:], m)
				fill++
				dirty = true
				d.n++
				break
			}
			i = (i + 1) & mask
		}
	}
	if dirty {
		return d.write(cur, d.buf[:])
	}
	return nil
}

// grow rehashes the table into a new file with room for need hashes at
// half the maximum load, then removes the old file.
func (d *diskTable) grow(need int64) error {
	slots := d.buckets() * bucketSlots * 2
	for need*maxLoadDen*2 > slots*maxLoadNum {
		slots *= 2
	}
	nd, err := newDiskTable(d.dir, slots)
	if err != nil {
		return err
	}
	chunk := make([]byte, rehashChunk*bucketBytes)
	ms := make([]uint64, 0, rehashChunk*bucketSlots)
	for i := int64(0); i < d.buckets(); i += rehashChunk {
		c := chunk[:min(rehashChunk, d.buckets()-i)*bucketBytes]
		if err := d.read(i, c); err != nil {
			nd.close()
			return err
		}
		ms = ms[:0]
		for k := 0; k < len(c); k += 8 {
			if m := binary.LittleEndian.Uint64(c[k:]); m != 0 {
				ms = append(ms, m)
			}
		}
		// Overflow from the previous chunk's last bucket can put a hash
		// out of order; sorting each chunk keeps the writes in order.
		slices.Sort(ms)
		if err := nd.insertSorted(ms); err != nil {
			nd.close()
			return err
		}
	}
	if err := d.close(); err != nil {
		nd.close()
		return err
	}
	*d = diskTable{dir: nd.dir, f: nd.f, bits: nd.bits, n: nd.n}
	return nil
}

// close closes and removes the file.
func (d *diskTable) close() error {
	name := d.f.Name()
	err := d.f.Close()
	if rerr := os.Remove(name); err == nil && rerr != nil {
		err = rerr
	}
	return err
}
