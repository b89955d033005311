package seen

import (
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"sync"
)

// DefaultMemory is the memory budget of a Set made with a budget ≤ 0.
const DefaultMemory = 64 << 20

// MinMemory is the smallest budget worth giving: below it the memory
// table spills every few thousand URLs and the runs on disk multiply
// faster than their filters can cover, so a large input takes many times
// longer. New accepts less
// (tests use it to reach the disk cheaply); commands refuse it.
const MinMemory = 1 << 20

// Set is a set of URLs, kept as 128-bit hashes, in bounded memory; see
// the package documentation. Safe for concurrent use: the keys are split
// over shards by their low hash's top bits, each with its own lock, memory
// table, filter and spill file, so concurrent callers (fetch's workers)
// add in parallel instead of queueing on one lock.
type Set struct {
	seed1, seed2 maphash.Seed
	shards       [numShards]*shard
}

// numShards is the number of shards of a Set.
const numShards = 1 << shardBits

// shardBits is how many top bits of a key's low hash pick its shard.
const shardBits = 2

// shard is one part of a Set: a memory table and the sorted runs on
// disk, each with its filter. Safe for concurrent use.
type shard struct {
	mu         sync.Mutex
	mem        table
	maxSlots   int   // the memory table's size at most, until the next spill
	spillSlots int   // the memory table's size from the first spill on
	filterMax  int64 // most bytes of the runs' filters together
	// peak is the most bytes the memory table and the filters held
	// together, noted after each of their allocations (tests check it).
	peak int64
	// all is a filter of every key on disk, made at the first spill at
	// its full size (allBytes), made again with fewer bits a key set as
	// the keys on disk double (rebuildAll): one probe tells most new keys
	// from the runs' keys; the runs' own filters, probed only when it says
	// "maybe", pick the runs to read.
	all         filter
	allBytes    int64
	allFor      int64 // the keys all was made for
	dir         string
	runs        []*run // oldest first; their levels never increase
	diskN       int64  // keys in the runs
	written     int64  // bytes written to the runs so far
	block       []byte // a lookup's read
	bufs        [][]byte
	err         error // the first I/O error: every later Add returns it
	reads       int64 // runs read by lookups (benchmarks report it)
	maybes      int64 // lookups the filter of all keys passed to the runs
	probes      int64 // runs' filters probed by those lookups
	refilled    int64 // keys read back from the runs to make filters again
	refilledAll int64
	sink        uint64 // addBatch's loads, kept so they are not left out
}

// fanIn is how many runs of one level are merged into one of the next:
// each key is written about log_fanIn(keys/table) + 1 times, and a
// lookup probes at most about fanIn filters a level.
const fanIn = 8

// New makes a set that keeps at most about budget bytes of memory
// (DefaultMemory when budget ≤ 0), shared evenly by its shards: in each,
// all of it for the memory table until the shard first spills (budget/16
// slots in all, so about budget/16·3/4 URLs are held without touching
// the disk: 3 million at DefaultMemory), then a quarter for the memory
// table and three quarters for the filters of the runs on disk (see the
// package documentation), plus 576 KiB of I/O buffers and 8 bytes per
// 256 keys on disk once it spills. dir is where the spill files are
// created ("" = os.TempDir()); on Unix they have no name (or are
// unlinked at once), so they are never seen there and vanish with the
// process, however it ends. Close releases them.
func New(budget int64, dir string) *Set {
	if budget <= 0 {
		budget = DefaultMemory
	}
	s := &Set{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed()}
	per := budget / numShards
	filterMax := per - per/tableShare
	slots := max(int((per-filterMax)/16), minSlots)
	first := max(int(per/16), slots)
	for i := range s.shards {
		s.shards[i] = newShard(first, slots, filterMax, dir)
	}
	return s
}

// tableShare is the part of a shard's share of the budget its memory
// table keeps from the first spill on (a quarter; the rest goes to the
// filters). A smaller table spills more often and makes more runs; a
// larger one leaves the filters fewer bits a key. With BenchmarkScaled100M
// at a twentieth of 80 MiB, a third gave 0.22 runs read a new URL and 2.8
// writes a hash, a quarter 0.11 and 2.6, a fifth 0.10 and 2.5, a seventh
// 0.09 and 2.7.
const tableShare = 4

