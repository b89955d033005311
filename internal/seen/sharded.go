package seen

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"
)

// DefaultMemory is the in-memory budget of a Set made with a budget ≤ 0:
// 64 MiB holds about 5.6 million URLs before anything goes to disk.
const DefaultMemory = 64 << 20

// Set is a set of URLs (as 64-bit hashes) in bounded memory. It spreads
// the hash set over shards with a lock each, so concurrent callers
// deduplicate in parallel. The top bits of the hash pick the shard.
//
// Each shard's in-memory table stops growing at maxSlots (its share of the
// memory budget). When it is full, its hashes are spilled, in one sorted
// batch, into the shard's disk table (diskTable, a temporary file created
// on the first spill) and the in-memory table starts again empty. A hash is
// new when neither the in-memory table nor the disk table holds it.
type Set struct {
	seed     maphash.Seed
	maxSlots int    // per-shard cap of the in-memory table (a power of two)
	dir      string // where disk tables go ("" = os.TempDir())
	shards   [setShards]struct {
		mu   sync.Mutex
		h    hashSet
		disk *diskTable // nil until the first spill
		// bloom holds every hash in the disk table (Bloom filter, 16 bits
		// per in-memory slot, so a quarter of the table's memory), so a
		// new URL (the common case) is known new without reading the disk.
		bloom []uint64
		_     [32]byte // keep the locks of neighbouring shards off one cache line
	}
}

const setShards = 16

// minShardSlots is the smallest in-memory table a shard keeps (512 bytes).
const minShardSlots = 64

// New makes a set whose in-memory tables hold at most budget bytes
// together (DefaultMemory when budget ≤ 0); dir is where disk tables are
// created ("" = os.TempDir()). Close releases it.
func New(budget int64, dir string) *Set {
	if budget <= 0 {
		budget = DefaultMemory
	}
	s := &Set{seed: maphash.MakeSeed(), dir: dir}
	per := uint64(budget / setShards / 8)
	s.maxSlots = minShardSlots
	if per > minShardSlots {
		s.maxSlots = 1 << (bits.Len64(per) - 1) // largest power of two ≤ per
	}
	start := min(1<<12, s.maxSlots)
	for i := range s.shards {
		s.shards[i].h.slots = allocSlots(start)
	}
	return s
}

// Add reports whether u was new, and records it. Safe for concurrent use.
// An error means the disk table could not be read or written.
func (s *Set) Add(u string) (bool, error) {
	x := maphash.String(s.seed, u)
	if x == 0 {
		x = 1
	}
	return s.addHash(x)
}

func (s *Set) addHash(x uint64) (bool, error) {
	sh := &s.shards[x>>60]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	i, found := sh.h.find(x)
	if found {
		return false, nil
	}
	if sh.disk != nil && bloomHas(sh.bloom, mixHash(x)) {
		found, err := sh.disk.has(mixHash(x))
		if err != nil || found {
			return false, err
		}
	}
	if sh.h.full() {
		if len(sh.h.slots)*2 <= s.maxSlots {
			sh.h.grow()
		} else {
			if sh.disk == nil {
				d, err := newDiskTable(s.dir, int64(s.maxSlots)*4)
				if err != nil {
					return false, err
				}
				sh.disk = d
				sh.bloom = make([]uint64, s.maxSlots/4)
			}
			spilled := sh.h.drain()
			for _, m := range spilled {
				bloomAdd(sh.bloom, m)
			}
			err := sh.disk.insertSorted(spilled)
			sh.h.clearSlots()
			if err != nil {
				return false, err
			}
		}
		i, _ = sh.h.find(x)
	}
	sh.h.slots[i] = x
	sh.h.n++
	return true, nil
}

// drain moves the table's hashes, mixed (mixHash) and sorted, to the front
// of its slots and returns them, with no memory beside the table's own. The
// returned slice aliases the table, which must be emptied (clearSlots)
// before its next use.
func (h *hashSet) drain() []uint64 {
	k := 0
	for _, x := range h.slots {
		if x != 0 {
			h.slots[k] = mixHash(x)
			k++
		}
	}
	out := h.slots[:k]
	slices.Sort(out)
	return out
}

// clearSlots empties the table after a drain.
func (h *hashSet) clearSlots() {
	clear(h.slots)
	h.n = 0
}

// Close releases the in-memory tables and closes and removes the spill
// files. The set must not be used afterwards.
func (s *Set) Close() error {
	var first error
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		sh.h.release()
		sh.bloom = nil
		if sh.disk != nil {
			if err := sh.disk.close(); err != nil && first == nil {
				first = err
			}
			sh.disk = nil
		}
		sh.mu.Unlock()
	}
	return first
}

// Bytes is the memory the in-memory tables hold.
func (s *Set) Bytes() int64 {
	var n int64
	for i := range s.shards {
		n += s.shards[i].h.bytes()
	}
	return n
}

// DiskEntries is how many hashes the disk tables hold.
func (s *Set) DiskEntries() int64 {
	var n int64
	for i := range s.shards {
		if d := s.shards[i].disk; d != nil {
			n += d.n
		}
	}
	return n
}

// bloomK is the number of bits a hash sets in a shard's Bloom filter.
const bloomK = 3

// bloomBit returns the i-th bit position of m in a filter of n bits (a
// power of two), by double hashing.
func bloomBit(m uint64, i, n uint64) uint64 {
	h2 := m>>32 | m<<32 | 1
	return (m + i*h2) & (n - 1)
}

func bloomAdd(b []uint64, m uint64) {
	n := uint64(len(b)) * 64
	for i := uint64(0); i < bloomK; i++ {
		bit := bloomBit(m, i, n)
		b[bit>>6] |= 1 << (bit & 63)
	}
}

// bloomHas reports whether m may be in the filter; false is certain.
func bloomHas(b []uint64, m uint64) bool {
	n := uint64(len(b)) * 64
	for i := uint64(0); i < bloomK; i++ {
		bit := bloomBit(m, i, n)
		if b[bit>>6]&(1<<(bit&63)) == 0 {
			return false
		}
	}
	return true
}
