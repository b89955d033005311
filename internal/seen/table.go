package seen

import (
	"math/bits"
	"slices"
	"unsafe"
)

// key is the 128-bit hash of a URL. The zero key marks an empty slot, so
// a URL whose hash is zero is given lo = 1 (hashKey).
type key struct{ hi, lo uint64 }

func (a key) less(b key) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

func cmpKey(a, b key) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

// table is the in-memory set of the keys added since the last spill:
// open addressing with linear probing, 16 bytes a slot, at most 3/4
// full. A key's home slot is hi scaled to the table (hi·len/2⁶⁴), which
// grows with hi, so the slots in order hold the keys almost sorted
// (drain sorts them in one cheap pass). On Unix the slots are mapped
// outside the Go heap (allocWords), so they cost their 16 bytes and the
// garbage collector neither paces on them nor keeps a replaced table.
type table struct {
	slots []key
	n     int
}

func newTable(slots int) table {
	w := allocWords(2 * slots)
	return table{slots: unsafe.Slice((*key)(unsafe.Pointer(unsafe.SliceData(w))), slots)}
}

// release returns the table's memory; the table is empty afterwards.
func (t *table) release() {
	if len(t.slots) > 0 {
		freeWords(unsafe.Slice((*uint64)(unsafe.Pointer(&t.slots[0])), 2*len(t.slots)))
	}
	t.slots, t.n = nil, 0
}

func (t *table) home(hi uint64) int {
	h, _ := bits.Mul64(hi, uint64(len(t.slots)))
	return int(h)
}

// find returns the slot holding k, or the empty slot where k would go.
func (t *table) find(k key) (int, bool) {
	i := t.home(k.hi)
	for {
		switch s := t.slots[i]; s {
		case k:
			return i, true
		case key{}:
			return i, false
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// full reports whether one more key would pass 3/4 load.
func (t *table) full() bool { return (t.n+1)*4 > len(t.slots)*3 }

// grow moves the keys into a table of slots slots.
func (t *table) grow(slots int) {
	old := *t
	*t = newTable(slots)
	for _, k := range old.slots {
		if k != (key{}) {
			i, _ := t.find(k)
			t.slots[i] = k
			t.n++
		}
	}
	old.release()
}

// drain moves the table's keys, sorted, to the front of its slots and
// returns them, with no memory beside the table's own bar the few keys
// that wrapped around its end. The returned slice aliases the table,
// which must be emptied (clear) before its next use.
func (t *table) drain() []key {
	// A key whose probe wrapped past the last slot sits at the front,
	// before the first empty slot, with a home beyond its slot: it
	// belongs at the end.
	var wrapped []key
	k := 0
	for i, s := range t.slots {
		if s == (key{}) {
			continue
		}
		if t.home(s.hi) > i {
			wrapped = append(wrapped, s)
			continue
		}
		t.slots[k] = s
		k++
	}
	k += copy(t.slots[k:], wrapped)
	out := t.slots[:k]
	// Each key is at most a probe run away from its place: insertion
	// sort finishes in about one pass. Should the keys be far from
	// sorted after all, a general sort takes over.
	moves, limit := 0, 16*len(out)+1024
	for i := 1; i < len(out); i++ {
		x := out[i]
		j := i
		for j > 0 && x.less(out[j-1]) {
			out[j] = out[j-1]
			j--
		}
		out[j] = x
		if moves += i - j; moves > limit {
			slices.SortFunc(out, cmpKey)
			break
		}
	}
	return out
}

// clear empties the table after a drain.
func (t *table) clear() {
	clear(t.slots)
	t.n = 0
}

// bytes is the memory the table holds.
func (t *table) bytes() int64 { return int64(len(t.slots)) * 16 }
