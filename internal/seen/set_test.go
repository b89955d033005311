package seen

import (
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
)

// unmix inverts mixHash, so tests can pick where a hash lands on disk.
func unmix(m uint64) uint64 {
	const c = 0x9e3779b97f4a7c15
	inv := uint64(c) // Newton: each step doubles the correct low bits
	for range 6 {
		inv *= 2 - c*inv
	}
	return m * inv
}

// spillFiles lists the dedup spill files in dir.
func spillFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "sitemap-dedup-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diskBits is the total of the shards' disk table sizes (log2 buckets).
func diskBits(s *Set) (n uint) {
	for i := range s.shards {
		if d := s.shards[i].disk; d != nil {
			n += d.bits
		}
	}
	return n
}

// A 64 KiB budget and 300,000 hashes, a third of them repeats interleaved
// with the new ones (some repeating a hash long gone to disk, some one
// still in memory): every answer matches a map, the memory tables stay
// within the budget, and the disk tables grow (rehash) along the way.
func TestSpillExact(t *testing.T) {
	if unmix(mixHash(12345)) != 12345 {
		t.Fatal("unmix is not the inverse of mixHash")
	}
	const budget = 64 << 10
	dir := t.TempDir()
	s := New(budget, dir)
	ref := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	var hist []uint64
	var firstBits uint
	check := func(x uint64) {
		t.Helper()
		got, err := s.addHash(x)
		if err != nil {
			t.Fatal(err)
		}
		if want := !ref[x]; got != want {
			t.Fatalf("hash %#x (#%d): new=%v, want %v", x, len(ref), got, want)
		}
		ref[x] = true
	}
	for i := range 300000 {
		var x uint64
		switch {
		case i%3 == 1 && len(hist) > 0: // a repeat, anywhere in the past
			x = hist[rng.IntN(len(hist))]
		case i%3 == 2 && len(hist) > 10: // a recent repeat (likely in memory)
			x = hist[len(hist)-1-rng.IntN(10)]
		default:
			x = rng.Uint64() | 1
			hist = append(hist, x)
		}
		check(x)
		if firstBits == 0 {
			firstBits = diskBits(s)
		}
		if s.Bytes() > budget {
			t.Fatalf("%d bytes in memory, budget %d", s.Bytes(), budget)
		}
	}
	if s.DiskEntries() == 0 || diskBits(s) <= firstBits {
		t.Fatalf("disk: %d entries, bits %d → %d: no spill or no growth", s.DiskEntries(), firstBits, diskBits(s))
	}
	// Everything again: all seen.
	for _, x := range hist {
		check(x)
	}
	if len(spillFiles(t, dir)) == 0 {
		t.Fatal("no spill file while the set is open")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if f := spillFiles(t, dir); len(f) != 0 {
		t.Fatalf("spill files left: %v", f)
	}
}

// Hashes that all land in the same home bucket (the last one, so the
// overflow wraps to bucket 0) chain across many buckets; lookups and
// inserts still agree with a map.
func TestDiskTableOverflowChain(t *testing.T) {
	d, err := newDiskTable(t.TempDir(), 64*bucketSlots)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	var ms []uint64
	for i := range 5 * bucketSlots {
		ms = append(ms, ^uint64(0)-uint64(i)*2) // top bits all ones: home is the last bucket
	}
	slices.Sort(ms)
	if err := d.insertSorted(ms[:len(ms)/2]); err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		got, err := d.has(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := i < len(ms)/2; got != want {
			t.Fatalf("%d: has=%v want %v", i, got, want)
		}
	}
	if err := d.insertSorted(ms[len(ms)/2:]); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if got, err := d.has(m); err != nil || !got {
			t.Fatalf("%#x lost (%v)", m, err)
		}
	}
	if d.n != int64(len(ms)) {
		t.Fatalf("n = %d, want %d", d.n, len(ms))
	}
	// The first bucket now holds overflow from the last one.
	var b [8]byte
	if _, err := d.f.ReadAt(b[:], 0); err != nil || binary.LittleEndian.Uint64(b[:]) == 0 {
		t.Fatalf("no wrap-around into bucket 0 (%v)", err)
	}
}

