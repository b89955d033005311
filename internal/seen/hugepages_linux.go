package seen

import "syscall"

// hugePages asks for transparent huge pages on a large table: random
// probes into tens of megabytes then miss the TLB far less often.
func hugePages(b []byte) {
	if len(b) >= 4<<20 {
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	}
}
