package seen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// AddBatch against a map, on random URLs with repeats planted at random
// distances (within the same batch, a few URLs back, anywhere in the
// past), in batches of random sizes, with budgets from one that spills
// every few hundred keys to one that never spills: every answer is the
// map's, taken in input order (a URL twice in one batch is new at its
// first place only).
func TestAddBatchDifferential(t *testing.T) {
	for _, tc := range []struct {
		seed   uint64
		budget int64
		n      int
	}{{1, 32 << 10, 60000}, {2, 256 << 10, 60000}, {3, 1 << 20, 80000}, {4, 0, 20000}} {
		t.Run(strconv.FormatInt(tc.budget, 10), func(t *testing.T) {
			s := New(tc.budget, t.TempDir())
			defer s.Close()
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			ref := map[string]bool{}
			var hist []string
			for done := 0; done < tc.n; {
				us := make([]string, 1+rng.IntN(700))
				for i := range us {
					switch r := rng.IntN(100); {
					case r < 8 && len(hist) > 0:
						us[i] = hist[rng.IntN(len(hist))]
					case r < 12 && i > 0:
						us[i] = us[rng.IntN(i)] // within the batch
					case r < 15 && len(hist) > 0:
						us[i] = hist[max(0, len(hist)-1-rng.IntN(50))]
					default:
						us[i] = "https://e.com/" + strconv.FormatUint(rng.Uint64()%(1<<40), 36)
						hist = append(hist, us[i])
					}
				}
				got := make([]bool, len(us))
				if err := s.AddBatch(us, got); err != nil {
					t.Fatal(err)
				}
				for i, u := range us {
					if got[i] != !ref[u] {
						t.Fatalf("URL #%d %s: new=%v, want %v", done+i, u, got[i], !ref[u])
					}
					ref[u] = true
				}
				done += len(us)
			}
			if tc.budget > 0 && s.DiskEntries() == 0 {
				t.Fatal("nothing spilled")
			}
			if err := s.AddBatch([]string{"a", "b"}, make([]bool, 1)); err == nil {
				t.Fatal("AddBatch took fewer answers than URLs")
			}
		})
	}
}

func ExampleSet_AddBatch() {
	s := New(0, "")
	defer s.Close()
	us := []string{"https://example.com/a", "https://example.com/b", "https://example.com/a"}
	isNew := make([]bool, len(us))
	if err := s.AddBatch(us, isNew); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(isNew)
	// Output: [true true false]
}
