package extsort

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// rec is a record of the tests: a key of a few letters (many equal keys)
// and its position in the input, so stability shows.
func rec(key string, i int) []byte { return []byte(key + "\x00" + strconv.Itoa(i)) }

func cmpKey(a, b []byte) int {
	ka, _, _ := bytes.Cut(a, []byte{0})
	kb, _, _ := bytes.Cut(b, []byte{0})
	return bytes.Compare(ka, kb)
}

// readAll reads r to its end.
func readAll(t *testing.T, r *Reader) [][]byte {
	t.Helper()
	var out [][]byte
	for {
		b, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices.Clone(b))
	}
}

// The sort against slices.SortStableFunc on random records, in memory,
// with one merge, and with several passes: the same records in the same
// order, each written at most 1 + passes times, and no file in Dir while
// it runs or after.
func TestSortModel(t *testing.T) {
	for _, tc := range []struct {
		name           string
		n, memory, fan int
		maxWrites      float64 // of the records' bytes on disk
	}{
		{"memory", 2000, 1 << 20, 4, 0},
		{"one merge", 5000, 8 << 10, 64, 1},
		{"three merge passes", 8000, 2 << 10, 4, 4},
		{"fan-in 2", 3000, 2 << 10, 2, 7},
		{"empty", 0, 1 << 10, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(tc.n), 1))
			s := New(Options{Dir: dir, Memory: tc.memory, FanIn: tc.fan}, cmpKey)
			defer s.Close()
			var want [][]byte
			var size int64
			for i := range tc.n {
				r := rec(strconv.FormatUint(rng.Uint64N(500), 36), i)
				want = append(want, r)
				size += int64(len(r) + 1)
				if err := s.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			slices.SortStableFunc(want, cmpKey)
			r, err := s.Sort(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d files seen in Dir while sorting", len(left))
			}
			got := readAll(t, r)
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("record %d = %q, want %q", i, got[i], want[i])
				}
			}
			if w := float64(s.BytesWritten()); w > tc.maxWrites*float64(size) {
				t.Errorf("%.0f bytes written for %d bytes of records, want at most %.0f times", w, size, tc.maxWrites)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d files left in Dir", len(left))
			}
		})
	}
}

// A cancelled context stops a merge pass with its error; Close then
// releases every run.
func TestSortCancelled(t *testing.T) {
	s := New(Options{Dir: t.TempDir(), Memory: 1 << 10, FanIn: 2}, bytes.Compare)
	for i := range 20000 {
		if err := s.Add([]byte(strconv.Itoa(i * 7919 % 20000))); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Sort(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Add([]byte("x")); err == nil {
		t.Fatal("Add after Sort accepted")
	}
}

// A Dir that does not exist: the first run cannot be written, and Add
// says so.
func TestSortDirMissing(t *testing.T) {
	s := New(Options{Dir: t.TempDir() + "/missing", Records: 2}, bytes.Compare)
	defer s.Close()
	s.Add([]byte("a"))
	if err := s.Add([]byte("b")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err %v, want a missing-directory error", err)
	}
}

func Example() {
	s := New(Options{Records: 2, FanIn: 2}, bytes.Compare)
	defer s.Close()
	for _, w := range []string{"pear", "apple", "fig", "kiwi", "date"} {
		if err := s.Add([]byte(w)); err != nil {
			panic(err)
		}
	}
	r, err := s.Sort(context.Background())
	if err != nil {
		panic(err)
	}
	for {
		b, err := r.Next()
		if err != nil {
			break
		}
		fmt.Println(string(b))
	}
	// Output:
	// apple
	// date
	// fig
	// kiwi
	// pear
}

// BenchmarkSort sorts 2,000,000 records of 60 bytes with 16 MiB of
// memory (eight runs, one merge) and reports records/s and the bytes
// written per byte of records.
func BenchmarkSort(b *testing.B) {
	const n = 2000000
	var written int64
	buf := make([]byte, 0, 64)
	for b.Loop() {
		s := New(Options{Dir: b.TempDir()}, bytes.Compare)
		for i := range n {
			buf = append(buf[:0], "https://www.example.com/products/item-"...)
			buf = strconv.AppendUint(buf, uint64(i)*0x9e3779b97f4a7c15%1000000007, 10)
			if err := s.Add(buf); err != nil {
				b.Fatal(err)
			}
		}
		r, err := s.Sort(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
		written = s.BytesWritten()
		s.Close()
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(written)/float64(n), "bytes-written/record")
}

// Past FanIn runs, the pass before the last merge merges only as many
// runs as it must, the last ones: with FanIn+1 runs, two of them. The
// records have no common beginning worth sharing, so the bytes written
// count the records written: the runs once, plus the two runs merged
// (about 2/9 more), where merging every run would write all twice. The
// output is the stable sort whatever the number of runs.
func TestSortFewestMerged(t *testing.T) {
	const fan, per = 8, 100
	for _, runs := range []int{fan + 1, 2*fan - 1, 3 * fan, fan * fan} {
		t.Run(strconv.Itoa(runs), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(runs), 2))
			s := New(Options{Dir: t.TempDir(), Records: per, FanIn: fan}, cmpKey)
			defer s.Close()
			var want [][]byte
			var size int64
			for i := range runs * per {
				r := rec(strconv.FormatUint(rng.Uint64N(1<<40), 36), i)
				want = append(want, r)
				size += int64(len(r) + 2)
				if err := s.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			slices.SortStableFunc(want, cmpKey)
			r, err := s.Sort(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, r); !slices.EqualFunc(got, want, bytes.Equal) {
				t.Fatal("not the stable sort")
			}
			// Runs beyond fan: each merge of g runs removes g−1.
			merged := runs - fan + (runs-fan+fan-2)/(fan-1)
			limit := float64(size) * (1 + float64(merged)/float64(runs)) * 1.02
			if w := float64(s.BytesWritten()); w > limit || w < limit*0.85 {
				t.Errorf("%.0f bytes written for %d bytes of records in %d runs; want about %.0f (%d runs merged again)", w, size, runs, limit, merged)
			}
		})
	}
}

// Records that share their beginnings (sorted URLs) take on disk little
// more than what they do not share, and read back whole.
func TestSortSharedBeginnings(t *testing.T) {
	s := New(Options{Dir: t.TempDir(), Records: 1000, FanIn: 4}, bytes.Compare)
	defer s.Close()
	var want [][]byte
	var size int64
	for i := range 20000 {
		r := []byte("https://www.example.com/products/category-" + strconv.Itoa(i%7) + "/item-" + strconv.Itoa(i*7919%20000) + ".html")
		want = append(want, r)
		size += int64(len(r))
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(want, bytes.Compare)
	r, err := s.Sort(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); !slices.EqualFunc(got, want, bytes.Equal) {
		t.Fatal("not the sort")
	}
	// 20 runs, two passes at fan-in 4: three writes of each record, each
	// about 10 bytes of its 60.
	if w := s.BytesWritten(); w > size/2 {
		t.Errorf("%d bytes written for %d bytes of records", w, size)
	}
}
