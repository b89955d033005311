package seen

import (
	"fmt"
	"testing"
)

func TestParseMemory(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"16MiB", 16 << 20}, {"16mib", 16 << 20}, {"16M", 16 << 20}, {"64 KiB", 64 << 10},
		{"1GiB", 1 << 30}, {"2g", 2 << 30}, {"10MB", 10e6}, {"5kb", 5000}, {"4096", 4096}, {"100B", 100},
		{"", 0}, {"MiB", 0}, {"-1MiB", 0}, {"0", 0}, {"1.5GiB", 0}, {"12TiB", 0}, {"9999999999999GiB", 0},
	} {
		got, err := ParseMemory(c.in)
		if (err != nil) != (c.want == 0) || got != c.want {
			t.Errorf("%q: %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	b := Memory(64 << 20)
	if b.String() != "64MiB" {
		t.Errorf("String() = %s", b.String())
	}
}

func ExampleMemory_Check() {
	var m Memory
	fmt.Println(m.Set("48MiB"), m.String(), m.Check("--dedup-memory", 48<<20))
	fmt.Println(Memory(4096).Check("--dedup-memory", 48<<20))
	// Output:
	// <nil> 48MiB <nil>
	// --dedup-memory 4KiB is too small: below 1MiB the URLs seen go to disk every few thousand and a large input takes many times longer; give at least 1MiB (the default is 48MiB)
}

func ExampleParseMemory() {
	fmt.Println(ParseMemory("16MiB"))
	// Output:
	// 16777216 <nil>
}
