package seen

import (
	"strconv"
	"testing"
)

// BenchmarkHashSet adds 2,000,000 distinct URLs to a fresh dedup set (the
// table grows from 64 Ki slots to 4 Mi).
func BenchmarkHashSet(b *testing.B) {
	urls := make([]string, 2000000)
	for i := range urls {
		urls[i] = "https://www.example.com/products/category-" + strconv.Itoa(i%97) + "/item-" + strconv.Itoa(i) + ".html"
	}
	b.ResetTimer()
	for b.Loop() {
		h := newHashSet()
		for _, u := range urls {
			h.add(u)
		}
		h.release()
	}
	b.ReportMetric(float64(b.N*len(urls))/b.Elapsed().Seconds(), "URLs/s")
}
