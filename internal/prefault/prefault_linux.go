package prefault

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault the pages
// of a range in as if written, without writing them.
const madvPopulateWrite = 23

// first is the address of the package's first heap object, from its init.
var first uintptr

// initPopulated is how many bytes init populated (tests).
var initPopulated uintptr

func init() {
	first = uintptr(unsafe.Pointer(new([64]byte)))
	initPopulated = populateFrom(first, InitBytes)
}

// Heap populates HeapBytes of the Go heap from the package's first object
// upward (within the heap's mapping) and returns how many bytes the kernel
// populated: 0 where it cannot. The pages init populated cost nothing more.
func Heap() uintptr {
	return populateFrom(first, HeapBytes)
}

// populateFrom populates n bytes from the page holding addr, within its
// mapping, and returns how many bytes the kernel populated.
func populateFrom(addr, n uintptr) uintptr {
	page := uintptr(syscall.Getpagesize())
	lo := addr &^ (page - 1)
	hi := lo + n
	if populate(lo, hi-lo) {
		return hi - lo
	}
	// The kernel refuses a range that runs past the heap's mapping (after
	// populating what is inside); only then is /proc/self/maps read, to
	// find where the mapping ends.
	if _, end, ok := mapping(lo); ok && end < hi {
		hi = end
	}
	if !populate(lo, hi-lo) {
		return 0
	}
	return hi - lo
}

// populate maps [addr, addr+n) and reports whether the kernel did.
func populate(addr, n uintptr) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, n, madvPopulateWrite)
	return errno == 0
}

// mapping returns the address range of the mapping holding addr, read
// from /proc/self/maps; ok is false when it cannot be read or has no such
// mapping.
func mapping(addr uintptr) (lo, hi uintptr, ok bool) {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, false
	}
	defer syscall.Close(fd)
	var buf [16 << 10]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	return findMapping(buf[:n], addr)
}

// findMapping returns the range of the line of maps (the text of
// /proc/self/maps) whose range holds addr.
func findMapping(maps []byte, addr uintptr) (lo, hi uintptr, ok bool) {
	for line := maps; len(line) > 0; {
		end := 0
		for end < len(line) && line[end] != '\n' {
			end++
		}
		if a, b, ok := mapRange(line[:end]); ok && a <= addr && addr < b {
			return a, b, true
		}
		if end == len(line) {
			break
		}
		line = line[end+1:]
	}
	return 0, 0, false
}

// mapRange parses the "start-end" address range that opens a line of
// /proc/self/maps.
func mapRange(line []byte) (lo, hi uintptr, ok bool) {
	lo, i, ok := hexAt(line, 0)
	if !ok || i >= len(line) || line[i] != '-' {
		return 0, 0, false
	}
	hi, _, ok = hexAt(line, i+1)
	return lo, hi, ok && hi > lo
}

func hexAt(b []byte, i int) (v uintptr, next int, ok bool) {
	start := i
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return v, i, i > start
		}
	}
	return v, i, i > start
}
