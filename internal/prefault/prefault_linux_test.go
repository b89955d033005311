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

// TestPopulated: the init populated heap from its first object, within the
// heap's mapping.
func TestPopulated(t *testing.T) {
	probe := new([64]byte)
	page := uintptr(syscall.Getpagesize())
	if !populate(uintptr(unsafe.Pointer(probe))&^(page-1), page) {
		t.Skip("madvise(MADV_POPULATE_WRITE) is not supported here")
	}
	lo := uintptr(unsafe.Pointer(heapObject)) &^ (page - 1)
	_, end, ok := mapping(lo)
	if !ok {
		t.Fatal("no mapping holds the heap object")
	}
	want := min(uintptr(HeapBytes), end-lo)
	if Populated != want {
		t.Errorf("populated %d bytes of heap, want %d", Populated, want)
	}
}
