package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCrawl crawls a 500-page site on 127.0.0.1 (each page links to
// five others, a redirect and a 404) with no rate limit: the crawler's own
// cost per page (HTTP, tokenizing, SQLite frontier and state).
func BenchmarkCrawl(b *testing.B) {
	const n = 500
	text := strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>", 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/" || strings.HasPrefix(p, "/p/"):
			i, _ := strconv.Atoi(strings.TrimPrefix(p, "/p/"))
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<html><head><title>%d</title></head><body>%s", i, text)
			for _, j := range []int{2*i + 1, 2*i + 2, (i*7 + 3) % n, (i*13 + 5) % n, (i + n/2) % n} {
				if j < n {
					fmt.Fprintf(w, `<a href="/p/%d">%d</a>`, j, j)
				}
			}
			fmt.Fprintf(w, `<a href="/r/%d">r</a><a href="/missing/%d">m</a><img src="/i/%d.jpg"></body></html>`, (i*11+1)%n, i, i)
		case strings.HasPrefix(p, "/r/"):
			http.Redirect(w, r, "/p/"+p[3:], http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	b.ResetTimer()
	pages := 0
	for range b.N {
		c, st, err := openCrawler(context.Background(), filepath.Join(b.TempDir(), "s.db"), srv.URL+"/", Options{Rate: -1, Concurrency: 4})
		if err != nil {
			b.Fatal(err)
		}
		sum, err := c.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		pages += sum.Fetched
		st.Close()
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
}
