// Package prefault makes the command start faster where a page fault is
// expensive. A new process touches a few hundred fresh pages of Go heap
// before and just after main, and each first touch is a fault; on Linux,
// madvise(MADV_POPULATE_WRITE) maps the same pages in one system call.
// Importing the package populates InitBytes of heap from its init, which Go
// runs before the heavier package initialisers of the command: about what
// start-up touches. Heap populates HeapBytes, for a command about to stream
// a large input.
//
// Measured on this project's 2-core virtual machine (medians of 40 runs):
// `sitemap version` takes 388 page faults instead of 534 and 16.2 ms
// instead of 16.7; `validate` of a 4.5 MB sitemap 41.3 ms instead of 43.3,
// `parse --format txt` 32.3 instead of 35.5. Populating costs about 0.8 µs
// a page; a fault costs 3–4 µs on the quiet machine and ten times that
// when its cores are busy (a loaded run: 17–80 µs a fault, 1.2–2.9 µs a
// populated page). Populating 2 MiB at init instead of 4 saves `version`
// as many faults (417 against 416, medians of 15) for half the pages;
// `parse` and `validate` get the other 2 MiB from Heap.
//
// Re-measured on 2026-11-24 with the 40 MB binary (PostgreSQL and S3
// linked; a loaded machine, 60 rounds): `sitemap version` 24.4 ms against
// 26.7 without the package, about 470 page faults against 640. Go 1.26
// starts the heap at a random page of its first 4 MiB mapping, and a
// range is populated only up to that mapping's end: at init 2 MiB in six
// starts of twelve, 0.4 to 1.6 MiB in the others; the runtime maps the
// next 4 MiB when the heap grows into it, and those pages fault one by
// one. On this virtual machine a page also costs on its first touch from
// the program after it was populated (the hypervisor maps it then):
// touching 14 MiB of populated 4 KiB pages took 33 to 97 ms, of 2 MiB
// huge pages (MADV_HUGEPAGE first) under 6 ms. Advising huge pages for the
// populated range was tried: with the random start, a whole aligned 2 MiB
// region falls inside it too rarely to show (version, parse and validate
// within the noise of 80 rounds), so it is not done.
//
// The data segment is left alone: populating it copies every page of the
// file mapping (about 10 µs a page here), which costs more than the faults
// on the few pages the program writes.
//
// Only the command imports it: a library must not decide how its host
// process maps memory. Where the call is not supported (another system, a
// kernel before 5.14, a sandbox) nothing happens. The cost is memory: up to
// HeapBytes of heap are resident from the start.
package prefault

// InitBytes is how much of the Go heap, from the first object the package
// allocates upward (within the heap's mapping), its init populates: about
// what start-up and a short command touch.
const InitBytes = 2 << 20

// HeapBytes is how much Heap populates, from the same object.
const HeapBytes = 4 << 20
