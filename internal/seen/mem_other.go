//go:build !unix

package seen

func allocWords(n int) []uint64 { return make([]uint64, n) }

func freeWords([]uint64) {}
