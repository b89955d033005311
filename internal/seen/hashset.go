package seen

import "hash/maphash"

// hashSet is a set of 64-bit URL hashes: open addressing with linear
// probing, 8 bytes per slot, grown (doubled) at 3/4 load. 0 marks an empty
// slot, so the hash 0 is mapped to 1. On Unix its table is mapped outside
// the Go heap (allocSlots), so it costs its 8 bytes a slot and no more: the
// garbage collector neither paces on it nor keeps a replaced table alive
// until the next cycle.
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
	if h.full() {
		h.grow()
	}
	if h.insert(x) {
		h.n++
		return true
	}
	return false
}

func (h *hashSet) insert(x uint64) bool {
	i, found := h.find(x)
	if !found {
		h.slots[i] = x
	}
	return !found
}

// find returns the slot holding x, or the empty slot where x would go.
func (h *hashSet) find(x uint64) (uint64, bool) {
	mask := uint64(len(h.slots) - 1)
	// The low bits index the table; mix the high bits in so that a
	// run of similar URLs does not cluster.
	i := (x ^ x>>29) & mask
	for {
		switch h.slots[i] {
		case 0:
			return i, false
		case x:
			return i, true
		}
		i = (i + 1) & mask
	}
}

// full reports whether one more hash would pass 3/4 load.
func (h *hashSet) full() bool { return (h.n+1)*4 > len(h.slots)*3 }

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
