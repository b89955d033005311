package validate

import (
	"math/rand/v2"
	"testing"
)

// TestHashSet checks the set against a map: every hash added is found,
// nothing else is, duplicates are reported once added, 0 and 1 included.
func TestHashSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s hashSet
	want := map[uint64]bool{}
	for i := range 20000 {
		h := rng.Uint64()
		switch i % 7 {
		case 0:
			h = h & 0xff // small values, 0 and 1 among them: many collide
		case 1:
			h = h << 40 // same low bits: long probe runs
		}
		if got := s.add(h); got != want[h] && !(h <= 1 && (want[0] || want[1])) {
			t.Fatalf("add(%#x) = %v, want %v", h, got, want[h])
		}
		want[h] = true
	}
	for h := range want {
		if !s.has(h) {
			t.Fatalf("has(%#x) = false after add", h)
		}
	}
	for range 20000 {
		if h := rng.Uint64() | 1<<63; !want[h] && s.has(h) {
			t.Fatalf("has(%#x) = true, never added", h)
		}
	}
	n := len(want)
	if want[0] && want[1] {
		n-- // 0 is stored as 1
	}
	if s.len() != n {
		t.Errorf("len = %d, want %d", s.len(), n)
	}
}
