package state

// Open file description locks (F_OFD_*, Linux 3.15): owned by the open
// file, not the process, so two descriptors of one process exclude each
// other, and closing another descriptor of the file leaves them be. The
// values are the same on every Linux architecture.
const (
	fOFDGetlk = 36
	fOFDSetlk = 37
)

func rangeCmd(get bool) int {
	if get {
		return fOFDGetlk
	}
	return fOFDSetlk
}
