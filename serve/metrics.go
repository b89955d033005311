package serve

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync/atomic"
	"time"
)

// buildBuckets are the upper bounds (seconds) of the page build time
// histogram.
var buildBuckets = [...]float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.4, 0.75, 1, 2.5, 5, 10}

// Metrics counts what a Handler did. Its fields are updated atomically;
// read them through [Handler.WriteMetrics].
type Metrics struct {
	pages, indexes, notModified, errors, skipped atomic.Int64
	bytes                                        atomic.Int64
	refreshes, refreshNanos                      atomic.Int64
	buildCount, buildNanos                       atomic.Int64
	buildBucket                                  [len(buildBuckets)]atomic.Int64
	nmCount, nmNanos                             atomic.Int64
}

func (m *Metrics) observeBuild(d time.Duration) {
	m.buildCount.Add(1)
	m.buildNanos.Add(int64(d))
	for i, b := range buildBuckets {
		if d.Seconds() <= b {
			m.buildBucket[i].Add(1)
		}
	}
}

func (m *Metrics) observe304(d time.Duration) {
	m.nmCount.Add(1)
	m.nmNanos.Add(int64(d))
}

// WriteMetrics writes the handler's counters in the Prometheus text
// exposition format (version 0.0.4): documents served by kind, bytes
// sent, 304s, errors, entries skipped, refreshes of the pages, the page
// build time as a histogram, and the number of pages.
func (h *Handler) WriteMetrics(w io.Writer) error {
	m := &h.stats
	npages := h.Pages()
	counter := func(name, help string, v int64, labels string) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s%s %d\n", name, help, name, name, labels, v)
	}
	fmt.Fprintf(w, "# HELP sitemap_serve_documents_total Documents sent whole, by kind.\n# TYPE sitemap_serve_documents_total counter\n")
	fmt.Fprintf(w, "sitemap_serve_documents_total{kind=\"page\"} %d\nsitemap_serve_documents_total{kind=\"index\"} %d\n", m.pages.Load(), m.indexes.Load())
	counter("sitemap_serve_bytes_total", "Bytes of documents sent (after compression).", m.bytes.Load(), "")
	counter("sitemap_serve_not_modified_total", "Requests answered 304 Not Modified.", m.notModified.Load(), "")
	counter("sitemap_serve_errors_total", "Checks and requests that failed on the source.", m.errors.Load(), "")
	counter("sitemap_serve_skipped_entries_total", "Entries the encoder refused and left out of their page.", m.skipped.Load(), "")
	counter("sitemap_serve_refreshes_total", "Checks of the pages against the source (after a change, or every Recheck).", m.refreshes.Load(), "")
	fmt.Fprintf(w, "# HELP sitemap_serve_refresh_seconds_total Time spent checking and rebuilding the pages.\n# TYPE sitemap_serve_refresh_seconds_total counter\nsitemap_serve_refresh_seconds_total %g\n",
		time.Duration(m.refreshNanos.Load()).Seconds())
	fmt.Fprintf(w, "# HELP sitemap_serve_page_build_seconds Time to compress and keep one page whose bytes changed.\n# TYPE sitemap_serve_page_build_seconds histogram\n")
	for i, b := range buildBuckets {
		fmt.Fprintf(w, "sitemap_serve_page_build_seconds_bucket{le=\"%g\"} %d\n", b, m.buildBucket[i].Load())
	}
	n := m.buildCount.Load()
	fmt.Fprintf(w, "sitemap_serve_page_build_seconds_bucket{le=\"+Inf\"} %d\nsitemap_serve_page_build_seconds_sum %g\nsitemap_serve_page_build_seconds_count %d\n",
		n, time.Duration(m.buildNanos.Load()).Seconds(), n)
	fmt.Fprintf(w, "# HELP sitemap_serve_not_modified_seconds_total Time spent answering 304s.\n# TYPE sitemap_serve_not_modified_seconds_total counter\nsitemap_serve_not_modified_seconds_total %g\n",
		time.Duration(m.nmNanos.Load()).Seconds())
	_, err := fmt.Fprintf(w, "# HELP sitemap_serve_pages Pages the index lists.\n# TYPE sitemap_serve_pages gauge\nsitemap_serve_pages %d\n", npages)
	return err
}

// MetricsHandler serves [Handler.WriteMetrics] at any path, for /metrics.
func (h *Handler) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		h.WriteMetrics(w)
	})
}

// Pages returns the number of pages the index lists, as last built (0
// before the first request, Refresh or Run); without BaseURL, the most
// of any host's.
func (h *Handler) Pages() int {
	n := 0
	for _, st := range h.allSites() {
		if s := st.snap.Load(); s != nil {
			c := 0
			for _, p := range s.pages {
				if p.count() > 0 {
					c++
				}
			}
			n = max(n, c)
		}
	}
	return n
}

// sortedCounts returns the keys of m in order and their counts, for a
// metric written label by label.
func sortedCounts[K cmp.Ordered](m map[K]int64) ([]K, []int64) {
	keys := slices.Sorted(maps.Keys(m))
	counts := make([]int64, len(keys))
	for i, k := range keys {
		counts[i] = m[k]
	}
	return keys, counts
}
