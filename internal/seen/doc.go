// Package seen is the set of URLs seen so far, in bounded memory with a
// disk spill whose traffic grows linearly with the number of URLs.
//
// A [Set] keeps a 128-bit hash of each URL added (two 64-bit hashes with
// random seeds of the process), split over four shards by two bits of the
// hash, each with its own lock, so concurrent callers (fetch's workers)
// add in parallel (one lock made a 5-million-URL fetch 35 % slower). The
// memory budget given to [New] ([DefaultMemory] by default) is shared
// evenly by the shards. Until a shard first spills, its memory table
// has its whole share; from the first spill on, the share is split in
// two:
//
//   - A quarter is the memory table: the hashes added since the last
//     spill, open addressing with linear probing, 16 bytes a slot, at
//     most 3/4 full. Before the first spill it grows by doubling from
//     64 KiB up to the whole share, in place (a mapping reserved for
//     the whole share, filled as it grows, so a growing table never
//     holds two copies), and a budget of B bytes holds about B/16·3/4
//     hashes without touching the disk (generate's 80 MiB: 3.9 million
//     URLs; 64 MiB: 3.1 million). On Unix it is mapped outside the Go
//     heap (with huge pages on Linux), so the garbage collector adds
//     nothing on top.
//   - The first spill writes the full table's hashes as run 0, releases
//     the table, makes the filters (below) and fills them by reading
//     run 0 back, then makes the table again at a quarter of the share
//     (3B/256 hashes in all). The table and the filters are never held
//     together: across the first spill the peak is the budget, plus the
//     I/O buffers and run 0's index (below).
//   - When the table is full, its hashes are spilled, sorted (a hash's
//     slot grows with its value, so one pass of insertion sort finishes
//     the job), as a new run: a temporary file in the directory given to
//     New that has no name on Linux (O_TMPFILE; where the file system
//     refuses it, and on other Unix systems, sitemap-dedup-*.tmp unlinked
//     as soon as it is created), so no file is left behind, whatever ends
//     the process (on other systems [Set.Close] removes them). When 8 runs of
//     one level exist they are merged, in one sequential pass, into one
//     run of the next level. So each hash is written once by its spill
//     and once per level: about 1 + log₈(URLs / table) times (3 times for
//     100 million URLs at generate's 80 MiB), never the whole set at each
//     spill, and at most 7 runs a level are on disk. The files are read
//     and written with pread/pwrite, never mapped, so they live in the
//     page cache, not in the process (a mapping read at random counts
//     every page touched in the process's memory, and dropping them as
//     it goes cost more than the reads). Memory keeps the first hash of
//     each 4 KiB block of a run (8 bytes per 256 URLs) and, once a shard
//     has spilled, 576 KiB of I/O buffers. A lookup in a run reads 1 KiB:
//     the hashes are spread evenly, so a hash's place in its block is
//     guessed from the block's first hash and the next block's, within
//     about 8 places, and the 64 hashes about the guess settle it; only
//     when they do not (rarely: TestRunRead) is the whole 4 KiB block
//     read. A pread of 1 KiB costs about four fifths of one of 4 KiB.
//   - Three quarters are filters (split block Bloom filters, one cache line a
//     lookup; "no" is certain, a false "maybe" costs a read of a run, never
//     a wrong answer), seven tenths of them one filter of every hash on
//     disk, three tenths a filter per run:
//   - The filter of every hash on disk is made at the first spill at its
//     full size and tells most new URLs from old ones in one probe (about
//     1 in 20 reads further while it has 6 bits a hash: 15 million URLs a
//     shard at 80 MiB, 59 million in all). Each time the runs hold twice
//     the hashes it was made for, it is made again (reading the runs once)
//     setting the number of bits a hash that suits twice the hashes then on
//     disk, down to one: a filter that sets too many bits for what it holds
//     says "maybe" more often.
//   - The runs' filters, probed only when the first said "maybe", pick the
//     runs worth a read. They share their budget so that a new URL reads
//     as few runs as it can (as in Monkey, SIGMOD 2017): each run's false
//     "maybe" rate in proportion to its size, so small recent runs get up
//     to 11 bits a hash and the largest few or none. A new run's filter is
//     made at its share; when the filters pass their budget, the one
//     furthest above its share is made again at three quarters of it by
//     reading its run (or dropped, with no read, when its share is none):
//     about 3.6 hashes read back a hash added at 10⁸ URLs (8.7 at nine
//     tenths), for 3 % more runs read.
//
// [Set.AddBatch] adds many URLs at once, in input order (generate's
// reader hands it 512 at a time): each shard takes its URLs under one
// lock and loads the memory table's slot and the filter's block of 16 of
// them before adding them one by one, so the processor waits for their
// cache misses together (one Add waits for its own two at once: the
// filter's word is loaded before the table is searched). The filters
// are probed with no branch on their words, so the probes of the runs'
// filters overlap too.
//
// Past what the filters cover (tens of millions of URLs at the default
// budget) more new URLs cost reads of the runs: the work per URL grows,
// the bytes written do not. At 80 MiB and 100 million URLs (5 bits of
// filter a hash) a new URL reads about 0.30 runs by the end and 0.09 on
// average (BenchmarkScaled100M); at 48 MiB with a third for the table
// (2.7 bits) it read 1.5 by the end, and 4.8 with the budget spread
// evenly over the runs.
//
// A URL is new when neither the memory table nor any run holds its
// hash. A hash found is a URL seen before unless two URLs share all 128
// bits: for n distinct URLs that happens with probability about
// n²/2¹²⁹ (3·10⁻²⁵ for 10 million, 10⁻²¹ for a billion), far below the
// odds of a memory error; it is the one way a URL can be taken for one
// seen before. Hashes that share their first 64 bits are told apart by
// the other 64, in memory and on disk.
//
// Budgets below [MinMemory] make spills so frequent that a large input
// takes many times longer. An I/O error of a spill file is returned by
// [Set.Add], and by every later Add of a URL of that shard.
package seen
