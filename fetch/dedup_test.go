package fetch

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
func diskBits(s *shardedSet) (n uint) {
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
func TestDedupSpillExact(t *testing.T) {
	if unmix(mixHash(12345)) != 12345 {
		t.Fatal("unmix is not the inverse of mixHash")
	}
	const budget = 64 << 10
	dir := t.TempDir()
	s := newShardedSet(budget, dir)
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
		if s.bytes() > budget {
			t.Fatalf("%d bytes in memory, budget %d", s.bytes(), budget)
		}
	}
	if s.diskEntries() == 0 || diskBits(s) <= firstBits {
		t.Fatalf("disk: %d entries, bits %d → %d: no spill or no growth", s.diskEntries(), firstBits, diskBits(s))
	}
	// Everything again: all seen.
	for _, x := range hist {
		check(x)
	}
	if len(spillFiles(t, dir)) == 0 {
		t.Fatal("no spill file while the set is open")
	}
	if err := s.release(); err != nil {
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

// A walk with a tiny budget prints each URL once, the same URLs as with
// the default budget, and leaves no spill file behind.
func TestWalkDedupSpill(t *testing.T) {
	s := newSite(t)
	var subs []string
	const per = 3000
	for k := range 4 {
		var locs []string
		for i := range per {
			// Sitemaps overlap by half: URL i of sitemap k is URL i+per/2
			// of sitemap k-1.
			locs = append(locs, "https://e.com/p/"+strconv.Itoa(k*per/2+i))
		}
		p := "/s" + strconv.Itoa(k) + ".xml"
		s.serve(p, "", urlset(locs...))
		subs = append(subs, s.URL+p)
	}
	s.serve("/i.xml", "", index(subs...))
	dir := t.TempDir()
	r := walk(t, s.URL+"/i.xml", Options{DedupMemory: 8 << 10, TempDir: dir})
	if r.err != nil {
		t.Fatal(r.err)
	}
	seen := map[string]bool{}
	for _, l := range r.locs() {
		if seen[l] {
			t.Fatalf("%s printed twice", l)
		}
		seen[l] = true
	}
	want := 3*per/2 + per // 4 sitemaps of per URLs, each sharing half with the previous
	if len(seen) != want || r.sum.Duplicates != int64(4*per-want) {
		t.Fatalf("%d URLs, %d duplicates; want %d and %d", len(seen), r.sum.Duplicates, want, 4*per-want)
	}
	if f := spillFiles(t, dir); len(f) != 0 {
		t.Fatalf("spill files left: %v", f)
	}
}

// The spill file exists during the walk and is removed when the walk ends
// early: the callback fails, or the context is cancelled.
func TestDedupSpillRemovedOnStop(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 20000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	stop := errors.New("enough")
	for _, mode := range []string{"callback", "cancel"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			n, during := 0, 0
			_, err := Walk(ctx, s.URL+"/s.xml", Options{DedupMemory: 8 << 10, TempDir: dir}, func(ev Event) error {
				if ev.Kind != EventURL {
					return nil
				}
				if n++; n == 10000 {
					during = len(spillFiles(t, dir))
					if mode == "cancel" {
						cancel()
						return nil
					}
					return stop
				}
				return nil
			})
			if err == nil || n < 10000 {
				t.Fatalf("err %v after %d URLs", err, n)
			}
			if during == 0 {
				t.Fatal("no spill file during the walk")
			}
			if f := spillFiles(t, dir); len(f) != 0 {
				t.Fatalf("spill files left: %v", f)
			}
		})
	}
}

// A spill directory that cannot be written stops the walk with an error
// saying so, instead of printing repeats.
func TestDedupSpillUnwritable(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 5000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	dir := filepath.Join(t.TempDir(), "missing")
	r := walk(t, s.URL+"/s.xml", Options{DedupMemory: 8 << 10, TempDir: dir})
	if r.err == nil || !errors.Is(r.err, os.ErrNotExist) {
		t.Fatalf("err %v, want a missing-directory error", r.err)
	}
}

// FuzzDedupSet feeds a sequence of hashes from a small domain (so repeats
// are common) to a set with the smallest budget, and compares every answer
// with a map.
func FuzzDedupSet(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 0, 2})
	seq := make([]byte, 0, 8000)
	for i := range 4000 {
		seq = binary.LittleEndian.AppendUint16(seq, uint16(i*7%1500))
	}
	f.Add(seq)
	f.Fuzz(func(t *testing.T, in []byte) {
		s := newShardedSet(1, t.TempDir())
		defer s.release()
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