// allShare is the tenths of the filters' memory that go to the filter
// of all keys on disk; the runs' filters share the rest. With
// BenchmarkBatch100M (a twentieth of 10⁸ URLs and 10 % repeats at a
// twentieth of 80 MiB): half gave 0.225 runs read a URL (0.50 in the last
// tenth) and 0.22 URLs passed on to the runs' filters; seven tenths 0.218
// (0.44) and 0.157, and 3.6 keys read back to make runs' filters again
// instead of 3.8; two thirds 0.216 (0.45), 0.164 and 4.1; five sixths
// 0.250. At 10 M URLs (BenchmarkBatch10M) the reads are the same.
const allShare = 7

// minSlots is the smallest memory table.
const minSlots = 64

// newSet makes a shard whose memory table holds at most slots slots and
// whose filters take at most filterMax bytes.
func newSet(slots int, filterMax int64, dir string) *shard {
	return newShard(slots, slots, filterMax, dir)
}

// newShard makes a shard whose memory table grows up to first slots
// until its first spill, and is of slots slots afterwards, beside
// filters of at most filterMax bytes.
func newShard(first, slots int, filterMax int64, dir string) *shard {
	all := filterMax * allShare / 10
	s := &shard{maxSlots: first, spillSlots: slots, filterMax: filterMax - all, allBytes: all, dir: dir}
	s.mem = reserveTable(min(1<<12, first), first)
	return s
}

// hashKey is the key of u: two 64-bit hashes of independent seeds.
func (s *Set) hashKey(u string) key {
	k := key{maphash.String(s.seed1, u), maphash.String(s.seed2, u)}
	if k == (key{}) {
		k.lo = 1
	}
	return k
}

// Add reports whether u was new, and records it. Safe for concurrent
// use. An error means a spill file could not be read or written; the
// shard then returns it from every later Add of its keys.
func (s *Set) Add(u string) (bool, error) {
	k := s.hashKey(u)
	return s.shards[k.lo>>(64-shardBits)].add(k)
}

// AddBatch is Add for each of us in turn, in order: isNew[i] (isNew must
// be as long as us) reports whether us[i] was new, so a URL that occurs
// twice in us is new at its first place only, exactly as with one Add
// after another. It is cheaper than as many Adds once the set has
// spilled: each shard takes the URLs that fall to it in order, under one
// lock, and asks the memory for a group of them at a time, so the
// processor waits for their cache misses (the memory table's and the
// filter's) together instead of one after another. An error is the first
// Add's that would have failed; isNew is then left incomplete.
func (s *Set) AddBatch(us []string, isNew []bool) error {
	if len(isNew) < len(us) {
		return fmt.Errorf("seen: AddBatch of %d URLs given %d answers", len(us), len(isNew))
	}
	ks := make([]key, len(us))
	var per [numShards]int
	for i, u := range us {
		ks[i] = s.hashKey(u)
		per[ks[i].lo>>(64-shardBits)]++
	}
	// The places of each shard's keys, in input order: one shard's keys
	// never meet another's, so their order among each other is the only
	// order that matters.
	at := make([]int32, len(us))
	var start [numShards]int
	for sh := 1; sh < numShards; sh++ {
		start[sh] = start[sh-1] + per[sh-1]
	}
	next := start
	for i, k := range ks {
		sh := k.lo >> (64 - shardBits)
		at[next[sh]] = int32(i)
		next[sh]++
	}
	for sh, shard := range s.shards {
		if err := shard.addBatch(ks, at[start[sh]:next[sh]], isNew); err != nil {
			return err
		}
	}
	return nil
}

// batchGroup is how many keys addBatch asks the memory for at a time.
const batchGroup = 16

