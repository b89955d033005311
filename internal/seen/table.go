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
// The slots lie at the front of room, a mapping reserved for the most
// slots the table may grow to: grow fills it in place, so a growing
// table never holds more than its new size (pages of room not yet
// touched take no memory on Unix; elsewhere room is taken at once).
type table struct {
	slots []key
	room  []key
	n     int
}

// newTable makes a table of slots slots that cannot grow.
func newTable(slots int) table { return reserveTable(slots, slots) }

// reserveTable makes a table of slots slots that can grow up to room.
func reserveTable(slots, room int) table {
	w := allocWords(2 * room)
	r := unsafe.Slice((*key)(unsafe.Pointer(unsafe.SliceData(w))), room)
	return table{slots: r[:slots], room: r}
}

// release returns the table's memory; the table is empty afterwards.
func (t *table) release() {
	if len(t.room) > 0 {
		freeWords(unsafe.Slice((*uint64)(unsafe.Pointer(&t.room[0])), 2*len(t.room)))
	}
	t.slots, t.room, t.n = nil, nil, 0
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

// growBlock is how many keys grow places between two of its marks.
const growBlock = 1024

// grow moves the keys into a table of slots slots (≤ len(room)) in
// place, with no memory beside the table's own bar 8 bytes per
// growBlock keys and the few keys that wrap around its end. drain sorts
// the keys to the front; the sorted keys' places in the larger table,
// each max(home, previous place + 1), only increase and are never below
// the key's index, so moving the keys from the last to the first never
// overwrites one not moved yet. The places are computed first to last
// but used last to first: marks keep the place before every growBlock
// keys, and each block's places are computed again from its mark.
func (t *table) grow(slots int) {
	ks := t.drain()
	n := len(ks)
	clear(t.slots[n:])
	t.slots = t.room[:slots]
	t.n = n
	if n == 0 {
		return
	}
	marks := make([]int, (n+growBlock-1)/growBlock)
	p, wrap := -1, n
	for j, k := range ks {
		if j%growBlock == 0 {
			marks[j/growBlock] = p
		}
		if p = max(t.home(k.hi), p+1); p >= slots && wrap == n {
			wrap = j
		}
	}
	// Keys whose place is past the end are a suffix: they are inserted
	// last, wrapping to the front like any insertion.
	wrapped := slices.Clone(ks[wrap:])
	var place [growBlock]int
	for b := len(marks) - 1; b >= 0; b-- {
		lo, hi := b*growBlock, min((b+1)*growBlock, n)
		p := marks[b]
		for j := lo; j < hi; j++ {
			p = max(t.home(ks[j].hi), p+1)
			place[j-lo] = p
		}
		for j := hi - 1; j >= lo; j-- {
			k := t.slots[j]
			t.slots[j] = key{}
			if q := place[j-lo]; q < slots {
				t.slots[q] = k
			}
		}
	}
	for _, k := range wrapped {
		i, _ := t.find(k)
		t.slots[i] = k
	}
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
