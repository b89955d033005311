//go:build !unix

package fetch

func allocSlots(n int) []uint64 { return make([]uint64, n) }

func freeSlots([]uint64) {}
