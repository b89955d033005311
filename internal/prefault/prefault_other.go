//go:build !linux

package prefault

// Populated is zero where populating is not supported.
var Populated uintptr
