//go:build !linux

package prefault

// Heap does nothing where populating is not supported, and returns 0.
func Heap() uintptr { return 0 }
