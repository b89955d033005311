package seen

import (
	"hash/maphash"
	"sync"
)

// DefaultMemory is the memory budget of a Set made with a budget ≤ 0.
const DefaultMemory = 64 << 20

// MinMemory is the smallest budget worth giving: below it the memory
// table spills every few thousand URLs and each spill rewrites the run
// on disk, so a large input takes many times longer. New accepts less
// (tests use it to reach the disk cheaply); commands refuse it.
const MinMemory = 1 << 20

// Set is a set of URLs, kept as 128-bit hashes, in bounded memory; see
// the package documentation. Safe for concurrent use: the keys are split
// over shards by their low hash's top bits, each with its own lock, memory
// table, filter and spill file, so concurrent callers (fetch's workers)
// add in parallel instead of queueing on one lock.
type Set struct {
	seed1, seed2 maphash.Seed
	shards       [numShards]*shard
}

// numShards is the number of shards of a Set.
const numShards = 1 << shardBits

// shardBits is how many top bits of a key's low hash pick its shard.
const shardBits = 2

// shard is one part of a Set: a memory table, a filter of the keys on
// disk and the disk run. Safe for concurrent use.
type shard struct {
	mu        sync.Mutex
	mem       table
	maxSlots  int   // the memory table's size at most
	filterMax int64 // most bytes of the filter
	filter    filter
	disk      diskRun
	err       error // the first I/O error: every later Add returns it
}

// New makes a set that keeps at most about budget bytes of memory
// (DefaultMemory when budget ≤ 0), shared evenly by its shards: in each,
// two thirds for the memory table, one third for the filter of the keys
// on disk. dir is where the spill files are created ("" = os.TempDir()).
// Close releases them.
func New(budget int64, dir string) *Set {
	if budget <= 0 {
		budget = DefaultMemory
	}
	s := &Set{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed()}
	per := budget / numShards
	filterMax := per / 3
	slots := max(int((per-filterMax)/16), minSlots)
	for i := range s.shards {
		s.shards[i] = newSet(slots, filterMax, dir)
	}
	return s
}

// minSlots is the smallest memory table.
const minSlots = 64

// newSet makes a shard whose memory table holds at most slots slots and
// whose filter takes at most filterMax bytes.
func newSet(slots int, filterMax int64, dir string) *shard {
	s := &shard{maxSlots: slots, filterMax: filterMax}
	s.mem = newTable(min(1<<12, slots))
	s.disk.dir = dir
	return s
}

// hashKey is the key of u: two 64-bit hashes of independent seeds.
func (s *Set) hashKey(u string) key {
	k := key{maphash.String(s.seed1, u), maphash.String(s.seed2, u)}
	if k == (key{}) {
		k.lo = 1
	}
	return k
}

// Add reports whether u was new, and records it. Safe for concurrent
// use. An error means a spill file could not be read or written; the
// shard then returns it from every later Add of its keys.
func (s *Set) Add(u string) (bool, error) {
	k := s.hashKey(u)
	return s.shards[k.lo>>(64-shardBits)].add(k)
}

func (s *shard) add(k key) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return false, s.err
	}
	i, found := s.mem.find(k)
	if found {
		return false, nil
	}
	if s.filter.has(k) {
		found, err := s.disk.has(k)
		if err != nil {
			s.err = err
			return false, err
		}
		if found {
			return false, nil
		}
	}
	if s.mem.full() {
		if len(s.mem.slots) < s.maxSlots {
			s.mem.grow(min(2*len(s.mem.slots), s.maxSlots))
		} else if err := s.spill(); err != nil {
			s.err = err
			return false, err
		}
		i, _ = s.mem.find(k)
	}
	s.mem.slots[i] = k
	s.mem.n++
	return true, nil
}

// spill merges the memory table's keys into the disk run and empties
// the table. The filter grows (rebuilt in the same pass) while it has
// fewer than filterBitsPerKey bits a key and its budget allows more.
func (s *shard) spill() error {
	ks := s.mem.drain()
	n := s.disk.n + int64(len(ks))
	var fill func(key)
	if want := s.filterBlocks(n); want > s.filter.blocks {
		// Twice what is needed now, so it is rebuilt only every few
		// spills.
		s.filter.release()
		s.filter = newFilter(min(2*want, s.filterBlocks(-1)))
		fill = s.filter.add
	} else {
		for _, k := range ks {
			s.filter.add(k)
		}
	}
	err := s.disk.merge(ks, fill)
	s.mem.clear()
	return err
}

// filterBlocks is the number of filter blocks for n keys at
// filterBitsPerKey, within the budget; n < 0 gives the budget's most.
func (s *shard) filterBlocks(n int64) uint64 {
	most := uint64(s.filterMax / 32)
	if n < 0 {
		return max(most, 1)
	}
	return max(min(uint64(n*filterBitsPerKey/256+1), most), 1)
}

// Close releases the memory and closes and removes the spill files. The
// set must not be used afterwards.
func (s *Set) Close() error {
	var err error
	for _, sh := range s.shards {
		if e := sh.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Bytes is the memory the set holds: the memory tables, the filters and
// the indexes of the disk runs.
func (s *Set) Bytes() int64 {
	var n int64
	for _, sh := range s.shards {
		n += sh.Bytes()
	}
	return n
}

// DiskEntries is how many keys the spill files hold.
func (s *Set) DiskEntries() int64 {
	var n int64
	for _, sh := range s.shards {
		n += sh.DiskEntries()
	}
	return n
}

// Close releases the shard's memory and closes and removes its spill file.
func (s *shard) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mem.release()
	s.filter.release()
	err := s.disk.close()
	s.disk = diskRun{}
	return err
}

// Bytes is the memory the shard holds.
func (s *shard) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mem.bytes() + s.filter.bytes() + s.disk.bytes()
}

// DiskEntries is how many keys the shard's spill file holds.
func (s *shard) DiskEntries() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.disk.n
}
