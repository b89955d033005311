package seen

import (
	"math"
	"testing"
)

// TestRunBitsSplit checks the split of the runs' filter budget: it is
// spent whole (or each run has the most bits), smaller runs get at
// least as many bits a key as larger ones, and the expected reads of a
// new key are fewer than with the budget spread evenly.
func TestRunBitsSplit(t *testing.T) {
	cases := []struct {
		name   string
		ns     []int64
		budget float64
	}{
		{"plenty", []int64{1000, 2000}, 1e9},
		{"tiered, thin", []int64{12_500_000, 12_500_000, 1_570_000, 1_570_000, 1_570_000, 196_000, 196_000, 196_000}, 16.7e6},
		{"tiered, fair", []int64{1_570_000, 1_570_000, 196_000, 196_000, 196_000}, 20e6},
		{"one run", []int64{5_000_000}, 10e6},
		{"none", nil, 1e6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bits := runBits(c.ns, c.budget)
			var spent, total float64
			all := true
			for i, n := range c.ns {
				spent += bits[i] * float64(n)
				total += float64(n)
				if bits[i] < maxRunBits {
					all = false
				}
				for j, m := range c.ns {
					if m > n && bits[j] > bits[i]+1e-9 {
						t.Errorf("run of %d keys has %.2f bits a key, more than %.2f of a run of %d", m, bits[j], bits[i], n)
					}
				}
			}
			if spent > c.budget*1.0001 {
				t.Errorf("spent %.0f bits of %.0f", spent, c.budget)
			}
			if len(c.ns) > 0 && !all && spent < c.budget*0.97 {
				t.Errorf("spent only %.0f bits of %.0f", spent, c.budget)
			}
			if len(c.ns) < 2 {
				return
			}
			fp := func(b float64) float64 {
				if b <= 0 {
					return 1
				}
				return math.Exp(-b * ln2sq)
			}
			var split, even float64
			for i := range c.ns {
				split += fp(bits[i])
				even += fp(min(c.budget/total, maxRunBits))
			}
			if split > even*1.0001 {
				t.Errorf("expected reads %.3f with the split, %.3f spread evenly", split, even)
			}
		})
	}
}
