package seen

import "math/bits"

// filter is a split block Bloom filter over keys on disk: each key sets
// k bits in one 256-bit block (so a lookup touches one cache line): with
// k = 8 one in each of its 8 32-bit words, with fewer one in each of k
// words the key picks. k is picked for the bits a key has: 8 at 13 bits
// a key, where about 1 lookup of a new key in 300 is a false "maybe"
// (which costs a read of the disk), 4 at 6 bits (1 in 20), 2 at 3 bits
// (1 in 6). "No" is certain. A filter of no blocks says "maybe" to
// every key. The words are mapped outside the Go heap.
type filter struct {
	words  []uint64 // 4 per block
	blocks uint64
	k      int
}

// filterSalt are the odd multipliers that pick a key's bit in each word.
var filterSalt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// filterBitsPerKey is the size a filter is given for the keys it holds
// when the budget allows.
const filterBitsPerKey = 13

// newFilter makes a filter of blocks blocks for about n keys.
func newFilter(blocks uint64, n int64) filter {
	f := filter{words: allocWords(int(4 * blocks)), blocks: blocks, k: 8}
	if n > 0 {
		// Bits per key × ln 2, rounded.
		f.k = min(max(int(float64(blocks*256)/float64(n)*0.693+0.5), 1), 8)
	}
	return f
}

func (f *filter) release() {
	freeWords(f.words)
	*f = filter{}
}

// block returns the index of k's first word and the bits k sets. The
// block comes from hi scaled to the filter, so a spill, which adds keys
// in order, walks the filter once from start to end instead of jumping
// about; the bits come from lo, independent of it.
func (f *filter) block(k key) (int, [4]uint64) {
	b, _ := bits.Mul64(k.hi, f.blocks)
	x := uint32(k.lo)
	var m [4]uint64
	if f.k == 8 {
		for i := range 4 {
			m[i] = 1<<((x*filterSalt[2*i])>>27) | 1<<(32+(x*filterSalt[2*i+1])>>27)
		}
		return int(4 * b), m
	}
	// Fewer bits: the words come from the upper half of lo.
	y := k.lo >> 32
	for i := range f.k {
		w := (y >> (3 * i)) & 7
		m[w/2] |= 1 << (32*(w%2) + uint64((x*filterSalt[i])>>27))
	}
	return int(4 * b), m
}

func (f *filter) add(k key) {
	if f.blocks == 0 {
		return
	}
	i, m := f.block(k)
	w := f.words[i : i+4 : i+4]
	w[0] |= m[0]
	w[1] |= m[1]
	w[2] |= m[2]
	w[3] |= m[3]
}

// has reports whether k may have been added; false is certain.
func (f *filter) has(k key) bool {
	if f.blocks == 0 {
		return true
	}
	i, m := f.block(k)
	return f.hasAt(i, m, f.words[i])
}

// hasAt is has for a key whose block is i and bits m (block), given
// the block's first word w0, loaded earlier.
// It has no branch on the words, so that the processor, which cannot
// guess the answer, goes on to the next probe (onDisk probes every run's
// filter in a row) while this one's cache miss is pending.
func (f *filter) hasAt(i int, m [4]uint64, w0 uint64) bool {
	w := f.words[i : i+4 : i+4]
	return (w0&m[0]^m[0])|(w[1]&m[1]^m[1])|(w[2]&m[2]^m[2])|(w[3]&m[3]^m[3]) == 0
}

func (f *filter) bytes() int64 { return int64(len(f.words)) * 8 }
