package seen

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// writeRun writes the keys, sorted, as a run in dir (no filter, so
// every lookup reads the file).
func writeRun(t *testing.T, dir string, ks []key) *run {
	t.Helper()
	slices.SortFunc(ks, cmpKey)
	var written int64
	w, err := newRunWriter(dir, 0, int64(len(ks)), 0, make([]byte, ioChunk), &written)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		if err := w.put(k); err != nil {
			t.Fatal(err)
		}
	}
	r, err := w.finish()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.close() })
	return r
}

// A lookup in a run reads a window of nearKeys keys about the key's
// guessed place, and the whole block only when the window cannot tell:
// every answer matches a map, for keys of the run, keys between them,
// keys below the first and above the last, and his shared by many keys
// across blocks (the window must then give way to the block read); and
// the window settles nearly every lookup of random keys.
func TestRunRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ks []key
	for range 20000 {
		ks = append(ks, key{rng.Uint64(), rng.Uint64() | 1})
	}
	// 600 keys sharing one hi (straddling blocks), and keys at both ends.
	for i := range 600 {
		ks = append(ks, key{1 << 63, uint64(i)*0x9e3779b97f4a7c15 | 1})
	}
	ks = append(ks, key{0, 5}, key{^uint64(0), 7})
	r := writeRun(t, t.TempDir(), slices.Clone(ks))
	in := map[key]bool{}
	for _, k := range ks {
		in[k] = true
	}
	probes := slices.Clone(ks)
	for _, k := range ks {
		probes = append(probes, key{k.hi, k.lo + 2}, key{k.hi + 1, k.lo}, key{k.hi - 1, k.lo})
	}
	for range 20000 {
		probes = append(probes, key{rng.Uint64(), rng.Uint64()})
	}
	block := make([]byte, blockSize)
	for _, k := range probes {
		got, err := r.read(k, block)
		if err != nil {
			t.Fatal(err)
		}
		if got != in[k] {
			t.Fatalf("key %x: found=%v, want %v", k, got, in[k])
		}
	}
	// The random keys (present, then absent) are settled by the window.
	unsure := 0
	for _, k := range append(slices.Clone(ks[:20000]), probes[len(probes)-20000:]...) {
		b := sort.Search(len(r.index), func(i int) bool { return r.index[i] >= k.hi })
		if b > 0 {
			b--
		}
		if _, sure, err := r.readNear(k, b, block); err != nil {
			t.Fatal(err)
		} else if !sure {
			unsure++
		}
	}
	if unsure > 400 { // 1 %
		t.Fatalf("the window settled %d of 40,000 lookups, want nearly all", 40000-unsure)
	}
}

// searchIndex finds the first block whose first hi is ≥ a hi exactly as
// a binary search (sort.Search) does, for indexes of hashes spread
// evenly, of his bunched at one end or repeated across many blocks, of
// one block, and for his below the first, equal to entries, between
// them and above the last.
func TestSearchIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shapes := map[string]func(n int) []uint64{
		"even": func(n int) []uint64 {
			ix := make([]uint64, n)
			for i := range ix {
				ix[i] = rng.Uint64()
			}
			return ix
		},
		"bunched": func(n int) []uint64 {
			ix := make([]uint64, n)
			for i := range ix {
				ix[i] = rng.Uint64N(1000)
				if i%7 == 0 {
					ix[i] = ^uint64(0) - rng.Uint64N(3)
				}
			}
			return ix
		},
		"repeated": func(n int) []uint64 {
			ix := make([]uint64, n)
			for i := range ix {
				ix[i] = uint64(rng.IntN(4)) << 62
			}
			return ix
		},
		"extremes": func(n int) []uint64 {
			ix := make([]uint64, n)
			for i := range ix {
				if rng.IntN(2) == 0 {
					ix[i] = ^uint64(0)
				}
			}
			return ix
		},
	}
	for name, shape := range shapes {
		for _, n := range []int{1, 2, 3, 9, 100, 5000} {
			ix := shape(n)
			slices.Sort(ix)
			r := &run{index: ix, last: ix[n-1] + uint64(rng.IntN(2))}
			if r.last < ix[n-1] {
				r.last = ix[n-1]
			}
			probes := []uint64{0, 1, ^uint64(0), ^uint64(0) - 1, r.last}
			for range 300 {
				i := rng.IntN(n)
				probes = append(probes, ix[i], ix[i]-1, ix[i]+1, rng.Uint64())
			}
			for _, hi := range probes {
				want := sort.Search(n, func(i int) bool { return ix[i] >= hi })
				if got := r.searchIndex(hi); got != want {
					t.Fatalf("%s, %d blocks: searchIndex(%d) = %d, want %d", name, n, hi, got, want)
				}
			}
		}
	}
}