// addBatch adds the keys ks[i] for i in at, in that order, setting
// isNew[i].
func (s *shard) addBatch(ks []key, at []int32, isNew []bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(at) > 0 {
		g := at[:min(len(at), batchGroup)]
		at = at[len(g):]
		// Load the first word of each key's home slot in the memory
		// table and of its block of the filter of all keys: the loads
		// do not depend on one another, so their cache misses overlap.
		// The words are not used (a spill may move them); the lines
		// are in the cache when the keys are added below.
		var sink uint64
		slots, all := s.mem.slots, s.all
		for _, i := range g {
			k := ks[i]
			sink += slots[s.mem.home(k.hi)].lo
			if all.blocks > 0 {
				b, _ := bits.Mul64(k.hi, all.blocks)
				sink += all.words[4*b]
			}
		}
		// Then the words of the runs' filters for the keys the filter
		// of all keys passes on (they will be probed in onDisk), all
		// of the group's at once.
		if len(s.runs) > 0 {
			for _, i := range g {
				k := ks[i]
				if all.blocks > 0 && !all.has(k) {
					continue
				}
				for _, r := range s.runs {
					if f := &r.filter; f.blocks > 0 {
						b, _ := bits.Mul64(k.hi, f.blocks)
						sink += f.words[4*b]
					}
				}
			}
		}
		s.sink += sink
		for _, i := range g {
			n, err := s.addLocked(ks[i])
			if err != nil {
				return err
			}
			isNew[i] = n
		}
	}
	return nil
}

func (s *shard) add(k key) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addLocked(k)
}

// addLocked is add with s.mu held.
func (s *shard) addLocked(k key) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	// The filter of all keys on disk is probed for most new keys: its
	// word is loaded before the memory table is searched, so that the
	// processor waits for the two cache misses at once, not one after
	// the other.
	var fi int
	var fm [4]uint64
	var fw uint64
	probe := len(s.runs) > 0 && s.all.blocks > 0
	if probe {
		fi, fm = s.all.block(k)
		fw = s.all.words[fi]
	}
	i, found := s.mem.find(k)
	if found {
		return false, nil
	}
	if len(s.runs) > 0 && (!probe || s.all.hasAt(fi, fm, fw)) {
		s.maybes++
		s.probes += int64(len(s.runs))
		found, err := s.onDisk(k)
		if err != nil {
			s.err = err
			return false, err
		}
		if found {
			return false, nil
		}
	}
	if s.mem.full() {
		if len(s.mem.slots) < s.maxSlots {
			s.mem.grow(min(2*len(s.mem.slots), s.maxSlots))
			s.notePeak()
		} else if err := s.spill(); err != nil {
			s.err = err
			return false, err
		}
		i, _ = s.mem.find(k)
	}
	s.mem.slots[i] = k
	s.mem.n++
	return true, nil
}

// onDisk reports whether a run holds k. Every run's filter is probed
// first, in one loop without an early exit, so the processor overlaps
// their cache misses; then the runs whose filter said "maybe" are read,
// the newest first (a repeat is more often of a recent URL).
func (s *shard) onDisk(k key) (bool, error) {
	var maybe [64]bool
	runs := s.runs[:min(len(s.runs), len(maybe))]
	some := false
	for j, r := range runs {
		maybe[j] = r.filter.has(k)
	}
	for _, m := range maybe[:len(runs)] {
		some = some || m
	}
	for j := len(s.runs) - 1; j >= len(runs); j-- { // beyond 64 runs
		if found, err := s.runs[j].has(k, s.block); found || err != nil {
			return found, err
		}
	}
	if !some {
		return false, nil
	}
	for j := len(runs) - 1; j >= 0; j-- {
		if !maybe[j] {
			continue
		}
		s.reads++
		if found, err := runs[j].read(k, s.block); found || err != nil {
			return found, err
		}
	}
	return false, nil
}

