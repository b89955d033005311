// Package seen is the set of URLs seen so far, in bounded memory with a
// disk spill.
//
// A [Set] keeps 64-bit hashes of the URLs added so far: 16 open-addressing
// tables of 8-byte slots (a lock each, so concurrent callers add in
// parallel), at most 3/4 full, each doubled on its own when it fills; on
// Unix they are mapped outside the Go heap (with huge pages on Linux), so
// the garbage collector adds nothing on top. That is 11 to 21 bytes per
// distinct URL, up to the budget given to [New] ([DefaultMemory], 64 MiB,
// by default: about 5.6 million URLs; plus 1/32 of it while one table
// doubles; at least 8 KiB is used). A table that would pass its 1/16 of the
// budget is spilled instead: its hashes, sorted, go in one pass to that
// shard's hash table on disk, a temporary file (sitemap-dedup-*.tmp) in the
// directory given to New, created on the first spill and removed by
// [Set.Close], and the memory table starts again empty. The disk table is
// open addressing over buckets of 64 hashes (a hash's top bits pick its
// bucket, a full bucket overflows into the next), read and written with
// pread/pwrite, never mapped, so it lives in the page cache, not in the
// process; past 70% full it is rehashed into a file twice as large. A hash
// is new when neither table holds it. Once a shard spills it also keeps a
// Bloom filter of the hashes on disk (a quarter of its table's memory, so
// the budget grows by 1/4), and reads the file only when the filter says
// "maybe": a genuinely new URL, the common case, usually costs no read at
// all, a repeated one a 512-byte read. Memory no longer grows with the
// number of URLs. Two different URLs collide with probability about
// n²/2⁶⁵ (7·10⁻⁷ for 5 million URLs), in memory or on disk alike; a
// collision makes one URL look seen. An I/O error of the spill file is
// returned by [Set.Add].
package seen
