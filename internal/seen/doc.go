// Package seen is the set of URLs seen so far, in bounded memory with a
// disk spill.
//
// A [Set] keeps a 128-bit hash of each URL added (two 64-bit hashes with
// random seeds of the process), split over four shards by two bits of the
// hash, each with its own lock, so concurrent callers (fetch's workers)
// add in parallel (one lock made a 5-million-URL fetch 35 % slower). The
// memory budget given to [New] ([DefaultMemory] by default) is shared
// evenly by the shards, and each one's share is split in two:
//
//   - Two thirds are the memory table: the hashes added since the last
//     spill, open addressing with linear probing, 16 bytes a slot, at
//     most 3/4 full (so a budget of B bytes holds B/32 hashes; 64 MiB,
//     about 2.1 million URLs), grown by doubling from 64 KiB; on Unix it
//     is mapped outside the Go heap (with huge pages on Linux), so the
//     garbage collector adds nothing on top.
//   - When the table is full, its hashes are spilled: sorted (a hash's
//     slot grows with its value, so the slots in order are almost sorted
//     already and one pass of insertion sort finishes the job) and
//     merged in one sequential pass with the sorted run of hashes on
//     disk into a new run: two temporary files (sitemap-dedup-*.tmp) in
//     the directory given to New for each shard, written in turn (the
//     older one emptied) and removed by [Set.Close]. The files are read
//     and written with pread/pwrite, never mapped, so it lives in the
//     page cache, not in the process. Memory keeps the first hash of
//     each 4 KiB block of the run (8 bytes per 256 URLs) and 128 KiB of
//     I/O buffers; a lookup on disk is one 4 KiB read.
//   - One third is a split block Bloom filter of the hashes on disk,
//     13 bits a hash while the budget allows (about 1 new URL in 300
//     then reads the disk for nothing; past 10 million URLs at 64 MiB
//     the filter stops growing and that share rises), so a new URL, the
//     common case, usually costs no read at all.
//
// A URL is new when neither the memory table nor the disk run holds its
// hash. A hash found is a URL seen before unless two URLs share all 128
// bits: for n distinct URLs that happens with probability about
// n²/2¹²⁹ (3·10⁻²⁵ for 10 million, 10⁻²¹ for a billion), far below the
// odds of a memory error; it is the one way a URL can be taken for one
// seen before. Hashes that share their first 64 bits are told apart by
// the other 64, in memory and on disk.
//
// Each spill rewrites the run, so the disk work grows with the square of
// the number of URLs over the budget: at 64 MiB, 10 million URLs take
// about 5 spills and 0.5 GB of sequential I/O through the page cache.
// Budgets below [MinMemory] make spills so frequent that a large input
// takes many times longer. An I/O error of a spill file is returned by
// [Set.Add], and by every later Add of a URL of that shard.
package seen
