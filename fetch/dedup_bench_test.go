package fetch

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// BenchmarkDedupScale is the walk's dedup at scale, without HTTP or XML:
// SITEMAP_BENCH_DEDUP million distinct URLs (default 2), each tenth
// followed by a repeat of an earlier one picked at random (as
// bench/bigsets.sh's site), at the default budget. "batch" is the
// workers' path, batches of batchURLs URL events handed to
// dedupSet.drop; "one" is the path before it, one Add a URL. Reports
// per entry the wall and CPU (getrusage of the process: the benchmark's
// one goroutine and the runtime's) nanoseconds and the bytes written to
// disk (/proc/self/io; Linux).
//
//	SITEMAP_BENCH_DEDUP=100 go test -run X -bench DedupScale -benchtime 1x -timeout 2h ./fetch/
func BenchmarkDedupScale(b *testing.B) {
	m := 2
	if v := os.Getenv("SITEMAP_BENCH_DEDUP"); v != "" {
		var err error
		if m, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	n := m * 1000000
	loc := func(i int) string {
		return "https://www.example.com/products/category-" + strconv.Itoa(i%97) + "/item-" + strconv.Itoa(i) + ".html"
	}
	// each calls f with the entries in order, a batch at a time.
	each := func(f func(locs []string)) {
		rng := rand.New(rand.NewPCG(26, 1))
		locs := make([]string, 0, batchURLs)
		put := func(l string) {
			if locs = append(locs, l); len(locs) == batchURLs {
				f(locs)
				locs = locs[:0]
			}
		}
		for i := range n {
			put(loc(i))
			if (i+1)%10 == 0 {
				put(loc(rng.IntN(i + 1)))
			}
		}
		if len(locs) > 0 {
			f(locs)
		}
	}
	entries := n + n/10
	for _, mode := range []string{"batch", "one"} {
		b.Run(mode, func(b *testing.B) {
			var dups int64
			var written int64
			cpu0 := cpuTime()
			for b.Loop() {
				d := newDedupSet(DefaultDedupMemory, b.TempDir())
				w0 := writeBytes()
				bt := &batch{events: make([]Event, 0, batchURLs), urls: make([]sitemap.URL, batchURLs)}
				dups = 0
				each(func(locs []string) {
					if mode == "one" {
						for _, l := range locs {
							isNew, err := d.set.Add(urlnorm.Key(l))
							if err != nil {
								b.Fatal(err)
							}
							if !isNew {
								dups++
							}
						}
						return
					}
					bt.events = bt.events[:0]
					for i, l := range locs {
						bt.urls[i].Loc = l
						bt.events = append(bt.events, Event{Kind: EventURL, URL: &bt.urls[i]})
					}
					k, err := d.drop(bt)
					if err != nil {
						b.Fatal(err)
					}
					dups += k
				})
				written = writeBytes() - w0
				if err := d.release(); err != nil {
					b.Fatal(err)
				}
			}
			if dups != int64(n/10) {
				b.Fatalf("%d duplicates, want %d", dups, n/10)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*entries), "ns/entry")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*entries), "cpu-ns/entry")
			b.ReportMetric(float64(written)/float64(entries), "written-B/entry")
		})
	}
}

// writeBytes is the write_bytes of /proc/self/io (0 where there is none).
func writeBytes() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}
