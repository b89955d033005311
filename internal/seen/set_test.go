package seen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
)

// spillFiles lists the dedup spill files in dir.
func spillFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "sitemap-dedup-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checker adds keys to a set and compares every answer with a map.
type checker struct {
	t   *testing.T
	s   *shard
	ref map[key]bool
}

func (c *checker) add(k key) {
	c.t.Helper()
	got, err := c.s.add(k)
	if err != nil {
		c.t.Fatal(err)
	}
	if want := !c.ref[k]; got != want {
		c.t.Fatalf("key %x (#%d): new=%v, want %v", k, len(c.ref), got, want)
	}
	c.ref[k] = true
}

// A small set (16,384 slots in memory) and 200,000 keys, a third of them
// repeats interleaved with the new ones (some repeating a key long gone
// to disk, some one still in memory): every answer matches a map, the
// memory stays within the budget, and the set spills many times.
func TestSpillExact(t *testing.T) {
	const slots, filterMax = 16384, 512 << 10
	dir := t.TempDir()
	s := newSet(slots, filterMax, dir)
	c := &checker{t: t, s: s, ref: map[key]bool{}}
	rng := rand.New(rand.NewPCG(1, 2))
	var hist []key
	spills, lastDisk := 0, int64(0)
	for i := range 200000 {
		var k key
		switch {
		case i%3 == 1 && len(hist) > 0: // a repeat, anywhere in the past
			k = hist[rng.IntN(len(hist))]
		case i%3 == 2 && len(hist) > 10: // a recent repeat (likely in memory)
			k = hist[len(hist)-1-rng.IntN(10)]
		default:
			k = key{rng.Uint64(), rng.Uint64() | 1}
			hist = append(hist, k)
		}
		c.add(k)
		if d := s.DiskEntries(); d != lastDisk {
			spills, lastDisk = spills+1, d
		}
		if b, f := s.mem.bytes(), s.filterBytes(); b > slots*16 || f > filterMax {
			t.Fatalf("%d bytes in the memory table, %d in the filters", b, f)
		}
	}
	if spills < 4 {
		t.Fatalf("%d spills, want many", spills)
	}
	if f := spillFiles(t, dir); runtime.GOOS != "windows" && len(f) != 0 {
		t.Fatalf("spill files seen while the set is open: %v, want none (unlinked at once)", f)
	}
	// Everything again: all seen.
	for _, k := range hist {
		c.add(k)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if f := spillFiles(t, dir); len(f) != 0 {
		t.Fatalf("spill files left: %v", f)
	}
}

// Keys that share their high half (the part that orders them and picks
// the slot) and differ only in the low half are different URLs, in
// memory and on disk, where runs of them straddle the 256-key blocks:
// none is taken for another (a false "seen" would drop a page).
func TestSameHighHalf(t *testing.T) {
	s := newSet(256, 1<<10, t.TempDir())
	defer s.Close()
	c := &checker{t: t, s: s, ref: map[key]bool{}}
	var ks []key
	for i := range 3000 {
		hi := uint64(i/700) << 62 // four his, 700 keys each, the last at the very top
		if i/700 == 3 {
			hi = ^uint64(0)
		}
		ks = append(ks, key{hi, uint64(i)*0x9e3779b97f4a7c15 | 1})
	}
	for _, k := range ks {
		c.add(k)
	}
	if s.DiskEntries() == 0 {
		t.Fatal("nothing spilled")
	}
	for _, k := range ks {
		c.add(k)
		c.add(key{k.hi, k.lo ^ 2}) // new: same hi, another lo
	}
}

// drain returns every key of the table, sorted, including the keys that
// wrapped around the end of a full table (all homed in the last slots).
func TestDrainSorted(t *testing.T) {
	for _, top := range []int{0, 40} {
		tb := newTable(128)
		rng := rand.New(rand.NewPCG(3, uint64(top)))
		var want []key
		for i := range 96 {
			k := key{rng.Uint64(), rng.Uint64() | 1}
			if i < top {
				k.hi = ^uint64(0) - uint64(i) // home: the last slot
			}
			j, found := tb.find(k)
			if found {
				t.Fatal("duplicate random key")
			}
			tb.slots[j] = k
			tb.n++
			want = append(want, k)
		}
		slices.SortFunc(want, cmpKey)
		if got := tb.drain(); !slices.Equal(got, want) {
			t.Fatalf("top %d: drain = %x\nwant %x", top, got, want)
		}
		tb.release()
	}
}

// URLs as strings: each distinct URL is new once, with the default
// budget and with a small one.
func TestAddURLs(t *testing.T) {
	for _, budget := range []int64{0, 256 << 10} {
		s := New(budget, t.TempDir())
		for round := range 2 {
			for i := range 50000 {
				u := "https://e.com/p/" + strconv.Itoa(i)
				isNew, err := s.Add(u)
				if err != nil {
					t.Fatal(err)
				}
				if isNew != (round == 0) {
					t.Fatalf("budget %d round %d: %s new=%v", budget, round, u, isNew)
				}
			}
		}
		if budget > 0 && s.DiskEntries() == 0 {
			t.Fatalf("budget %d: nothing spilled", budget)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A spill directory that does not exist: Add returns the error, and a
// shard that failed keeps returning it (it cannot answer truthfully any
// more); once every shard has spilled, every Add does.
func TestSpillError(t *testing.T) {
	s := New(64*numShards, filepath.Join(t.TempDir(), "missing"))
	defer s.Close()
	var err error
	for i := 0; err == nil && i < 1000; i++ {
		_, err = s.Add(strconv.Itoa(i))
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err %v, want a missing-directory error", err)
	}
	for i := 1000; i < 20000; i++ {
		_, _ = s.Add(strconv.Itoa(i)) // every shard spills, and fails
	}
	for _, u := range []string{"x", "y", "0"} {
		if _, err2 := s.Add(u); !errors.Is(err2, os.ErrNotExist) {
			t.Fatalf("Add(%q) after the failures: %v, want the same error", u, err2)
		}
	}
}

// The set used concurrently (by fetch's workers): under concurrent adds of
// overlapping URL ranges, each distinct URL is new exactly once, with the
// default budget and with one so small that most keys go to disk.
func TestSetConcurrent(t *testing.T) {
	for _, budget := range []int64{0, 256 << 10} {
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
			if budget > 0 && s.DiskEntries() == 0 {
				t.Fatalf("budget %d: nothing on disk", budget)
			}
		})
	}
}

// FuzzSet feeds a sequence of keys from a small domain (so repeats are
// common, and many keys share their high half) to a set with the
// smallest memory table, so it spills every few dozen keys, and compares
// every answer with a map.
func FuzzSet(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 0, 2})
	// Inputs are capped at 1,200 keys: with a 64-slot table that is still
	// about 25 spills and merges, and an execution stays cheap (the fuzzer
	// runs an interesting input hundreds of times to minimise it).
	seq := make([]byte, 0, 2400)
	for i := range 1200 {
		seq = binary.LittleEndian.AppendUint16(seq, uint16(i*7%1500))
	}
	f.Add(seq)
	f.Fuzz(func(t *testing.T, in []byte) {
		s := newSet(minSlots, 64, t.TempDir())
		defer s.Close()
		c := &checker{t: t, s: s, ref: map[key]bool{}}
		in = in[:min(len(in), 2400)]
		for i := 0; i+1 < len(in); i += 2 {
			v := uint64(binary.LittleEndian.Uint16(in[i:]))
			// 64 his, spread over the range; lo from all of v.
			c.add(key{(v >> 10) * 0x0400000000000001 * 0x3ff, v*0xbf58476d1ce4e5b9 | 1})
		}
	})
}