// spill writes the memory table's keys as a new run and empties the
// table, then merges the newest runs while fanIn of them share a level,
// and shrinks the largest filters while the filters pass their budget.
//
// The first spill also trades the memory table, which had the whole
// budget, for the filters: the keys are written from the table, the
// table is released, the filters (of all keys on disk and of run 0) are
// made and filled by reading run 0 back, and the table is made again at
// a quarter of the budget. The table and the filters are never held
// together, so the peak is the budget (the full table), plus the I/O
// buffers and run 0's index.
func (s *shard) spill() error {
	first := s.bufs == nil
	if first {
		s.block = make([]byte, blockSize)
		s.bufs = make([][]byte, fanIn+1)
		for i := range s.bufs {
			s.bufs[i] = make([]byte, ioChunk)
		}
	}
	ks := s.mem.drain()
	n := int64(len(ks))
	blocks := s.newRunBlocks(n, len(s.runs))
	if first {
		blocks = 0 // made once the table is released
	}
	w, err := newRunWriter(s.dir, 0, n, blocks, s.bufs[fanIn], &s.written)
	if err != nil {
		s.mem.clear()
		return err
	}
	s.notePeak()
	for _, k := range ks {
		s.all.add(k)
		if err := w.put(k); err != nil {
			w.abort()
			s.mem.clear()
			return err
		}
	}
	if first {
		s.mem.release()
	} else {
		s.mem.clear()
	}
	r, err := w.finish()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, r)
	s.diskN += n
	if first {
		if err := s.firstFilters(r); err != nil {
			return err
		}
	}
	if err := s.compact(); err != nil {
		return err
	}
	if err := s.rebuildAll(); err != nil {
		return err
	}
	return s.fitFilters()
}

// firstFilters makes the filter of all keys on disk and run 0's own,
// once the memory table is released, fills them by reading run 0 back,
// and makes the memory table again at its size after the first spill.
func (s *shard) firstFilters(r *run) error {
	s.allFor = s.allBytes * 8 / allBitsPerKey
	s.all = newFilter(uint64(max(s.allBytes/32, 1)), s.allFor)
	r.filter = newFilter(s.newRunBlocks(r.n, len(s.runs)-1), r.n)
	s.notePeak()
	err := r.fill(s.bufs[0], &s.all)
	s.maxSlots = s.spillSlots
	s.mem = newTable(s.spillSlots)
	s.notePeak()
	return err
}

// notePeak notes the bytes the memory table and the filters hold now,
// if they are the most so far.
func (s *shard) notePeak() {
	n := s.mem.bytes() + s.all.bytes()
	for _, r := range s.runs {
		n += r.filter.bytes()
	}
	s.peak = max(s.peak, n)
}

// compact merges the newest fanIn runs into one of the next level while
// they share a level.
func (s *shard) compact() error {
	for len(s.runs) >= fanIn {
		tail := s.runs[len(s.runs)-fanIn:]
		if tail[0].level != tail[fanIn-1].level {
			return nil
		}
		var n int64
		for _, r := range tail {
			n += r.n
			// The filters are not needed to merge: their memory goes to
			// the new run's.
			r.filter.release()
		}
		w, err := newRunWriter(s.dir, tail[0].level+1, n, s.newRunBlocks(n, len(s.runs)-fanIn), s.bufs[fanIn], &s.written)
		if err != nil {
			return err
		}
		s.notePeak()
		if err := mergeRuns(tail, s.bufs[:fanIn], w); err != nil {
			w.abort()
			return err
		}
		r, err := w.finish()
		if err != nil {
			return err
		}
		var cerr error
		for _, old := range tail {
			if err := old.close(); cerr == nil {
				cerr = err
			}
		}
		s.runs = append(s.runs[:len(s.runs)-fanIn], r)
		if cerr != nil {
			return fmt.Errorf("dedup spill file: %w", cerr)
		}
	}
	return nil
}

// allBitsPerKey is the bits a key the filter of all keys on disk is
// first made for (it sets 4 bits a key): about 1 new key in 20 probes the
// runs' filters while it has that many. Once the runs hold twice the keys
// it was made for, it is made again with the number of bits a key set that
// suits twice the keys then on disk (rebuildAll), down to 1.
const allBitsPerKey = 6

// blocksPlan is the filter blocks of runs of the sizes in ns for their
// filters to share the runs' budget (runBits).
func (s *shard) blocksPlan(ns []int64) []uint64 {
	bits := runBits(ns, float64(8*s.filterMax))
	out := make([]uint64, len(ns))
	for i, n := range ns {
		out[i] = blocksFor(n, bits[i])
	}
	return out
}

// newRunBlocks is the filter blocks of a new run of n keys that will
// join the first keep runs.
func (s *shard) newRunBlocks(n int64, keep int) uint64 {
	ns := make([]int64, 0, keep+1)
	for _, r := range s.runs[:keep] {
		ns = append(ns, r.n)
	}
	plan := s.blocksPlan(append(ns, n))
	return plan[keep]
}

