package seen

import (
	"math/rand/v2"
	"testing"
)

// grow moves the keys in place into a larger table: every key is found
// afterwards, no other is, and the count is kept, for random keys, for
// keys that all share one home (one long cluster), for keys homed at
// the very end (they wrap to the front, before and after the growth),
// and for more keys than one block of places; growth by doubling and to
// a size that is not a power of two.
func TestGrowInPlace(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to int
		n        int
		hi       func(rng *rand.Rand, i int) uint64
	}{
		{"random", 4096, 8192, 3072, func(rng *rand.Rand, _ int) uint64 { return rng.Uint64() }},
		{"random-uneven", 4096, 6000, 3000, func(rng *rand.Rand, _ int) uint64 { return rng.Uint64() }},
		{"one-home", 256, 512, 192, func(*rand.Rand, int) uint64 { return 1 << 62 }},
		{"top", 256, 512, 192, func(rng *rand.Rand, _ int) uint64 { return ^uint64(0) - rng.Uint64N(1<<50) }},
		{"top-and-bottom", 2048, 4096, 1536, func(rng *rand.Rand, i int) uint64 {
			if i%2 == 0 {
				return ^uint64(0) - uint64(i)
			}
			return uint64(i)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(tc.n)))
			tb := reserveTable(tc.from, tc.to)
			defer tb.release()
			var in []key
			for i := range tc.n {
				k := key{tc.hi(rng, i), rng.Uint64() | 1}
				j, found := tb.find(k)
				if found {
					t.Fatal("duplicate random key")
				}
				tb.slots[j] = k
				tb.n++
				in = append(in, k)
			}
			tb.grow(tc.to)
			if len(tb.slots) != tc.to || tb.n != tc.n {
				t.Fatalf("after grow: %d slots, %d keys; want %d, %d", len(tb.slots), tb.n, tc.to, tc.n)
			}
			held := 0
			for _, s := range tb.slots {
				if s != (key{}) {
					held++
				}
			}
			if held != tc.n {
				t.Fatalf("%d slots hold a key, want %d", held, tc.n)
			}
			for _, k := range in {
				if _, found := tb.find(k); !found {
					t.Fatalf("key %x lost by grow", k)
				}
				if _, found := tb.find(key{k.hi, k.lo ^ 2}); found {
					t.Fatalf("key %x found, never added", key{k.hi, k.lo ^ 2})
				}
			}
		})
	}
}
