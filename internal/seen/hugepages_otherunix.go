//go:build unix && !linux

package seen

func hugePages([]byte) {}
