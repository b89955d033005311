package prefault

import (
	"syscall"
	"testing"
	"unsafe"
)

func TestMapRange(t *testing.T) {
	for _, c := range []struct {
		line   string
		lo, hi uintptr
		ok     bool
	}{
		{"00400000-00a3f000 r-xp 00000000 fe:00 1 /usr/bin/sitemap", 0x400000, 0xa3f000, true},
		{"7ffce3a1f000-7ffce3a40000 rw-p 00000000 00:00 0 [stack]", 0x7ffce3a1f000, 0x7ffce3a40000, true},
		{"c000000000-c004000000 rw-p 00000000 00:00 0", 0xc000000000, 0xc004000000, true},
		{"", 0, 0, false},
		{"-1000 r", 0, 0, false},
		{"2000-1000 r", 0, 0, false},
		{"1000", 0, 0, false},
		{"zz-10", 0, 0, false},
	} {
		lo, hi, ok := mapRange([]byte(c.line))
		if ok != c.ok || (ok && (lo != c.lo || hi != c.hi)) {
			t.Errorf("mapRange(%q) = %#x, %#x, %v; want %#x, %#x, %v", c.line, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
	maps := []byte("00400000-00a3f000 r-xp 0 fe:00 1 /x\n1000000-1100000 rw-p 0 0:0 0\nc000000000-c004000000 rw-p 0 0:0 0")
	if lo, hi, ok := findMapping(maps, 0xc000001234); !ok || lo != 0xc000000000 || hi != 0xc004000000 {
		t.Errorf("findMapping = %#x, %#x, %v", lo, hi, ok)
	}
	if _, _, ok := findMapping(maps, 0x2000000); ok {
		t.Error("findMapping found a mapping for an unmapped address")
	}
}

// TestHeap: Heap populates HeapBytes from the page of a new heap object,
// within the heap's mapping, and every page of that range is then resident.
func TestHeap(t *testing.T) {
	probe := new([64]byte)
	page := uintptr(syscall.Getpagesize())
	if !populate(uintptr(unsafe.Pointer(probe))&^(page-1), page) {
		t.Skip("madvise(MADV_POPULATE_WRITE) is not supported here")
	}
	if initPopulated == 0 || initPopulated > InitBytes || initPopulated%page != 0 {
		t.Errorf("init populated %d bytes, want a whole number of pages up to %d", initPopulated, InitBytes)
	}
	if n := Heap(); n < initPopulated || n > HeapBytes || n%page != 0 {
		t.Errorf("Heap() = %d bytes, want a whole number of pages from %d to %d", n, initPopulated, HeapBytes)
	}
	obj := new([64]byte)
	lo := uintptr(unsafe.Pointer(obj)) &^ (page - 1)
	_, end, ok := mapping(lo)
	if !ok {
		t.Fatal("no mapping holds the heap object")
	}
	want := min(uintptr(HeapBytes), end-lo)
	n := populateFrom(uintptr(unsafe.Pointer(obj)), HeapBytes)
	if n != want {
		t.Fatalf("populated %d bytes of heap, want %d", n, want)
	}
	vec := make([]byte, n/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, lo, n, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	for i, v := range vec {
		if v&1 == 0 {
			t.Fatalf("page %d of %d of the populated range is not resident", i, len(vec))
		}
	}
}
