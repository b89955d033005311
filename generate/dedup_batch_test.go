package generate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// The reader marks repeats a batch at a time (seen.Set.AddBatch): with a
// set small enough to spill to disk many times, repeats within one batch,
// across batch boundaries and of URLs long gone to disk are all counted,
// and every distinct URL is published once.
func TestRunDedupBatches(t *testing.T) {
	var locs []string
	distinct := 0
	for i := range 6 * batchLen {
		switch {
		case i%7 == 3: // the previous URL: often in the same batch
			locs = append(locs, locs[len(locs)-1])
		case i%11 == 5: // one far back, on disk by now
			locs = append(locs, locs[i/3])
		case i%batchLen == 0 && i > 0: // the last of the previous batch
			locs = append(locs, locs[i-1])
		default:
			locs = append(locs, fmt.Sprintf("%sp/%d", base, i))
			distinct++
		}
	}
	o := opts(store.Memory(), nil)
	o.DedupMemory = 4 << 10
	o.Build.TempDir = t.TempDir()
	sum, err := Run(context.Background(), Entries(urls(locs...)), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != distinct || sum.Duplicates != len(locs)-distinct {
		t.Errorf("urls %d dups %d; want %d %d", sum.URLs, sum.Duplicates, distinct, len(locs)-distinct)
	}
}

// A dedup set that cannot write its spill file ends the run with a
// StageDedup error, whichever batch it happens in.
func TestRunDedupSpillError(t *testing.T) {
	var locs []string
	for i := range 4 * batchLen {
		locs = append(locs, fmt.Sprintf("%sp/%d", base, i))
	}
	o := opts(store.Memory(), nil)
	o.DedupMemory = 4 << 10
	o.Build.TempDir = filepath.Join(t.TempDir(), "missing")
	_, err := Run(context.Background(), Entries(urls(locs...)), o)
	var se *StageError
	if !errors.As(err, &se) || se.Stage != StageDedup {
		t.Fatalf("err = %v, want a StageDedup error", err)
	}
}
