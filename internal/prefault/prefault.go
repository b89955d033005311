// Package prefault makes the command start faster on machines where a page
// fault is expensive (virtual machines with shadowed page tables take
// 20–50 µs per fault, where a bare machine takes under 1 µs). A new process
// touches a few hundred fresh pages of Go heap before main, and each first
// touch is a fault; on Linux, madvise(MADV_POPULATE_WRITE) maps the same
// pages in one system call, about 1 µs a page. Importing the package does
// it once, from its init, which Go runs before the heavier package
// initialisers of the command.
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

// HeapBytes is how much of the Go heap, from the first object the package
// allocates upward (within the heap's mapping), is populated.
const HeapBytes = 4 << 20