// The filter in front of the disk run may say "maybe" for a key it never
// saw, never "no" for one it did, and at filterBitsPerKey bits a key
// lets few new keys through.
func TestFilter(t *testing.T) {
	const n = 20000
	f := newFilter(n*filterBitsPerKey/256, n)
	defer f.release()
	rng := rand.New(rand.NewPCG(5, 6))
	var in []key
	for range n {
		k := key{rng.Uint64(), rng.Uint64()}
		in = append(in, k)
		f.add(k)
	}
	for _, k := range in {
		if !f.has(k) {
			t.Fatalf("false negative for %x", k)
		}
	}
	fp := 0
	for range 100000 {
		if f.has(key{rng.Uint64(), rng.Uint64()}) {
			fp++
		}
	}
	if fp > 1000 { // expected about 300
		t.Errorf("%d false positives in 100,000", fp)
	}
}

// The set against a map, on random URLs with repeats planted at random
// distances (the last few, anywhere in the past), with budgets from one
// that spills every few hundred keys (merging runs two levels up) to the
// default, and one whose table grows twice in place and then spills
// (1 MiB: more distinct keys than its 49,152 slots' worth): every answer
// is the map's.
func TestDifferential(t *testing.T) {
	for _, tc := range []struct {
		seed   uint64
		budget int64
		n      int
	}{{1, 32 << 10, 40000}, {2, 256 << 10, 40000}, {3, 0, 20000}, {4, 1 << 20, 64000}} {
		t.Run(strconv.FormatInt(tc.budget, 10), func(t *testing.T) {
			s := New(tc.budget, t.TempDir())
			defer s.Close()
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			ref := map[string]bool{}
			var hist []string
			for i := range tc.n {
				var u string
				switch r := rng.IntN(100); {
				case r < 10 && len(hist) > 0:
					u = hist[rng.IntN(len(hist))]
				case r < 15 && len(hist) > 0:
					u = hist[max(0, len(hist)-1-rng.IntN(50))]
				default:
					u = "https://e.com/" + strconv.FormatUint(rng.Uint64()%(1<<40), 36)
					hist = append(hist, u)
				}
				got, err := s.Add(u)
				if err != nil {
					t.Fatal(err)
				}
				if got != !ref[u] {
					t.Fatalf("add #%d %s: new=%v, want %v", i, u, got, !ref[u])
				}
				ref[u] = true
			}
			if tc.budget == 1<<20 && s.DiskEntries() == 0 {
				t.Fatal("nothing spilled")
			}
			if tc.budget > 0 && tc.budget < 64<<10 {
				levels := 0
				for _, sh := range s.shards {
					for _, r := range sh.runs {
						levels = max(levels, r.level)
					}
				}
				if levels < 2 {
					t.Fatalf("runs merged up to level %d, want 2 or more", levels)
				}
			}
		})
	}
}

