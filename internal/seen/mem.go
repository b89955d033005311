//go:build unix

package seen

import (
	"syscall"
	"unsafe"
)

// allocWords maps n zeroed 64-bit words outside the Go heap (anonymous
// mmap), falling back to the heap when mapping fails.
func allocWords(n int) []uint64 {
	if n == 0 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n)
	}
	hugePages(b)
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
}

// freeWords unmaps words from allocWords; a heap slice is left to the
// collector (Munmap refuses it).
func freeWords(s []uint64) {
	if len(s) == 0 {
		return
	}
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8))
}
