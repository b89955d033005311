//go:build !unix

package seen

func allocSlots(n int) []uint64 { return make([]uint64, n) }

func freeSlots([]uint64) {}