func TestHashSet(t *testing.T) {
	h := newHashSet()
	for i := range 200000 {
		if !h.add("https://e.com/" + strconv.Itoa(i)) {
			t.Fatalf("%d reported as seen", i)
		}
	}
	for i := range 200000 {
		if h.add("https://e.com/" + strconv.Itoa(i)) {
			t.Fatalf("%d reported as new twice", i)
		}
	}
	if h.n != 200000 || h.bytes() > 200000*22 {
		t.Fatalf("n=%d bytes=%d", h.n, h.bytes())
	}
}

// The set used concurrently (by fetch's workers): under concurrent adds of
// overlapping URL ranges, each distinct URL is new exactly once, with the
// default budget and with one so small that most hashes go to disk.
func TestSetConcurrent(t *testing.T) {
	for _, budget := range []int64{0, 8 << 10} {
		t.Run(strconv.FormatInt(budget, 10), func(t *testing.T) {
			s := New(budget, t.TempDir())
			defer s.Close()
			var fresh atomic.Int64
			done := make(chan bool)
			for g := range 4 {
				go func() {
					for i := g * 10000; i < g*10000+30000; i++ {
						ok, err := s.Add("https://e.com/" + strconv.Itoa(i))
						if err != nil {
							t.Error(err)
						}
						if ok {
							fresh.Add(1)
						}
					}
					done <- true
				}()
			}
			for range 4 {
				<-done
			}
			if fresh.Load() != 60000 {
				t.Fatalf("%d new URLs, want 60000", fresh.Load())
			}
			if s.Bytes() == 0 {
				t.Fatal("no table")
			}
			if budget > 0 && (s.Bytes() > budget || s.DiskEntries() == 0) {
				t.Fatalf("budget %d: %d bytes in memory, %d on disk", budget, s.Bytes(), s.DiskEntries())
			}
		})
	}
}

// FuzzSet feeds a sequence of hashes from a small domain (so repeats
// are common) to a set with the smallest budget, and compares every answer
// with a map.
func FuzzSet(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 0, 2})
	seq := make([]byte, 0, 8000)
	for i := range 4000 {
		seq = binary.LittleEndian.AppendUint16(seq, uint16(i*7%1500))
	}
	f.Add(seq)
	f.Fuzz(func(t *testing.T, in []byte) {
		s := New(1, t.TempDir())
		defer s.Close()
		ref := map[uint64]bool{}
		for i := 0; i+1 < len(in); i += 2 {
			v := uint64(binary.LittleEndian.Uint16(in[i:]))
			x := (v + 1) * 0xbf58476d1ce4e5b9 // spread over the shards
			got, err := s.addHash(x)
			if err != nil {
				t.Fatal(err)
			}
			if got == ref[x] {
				t.Fatalf("step %d: hash %#x new=%v, seen before=%v", i/2, x, got, ref[x])
			}
			ref[x] = true
		}
	})
}

// TestBloomNoFalseNegatives: the filter in front of the disk table may
// say "maybe" for a hash it never saw, never "no" for one it did.
func TestBloomNoFalseNegatives(t *testing.T) {
	b := make([]uint64, 64) // 4,096 bits
	var in []uint64
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < 500; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		in = append(in, mixHash(x))
		bloomAdd(b, mixHash(x))
	}
	for _, m := range in {
		if !bloomHas(b, m) {
			t.Fatalf("false negative for %x", m)
		}
	}
	fp := 0
	for i := 0; i < 10000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if bloomHas(b, mixHash(x)) {
			fp++
		}
	}
	// 500 items in 4,096 bits with 3 bits each: about 3% false positives.
	if fp > 1000 {
		t.Errorf("%d false positives in 10,000; the filter lets almost everything through", fp)
	}
}
