package seen

import "math"

// The runs' filters share their budget so that a new key reads as few
// runs as possible: a filter's false "maybe" rate falls by a factor of
// about e^(ln²2) = 1.62 per bit a key, and a run's filter costs bits in
// proportion to the run's keys, so the best split gives each run a false
// rate in proportion to its size (Dayan, Athanassoulis and Idreos,
// "Monkey", SIGMOD 2017): small recent runs get many bits a key, the
// largest few or none. With one budget spread evenly, as before, every
// run's filter thinned out together past tens of millions of URLs, and a
// new URL read nearly every run.

// ln2sq is ln² 2: a Bloom filter with b bits a key (and the best number
// of bits set) says a false "maybe" about e^(-b·ln² 2) of the time.
const ln2sq = math.Ln2 * math.Ln2

// maxRunBits is the most bits a key a run's filter gets: past it a false
// "maybe" (1 in 180) costs less than the memory.
const maxRunBits = 11

// minRunBits is the fewest bits a key worth a filter: below it a filter
// (at least one bit set a key) turns away too few keys for its memory,
// and the run is read whenever the filter of all keys says "maybe".
const minRunBits = 0.5

// runBits returns the bits a key the filter of a run of each size in ns
// gets for the filters to take at most budget bits together, splitting
// it as above: b = -(x + ln n)/ln² 2, clamped to [0, maxRunBits], with x
// found by bisection so the bits add up to the budget (0 below
// minRunBits).
func runBits(ns []int64, budget float64) []float64 {
	bits := make([]float64, len(ns))
	at := func(x float64) float64 {
		var sum float64
		for i, n := range ns {
			b := 0.0
			if n > 0 {
				b = min(max(-(x+math.Log(float64(n)))/ln2sq, 0), maxRunBits)
			}
			if b < minRunBits {
				b = 0
			}
			bits[i] = b
			sum += b * float64(n)
		}
		return sum
	}
	// Σ bits grows as x falls: lo gives every run maxRunBits, hi none.
	lo, hi := -60.0, 0.0
	if at(lo) <= budget {
		return bits
	}
	for range 60 {
		mid := (lo + hi) / 2
		if at(mid) > budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	at(hi)
	return bits
}

// blocksFor is the filter blocks of a run of n keys at bits bits a key
// (0: no filter).
func blocksFor(n int64, bits float64) uint64 {
	if bits <= 0 || n <= 0 {
		return 0
	}
	return max(uint64(float64(n)*bits/256), 1)
}
