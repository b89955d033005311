package seen

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unsafe"
)

// benchURL appends URL number i of the benchmarks to buf.
func benchURL(buf []byte, i int) []byte {
	buf = append(buf, "https://www.example.com/products/category-"...)
	buf = strconv.AppendInt(buf, int64(i%97), 10)
	buf = append(buf, "/item-"...)
	buf = strconv.AppendInt(buf, int64(i), 10)
	return append(buf, ".html"...)
}

// benchURLs adds n distinct URLs, built in one buffer (no allocation per
// URL), to a set with the given budget, and reports URLs/s and the
// set's memory at the end. With repeats, after every tenth URL it adds
// again an earlier one picked at random (as bench/dedup.sh's input).
// With batch, it adds them batch at a time (AddBatch), as generate does.
func benchURLs(b *testing.B, n int, budget int64, repeats bool, batch int) {
	rnd := rand.New(rand.NewPCG(26, 26))
	var mem, written int64
	arena := make([]byte, 0, 128*max(batch, 1))
	var us []string
	var want, got []bool
	flush := func(s *Set) {
		got = append(got[:0], make([]bool, len(us))...)
		if batch == 0 {
			for j, u := range us {
				var err error
				if got[j], err = s.Add(u); err != nil {
					b.Fatal(err)
				}
			}
		} else if err := s.AddBatch(us, got); err != nil {
			b.Fatal(err)
		}
		for j := range us {
			if got[j] != want[j] {
				b.Fatal(us[j], got[j])
			}
		}
		arena, us, want = arena[:0], us[:0], want[:0]
	}
	add := func(s *Set, i int, isNew bool) {
		start := len(arena)
		arena = benchURL(arena, i)
		us = append(us, unsafe.String(&arena[start], len(arena)-start))
		want = append(want, isNew)
		if len(us) >= max(batch, 1) {
			flush(s)
		}
	}
	for b.Loop() {
		s := New(budget, b.TempDir())
		var r0, m0 int64 // reads and maybes before the last tenth
		for i := range n {
			if i == n*9/10 {
				for _, sh := range s.shards {
					r0 += sh.reads
					m0 += sh.maybes
				}
			}
			add(s, i, true)
			if repeats && i%10 == 9 {
				add(s, rnd.IntN(i+1), false)
			}
		}
		flush(s)
		mem, written = s.Bytes(), s.diskWritten()
		var reads, maybes, probes, refilled, refilledAll int64
		for _, sh := range s.shards {
			reads += sh.reads
			maybes += sh.maybes
			probes += sh.probes
			refilled += sh.refilled
			refilledAll += sh.refilledAll
		}
		b.ReportMetric(float64(refilledAll)/float64(n), "refilledall/key")
		b.ReportMetric(float64(refilled)/float64(n), "refilled/key")
		b.ReportMetric(float64(reads)/float64(n), "reads/key")
		b.ReportMetric(float64(reads-r0)/float64(n/10), "endreads/key")
		b.ReportMetric(float64(maybes-m0)/float64(n/10), "endmaybes/key")
		b.ReportMetric(float64(maybes)/float64(n), "maybes/key")
		b.ReportMetric(float64(probes)/float64(n), "probes/key")
		s.Close()
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "URLs/s") // distinct URLs
	b.ReportMetric(float64(mem)/(1<<20), "MiB")
	b.ReportMetric(float64(written)/float64(16*n), "writes/key")
}

// BenchmarkSet adds 2,000,000 distinct URLs to a set with the default
// budget (all in memory).
func BenchmarkSet(b *testing.B) { benchURLs(b, 2000000, 0, false, 0) }

// BenchmarkSet10M adds 10,000,000 distinct URLs to a set with generate's
// default budget (80 MiB): most go to the disk runs. Run it with
// -benchtime=1x.
func BenchmarkSet10M(b *testing.B) { benchURLs(b, 10000000, 80<<20, false, 0) }

// BenchmarkSet30M adds 30,000,000 distinct URLs to a set with generate's
// default budget: the disk runs hold most of them. Run it with
// -benchtime=1x; it reports the bytes written to the runs per key.
func BenchmarkSet30M(b *testing.B) { benchURLs(b, 30000000, 80<<20, false, 0) }

// BenchmarkScaled10M, 30M and 100M add a twentieth of 10, 30 and 100
// million URLs to a set with a twentieth of generate's budget: the same
// ratio of URLs to memory, so the same filters and runs, in a twentieth of
// the time. They report the runs read a key (reads/key) and the keys the
// filter of all keys passed on (maybes/key), over the whole run and over
// its last tenth (end…), the runs' filters those probed (probes/key), and
// the keys read back from the runs to make
// filters again (refilled/key: a run's filter shrunk to its share;
// refilledall/key: the filter of all keys). Run them with -benchtime=1x.
func BenchmarkScaled10M(b *testing.B)  { benchURLs(b, 500000, 80<<20/20, false, 0) }
func BenchmarkScaled30M(b *testing.B)  { benchURLs(b, 1500000, 80<<20/20, false, 0) }
func BenchmarkScaled100M(b *testing.B) { benchURLs(b, 5000000, 80<<20/20, false, 0) }

// BenchmarkRepeats10M and 100M are BenchmarkScaled10M and 100M with 10 %
// repeats, as bench/dedup.sh's input: after every tenth URL, an earlier
// one picked at random (most are then on disk, and each costs a read of
// the run that holds it).
func BenchmarkRepeats10M(b *testing.B)  { benchURLs(b, 500000, 80<<20/20, true, 0) }
func BenchmarkRepeats100M(b *testing.B) { benchURLs(b, 5000000, 80<<20/20, true, 0) }

// BenchmarkBatch10M and 100M are BenchmarkRepeats10M and 100M adding
// 512 URLs at a time (AddBatch), as generate does.
func BenchmarkBatch10M(b *testing.B)  { benchURLs(b, 500000, 80<<20/20, true, 512) }
func BenchmarkBatch100M(b *testing.B) { benchURLs(b, 5000000, 80<<20/20, true, 512) }
