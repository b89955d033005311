package build

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

// benchURLs returns n plain entries with ~50-byte locs, built once.
func benchURLs(n int) []sitemap.URL {
	us := make([]sitemap.URL, n)
	for i := range us {
		us[i].Loc = "https://www.example.com/products/item-" + strconv.Itoa(10000000+i)
	}
	return us
}

// BenchmarkBuild1M builds 1,000,000 plain URLs (loc only, ~50 bytes) into
// 20 gzip-compressed sitemaps and an index in a temporary directory, end to
// end (encode, spill, gzip, fsync, publish), and reports URLs/s.
func BenchmarkBuild1M(b *testing.B) {
	for _, bc := range []struct {
		name  string
		level int
		gzip  bool
	}{
		{"gzip-default", 0, true},
		{"gzip-6", 6, true},
		{"plain", 0, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 1_000_000
			urls := benchURLs(n)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				ds, err := store.Dir(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				bl, err := New(ds, Options{BaseURL: "https://www.example.com/", Gzip: bc.gzip, GzipLevel: bc.level, TempDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				for i := range urls {
					if err := bl.Add(ctx, &urls[i]); err != nil {
						b.Fatal(err)
					}
				}
				sum, err := bl.Commit(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if sum.URLs != n {
					b.Fatalf("%d URLs", sum.URLs)
				}
				b.ReportMetric(float64(sum.CompressedBytes)/float64(max(sum.Bytes, 1)), "ratio")
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}

// BenchmarkBuildStream builds n generated URLs (never held in memory, so
// the process's peak RSS is the builder's) with the default options and
// gzip, and reports URLs/s and the peak RSS of the process in MB. Run the
// sizes in separate processes to compare peaks:
//
//	go test -run '^$' -bench 'BuildStream/1M' ./build/
//	BUILD_BENCH_10M=1 go test -run '^$' -bench 'BuildStream/10M' ./build/
func BenchmarkBuildStream(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n/1_000_000)+"M", func(b *testing.B) {
			if n > 1_000_000 && os.Getenv("BUILD_BENCH_10M") != "1" {
				b.Skip("set BUILD_BENCH_10M=1")
			}
			ctx := context.Background()
			// The Add path runs on this goroutine, locked to its thread so
			// its CPU time can be told apart from the compose goroutine's:
			// on a loaded machine wall time says little, CPU time per URL
			// still does.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var commit time.Duration
			t0, okT := threadCPU()
			p0, okP := processCPU()
			for range b.N {
				ds, err := store.Dir(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				bl, err := New(ds, Options{BaseURL: "https://www.example.com/", Gzip: true, TempDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				var u sitemap.URL
				buf := []byte("https://www.example.com/products/item-")
				pre := len(buf)
				for i := range n {
					buf = strconv.AppendInt(buf[:pre], int64(10000000+i), 10)
					u.Loc = string(buf)
					if err := bl.Add(ctx, &u); err != nil {
						b.Fatal(err)
					}
				}
				c0 := time.Now()
				if _, err := bl.Commit(ctx); err != nil {
					b.Fatal(err)
				}
				commit += time.Since(c0)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
			b.ReportMetric(float64(commit.Milliseconds())/float64(b.N), "commit-ms")
			if t1, ok := threadCPU(); ok && okT {
				b.ReportMetric((t1-t0)*1e9/float64(n*b.N), "add-cpu-ns/URL")
			}
			if p1, ok := processCPU(); ok && okP {
				b.ReportMetric((p1-p0)*1e9/float64(n*b.N), "total-cpu-ns/URL")
			}
			if mb, ok := peakRSSMB(); ok {
				b.ReportMetric(mb, "peak-RSS-MB")
			}
		})
	}
}
