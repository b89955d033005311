package seen

import (
	"strconv"
	"testing"
	"unsafe"
)

// benchURLs adds n distinct URLs, built in one buffer (no allocation per
// URL), to a set with the given budget, and reports URLs/s and the
// set's memory at the end.
func benchURLs(b *testing.B, n int, budget int64) {
	buf := make([]byte, 0, 128)
	var mem, written int64
	for b.Loop() {
		s := New(budget, b.TempDir())
		for i := range n {
			buf = append(buf[:0], "https://www.example.com/products/category-"...)
			buf = strconv.AppendInt(buf, int64(i%97), 10)
			buf = append(buf, "/item-"...)
			buf = strconv.AppendInt(buf, int64(i), 10)
			buf = append(buf, ".html"...)
			if isNew, err := s.Add(unsafe.String(&buf[0], len(buf))); err != nil || !isNew {
				b.Fatal(i, isNew, err)
			}
		}
		mem, written = s.Bytes(), s.diskWritten()
		s.Close()
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "URLs/s")
	b.ReportMetric(float64(mem)/(1<<20), "MiB")
	b.ReportMetric(float64(written)/float64(16*n), "writes/key")
}

// BenchmarkSet adds 2,000,000 distinct URLs to a set with the default
// budget (all in memory).
func BenchmarkSet(b *testing.B) { benchURLs(b, 2000000, 0) }

// BenchmarkSet10M adds 10,000,000 distinct URLs to a set with generate's
// default budget (48 MiB): most go to the disk run. Run it with
// -benchtime=1x.
func BenchmarkSet10M(b *testing.B) { benchURLs(b, 10000000, 48<<20) }

// BenchmarkSet30M adds 30,000,000 distinct URLs to a set with generate's
// default budget: the disk runs hold most of them. Run it with
// -benchtime=1x; it reports the bytes written to the runs per key.
func BenchmarkSet30M(b *testing.B) { benchURLs(b, 30000000, 48<<20) }
