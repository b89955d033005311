//go:build unix && !linux

package fetch

func hugePages([]byte) {}
