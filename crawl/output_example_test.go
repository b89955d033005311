package crawl_test

import (
	"fmt"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/state"
)

func ExampleOptions_Ignore() {
	var o crawl.Options
	fmt.Println(o.Ignore([]string{"robots", "nofollow"}), o.IgnoreRobots, o.IgnoreNofollow, o.IgnoreNoindex)
	fmt.Println(o.Ignore([]string{"cookies"}))
	// Output:
	// <nil> true true false
	// "cookies": want robots, noindex, canonical or nofollow
}

func ExampleSummary_WriteText() {
	sum := crawl.Summary{Start: "https://www.example.com/", Fetched: 12, Listed: 9,
		Reasons: map[string]int{"noindex": 2, "status:404": 1}, Limits: []string{"max-pages"}, Elapsed: 3 * time.Second}
	sum.WriteText(os.Stdout)
	fmt.Println(sum.Failed(), "failed")
	// Output:
	// crawled https://www.example.com/: 12 pages fetched in 3s; 9 listed, 3 left out
	//   noindex                    2
	//   status:404                 1
	// sitemap: limit reached: --max-pages; URLs beyond it were not crawled (reason "limit:max-pages")
	// 1 failed
}

func ExampleSummary_Failed() {
	sum := crawl.Summary{Reasons: map[string]int{"error": 2, "status:500": 1, "robots": 4}}
	fmt.Println(sum.Failed())
	// Output:
	// 3
}

func ExampleWriteStatus() {
	t := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	crawl.WriteStatus(os.Stdout, state.CrawlStatus{Start: "https://www.example.com/", State: "running", Seeded: true, Time: t,
		Now: t.Add(time.Minute), Pending: 40, Leased: 8, Decided: 60, Fetched: 55}, "postgres://crawler@db/crawl")
	// Output:
	// crawl of https://www.example.com/: running, started 2026-11-27T10:00:00Z (1m0s ago)
	// frontier:    40 URLs pending (8 leased to live workers)
	// done:        60 URLs decided, 55 pages fetched
	// pages/s:     0.0 (last 10s)
	// workers:     0 alive of 0
}

func ExampleWriteStatusJSON() {
	crawl.WriteStatusJSON(os.Stdout, state.CrawlStatus{State: "finished", Pending: 0, Decided: 3, Fetched: 3})
	// Output:
	// {
	//   "start": "",
	//   "state": "finished",
	//   "seeded": false,
	//   "time": "0001-01-01T00:00:00Z",
	//   "pending": 0,
	//   "leased": 0,
	//   "decided": 3,
	//   "fetched": 3,
	//   "pages_per_second": 0,
	//   "workers_alive": 0,
	//   "workers": [],
	//   "now": "0001-01-01T00:00:00Z"
	// }
}

// What sitemap crawl --json prints when nothing was published.
func ExampleSummary_WriteJSON() {
	sum := crawl.Summary{Start: "https://www.example.com/", Fetched: 1, Reasons: map[string]int{"noindex": 1}}
	sum.WriteJSON(os.Stdout, nil)
	// Output:
	// {
	//   "crawl": {
	//     "start": "https://www.example.com/",
	//     "fetched": 1,
	//     "listed": 0,
	//     "reasons": {
	//       "noindex": 1
	//     },
	//     "elapsed_ns": 0
	//   }
	// }
}
