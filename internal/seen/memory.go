package seen

import (
	"fmt"
	"strconv"
	"strings"
)

// Memory is a memory budget in bytes as people write it (--dedup-memory):
// a number with an optional unit, B, KiB, MiB, GiB (powers of 1024; K, M,
// G and k, m, g too) or KB, MB, GB (powers of 1000). It is a command-line
// flag value: Set parses, String writes the largest whole binary unit.
type Memory int64

var memoryUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
	{"b", 1},
}

// ParseMemory parses a Memory written as people write it ("16MiB"); an
// error says what to write instead.
func ParseMemory(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range memoryUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size; write a positive number with an optional unit, like 16MiB or 1GiB", s)
	}
	return n * mult, nil
}

// Set sets m from s (ParseMemory).
func (m *Memory) Set(s string) error {
	n, err := ParseMemory(s)
	if err != nil {
		return err
	}
	*m = Memory(n)
	return nil
}

// String writes m in its largest whole binary unit ("64MiB"), else in
// bytes.
func (m *Memory) String() string {
	n := int64(*m)
	switch {
	case n > 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}

// Type names the flag value's type in a command's help.
func (m *Memory) Type() string { return "size" }

// Check refuses a budget below MinMemory (0, the default def, is fine):
// the locs seen would spill to disk every few thousand, and a large input
// would take many times longer. The error names the flag.
func (m Memory) Check(flag string, def int64) error {
	if m > 0 && int64(m) < MinMemory {
		min, d := Memory(MinMemory), Memory(def)
		return fmt.Errorf("%s %s is too small: below %s the URLs seen go to disk every few thousand and a large input takes many times longer; give at least %s (the default is %s)", flag, &m, &min, &min, &d)
	}
	return nil
}
