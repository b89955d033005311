//go:build unix

package seen

import (
	"syscall"
	"unsafe"
)

// allocSlots maps n zeroed slots outside the Go heap (anonymous mmap),
// falling back to the heap when mapping fails.
func allocSlots(n int) []uint64 {
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n)
	}
	hugePages(b)
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
}

// freeSlots unmaps a table from allocSlots; a heap table is left to the
// collector (Munmap refuses it).
func freeSlots(s []uint64) {
	if len(s) == 0 {
		return
	}
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8))
}
