package fetch

import (
	"hash/maphash"
	"sync"
)

// hashSet is a set of 64-bit URL hashes. On Unix its table is mapped
// outside the Go heap (allocSlots), so it costs its 8 bytes a slot and no
// more: the garbage collector neither paces on it nor keeps a replaced table
// alive until the next cycle.
//
// hashSet is a set of 64-bit URL hashes: open addressing with linear
// probing, 8 bytes per slot, grown (doubled) at 3/4 load. 0 marks an empty
// slot, so the hash 0 is mapped to 1.
type hashSet struct {
	seed  maphash.Seed
	slots []uint64
	n     int
}

func newHashSet() *hashSet {
	return &hashSet{seed: maphash.MakeSeed(), slots: allocSlots(1 << 16)}
}

// release returns the table's memory; the set is empty afterwards.
func (h *hashSet) release() {
	freeSlots(h.slots)
	h.slots, h.n = nil, 0
}

// add reports whether s was new, and records it.
func (h *hashSet) add(s string) bool {
	x := maphash.String(h.seed, s)
	if x == 0 {
		x = 1
	}
	return h.addHash(x)
}

// addHash adds a non-zero hash.
func (h *hashSet) addHash(x uint64) bool {
	if (h.n+1)*4 > len(h.slots)*3 {
		h.grow()
	}
	if h.insert(x) {
		h.n++
		return true
	}
	return false
}

func (h *hashSet) insert(x uint64) bool {
	mask := uint64(len(h.slots) - 1)
	// The low bits index the table; mix the high bits in so that a
	// run of similar URLs does not cluster.
	i := (x ^ x>>29) & mask
	for {
		switch h.slots[i] {
		case 0:
			h.slots[i] = x
			return true
		case x:
			return false
		}
		i = (i + 1) & mask
	}
}

func (h *hashSet) grow() {
	old := h.slots
	h.slots = allocSlots(len(old) * 2)
	for _, x := range old {
		if x != 0 {
			h.insert(x)
		}
	}
	freeSlots(old)
}

// bytes is the memory the set holds.
func (h *hashSet) bytes() int64 { return int64(len(h.slots)) * 8 }

// shardedSet spreads the hash set over shards with a lock each, so the
// workers deduplicate in parallel instead of one goroutine doing it for
// all. The top bits of the hash pick the shard.
type shardedSet struct {
	seed   maphash.Seed
	shards [setShards]struct {
		mu sync.Mutex
		h  hashSet
		_  [40]byte // keep the locks of neighbouring shards off one cache line
	}
}

const setShards = 16

func newShardedSet() *shardedSet {
	s := &shardedSet{seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i].h.slots = allocSlots(1 << 12)
	}
	return s
}

// add reports whether u was new, and records it. Safe for concurrent use.
func (s *shardedSet) add(u string) bool {
	x := maphash.String(s.seed, u)
	if x == 0 {
		x = 1
	}
	sh := &s.shards[x>>60]
	sh.mu.Lock()
	ok := sh.h.addHash(x)
	sh.mu.Unlock()
	return ok
}

func (s *shardedSet) release() {
	for i := range s.shards {
		s.shards[i].h.release()
	}
}

func (s *shardedSet) bytes() int64 {
	var n int64
	for i := range s.shards {
		n += s.shards[i].h.bytes()
	}
	return n
}