// fitFilters shrinks filters while the runs' filters together pass their
// budget, the one furthest above its share of the budget first
// (blocksPlan): to three quarters of its share, so that it is not rebuilt
// at the next spill, by reading the run once; a run whose share is no
// filter loses its filter without a read.
func (s *shard) fitFilters() error {
	ns := make([]int64, len(s.runs))
	for i, r := range s.runs {
		ns[i] = r.n
	}
	plan := s.blocksPlan(ns)
	for {
		var total int64
		big, excess := -1, int64(0)
		for i, r := range s.runs {
			total += r.filter.bytes()
			if e := r.filter.bytes() - int64(plan[i])*32; e > excess {
				big, excess = i, e
			}
		}
		if total <= s.filterMax || big < 0 {
			return nil
		}
		r := s.runs[big]
		want := plan[big] * 3 / 4
		if float64(want)*256/float64(r.n) < minRunBits {
			r.filter.release()
			continue
		}
		s.refilled += r.n
		if err := r.rebuildFilter(want, s.bufs[0]); err != nil {
			return err
		}
	}
}

// rebuildAll makes the filter of all keys on disk again once the runs
// hold twice the keys it was made for, setting the number of bits a key
// that suits twice the keys on disk now (a filter made for fewer keys
// sets too many bits a key once it holds more, and says "maybe" more
// often than one that sets fewer), reading every run once. Nothing is
// done while the number of bits would not change.
func (s *shard) rebuildAll() error {
	if s.diskN <= 2*s.allFor || s.all.blocks == 0 {
		return nil
	}
	for_ := 2 * s.diskN
	k := min(max(int(float64(s.all.blocks*256)/float64(for_)*math.Ln2+0.5), 1), 8)
	s.allFor = for_
	if k == s.all.k {
		return nil
	}
	blocks := s.all.blocks
	s.refilledAll += s.diskN
	s.all.release()
	s.all = newFilter(blocks, for_)
	for _, r := range s.runs {
		c := newCursor(r, s.bufs[0])
		for {
			ok, err := c.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			s.all.add(c.cur)
		}
	}
	return nil
}

// Close releases the memory and closes and removes the spill files. The
// set must not be used afterwards.
func (s *Set) Close() error {
	var err error
	for _, sh := range s.shards {
		if e := sh.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Bytes is the memory the set holds: the memory tables, the filters and
// the indexes of the disk runs.
func (s *Set) Bytes() int64 {
	var n int64
	for _, sh := range s.shards {
		n += sh.Bytes()
	}
	return n
}

// DiskEntries is how many keys the spill files hold.
func (s *Set) DiskEntries() int64 {
	var n int64
	for _, sh := range s.shards {
		n += sh.DiskEntries()
	}
	return n
}

// diskWritten is how many bytes the set wrote to its spill files.
func (s *Set) diskWritten() int64 {
	var n int64
	for _, sh := range s.shards {
		n += sh.diskWritten()
	}
	return n
}

// Close releases the shard's memory and closes and removes its spill
// files.
func (s *shard) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mem.release()
	s.all.release()
	var err error
	for _, r := range s.runs {
		if e := r.close(); err == nil {
			err = e
		}
	}
	s.runs, s.diskN, s.bufs, s.block = nil, 0, nil, nil
	return err
}

// Bytes is the memory the shard holds.
func (s *shard) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.mem.bytes() + int64(len(s.block)) + s.all.bytes()
	for _, r := range s.runs {
		n += r.bytes()
	}
	for _, b := range s.bufs {
		n += int64(cap(b))
	}
	return n
}

// DiskEntries is how many keys the shard's runs hold.
func (s *shard) DiskEntries() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.diskN
}

// diskWritten is how many bytes the shard wrote to its runs.
func (s *shard) diskWritten() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written
}

// filterBytes is the memory of the shard's filters.
func (s *shard) filterBytes() int64 {
	var n int64
	for _, r := range s.runs {
		n += r.filter.bytes()
	}
	return n
}

// runCount is how many runs the shard has on disk.
func (s *shard) runCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}