// The bytes written to disk grow linearly with the keys: each key is
// written once by its spill and once by each merge, and merges go fanIn
// runs at a time, so 200 tables' worth of keys are written at most
// 1 + ⌈log₈ 200⌉ = 4 times (one merged run rewritten at each spill, the
// old way, wrote them about 100 times).
func TestDiskTrafficLinear(t *testing.T) {
	const slots = 512 // 384 keys a spill
	s := newSet(slots, 2<<20, t.TempDir())
	defer s.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 200 * 384
	for range n {
		if _, err := s.add(key{rng.Uint64(), rng.Uint64() | 1}); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(s.diskWritten()) / float64(16*s.DiskEntries())
	if per > 4 || s.DiskEntries() < n-384 {
		t.Fatalf("%d keys on disk written %.2f times each, want at most 4", s.DiskEntries(), per)
	}
	if r := s.runCount(); r > 3*(fanIn-1) {
		t.Fatalf("%d runs, want at most %d", r, 3*(fanIn-1))
	}
}

// A process killed (SIGKILL) while its set has runs on disk leaves no
// file behind: they have no name (Linux), or were unlinked as soon as
// they were created. The child spills in a loop, so the kill often lands
// within a spill (it did leave a file about 1 time in 10 when a named
// file was created, then unlinked).
func TestKilledLeavesNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("open files cannot be unlinked on Windows; Close removes them")
	}
	if dir := os.Getenv("SEEN_TEST_CHILD_DIR"); dir != "" {
		s := New(64<<10, dir)
		for i := 0; ; i++ {
			if _, err := s.Add(strconv.Itoa(i)); err != nil {
				t.Fatal(err)
			}
			if i == 20000 {
				os.Stdout.WriteString("spilled\n")
			}
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledLeavesNothing$")
	cmd.Env = append(os.Environ(), "SEEN_TEST_CHILD_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if line != "spilled\n" {
		t.Fatalf("child said %q", line)
	}
	if f := spillFiles(t, dir); len(f) != 0 {
		t.Fatalf("files left by the killed process: %v", f)
	}
}

// Until its first spill a set's memory table has the whole budget: a set
// of budget B holds about B/16·3/4 keys (16 bytes a slot, 3/4 full)
// without writing a byte to disk, and spills soon past that. The keys
// spread over the shards by their hash, so the shard that fills first
// spills a little before the whole set is full.
func TestHoldsBudgetBeforeSpill(t *testing.T) {
	const budget = 4 << 20
	full := budget / 16 * 3 / 4 // 196,608
	s := New(budget, t.TempDir())
	defer s.Close()
	add := func(from, to int) {
		for i := from; i < to; i++ {
			if isNew, err := s.Add("https://e.com/p/" + strconv.Itoa(i)); err != nil || !isNew {
				t.Fatalf("URL #%d: new=%v, %v", i, isNew, err)
			}
		}
	}
	held := full * 96 / 100
	add(0, held)
	if w, d := s.diskWritten(), s.DiskEntries(); w != 0 || d != 0 {
		t.Fatalf("%d keys: %d bytes written, %d keys on disk; want none (the table has the whole budget)", held, w, d)
	}
	if b := s.Bytes(); b > budget {
		t.Fatalf("%d keys in memory take %d bytes, budget %d", held, b, budget)
	}
	add(held, full*105/100)
	if s.diskWritten() == 0 {
		t.Fatalf("%d keys with room for %d: nothing spilled", full*105/100, full)
	}
}

// The first spill trades the memory table, which had the whole budget,
// for the filters and a table a quarter as large, without ever holding
// both: the table and the filters together never pass a shard's share
// of the budget, noted at each of their allocations, and the set's
// memory, less its fixed I/O buffers and the runs' indexes (8 bytes per
// 256 keys on disk), stays within the budget; lookups stay exact.
func TestFirstSpillWithinBudget(t *testing.T) {
	const budget = 4 << 20
	s := New(budget, t.TempDir())
	defer s.Close()
	spilled := func() bool {
		for _, sh := range s.shards {
			if sh.DiskEntries() == 0 {
				return false
			}
		}
		return true
	}
	n := 0
	for ; !spilled(); n++ {
		if n > budget/16 {
			t.Fatalf("%d keys added, not every shard spilled", n)
		}
		if isNew, err := s.Add("https://e.com/p/" + strconv.Itoa(n)); err != nil || !isNew {
			t.Fatalf("URL #%d: new=%v, %v", n, isNew, err)
		}
		if n%4096 == 0 {
			checkBudget(t, s, budget)
		}
	}
	checkBudget(t, s, budget)
	for _, sh := range s.shards {
		if sh.peak > budget/numShards {
			t.Fatalf("a shard's table and filters held %d bytes at their peak, its share is %d", sh.peak, budget/numShards)
		}
		if sh.peak < budget/numShards*9/10 {
			t.Fatalf("a shard's peak %d bytes, want near its share %d (the full table)", sh.peak, budget/numShards)
		}
		if len(sh.mem.slots)*16 > budget/numShards/tableShare || sh.all.bytes() == 0 {
			t.Fatalf("after the first spill: table %d bytes, filter of all keys %d bytes", len(sh.mem.slots)*16, sh.all.bytes())
		}
	}
	for i := range n {
		if isNew, err := s.Add("https://e.com/p/" + strconv.Itoa(i)); err != nil || isNew {
			t.Fatalf("URL #%d again: new=%v, %v", i, isNew, err)
		}
	}
}

// checkBudget fails t when s holds more than budget bytes besides its
// fixed I/O buffers and the indexes of its runs.
func checkBudget(t *testing.T, s *Set, budget int64) {
	t.Helper()
	b := s.Bytes()
	for _, sh := range s.shards {
		b -= int64(len(sh.block))
		for _, buf := range sh.bufs {
			b -= int64(cap(buf))
		}
		for _, r := range sh.runs {
			b -= int64(cap(r.index)) * 8
		}
	}
	if b > budget {
		t.Fatalf("the set holds %d bytes besides its I/O buffers and indexes, budget %d", b, budget)
	}
}
