package serve_test

import (
	"context"
	"fmt"
	"slices"
	"sync"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/serve"
)

// A program that knows when its entries change (its own writes, a message
// queue) tells the handler the keys it touched: only the pages holding
// them are read again, and Options.Changed hears of the entries that
// changed (what an IndexNow submitter sends).
func ExampleWatched() {
	var mu sync.Mutex
	locs := []string{"https://www.example.com/a"}
	seq := func(yield func(*sitemap.URL, error) bool) {
		mu.Lock()
		now := slices.Clone(locs)
		mu.Unlock()
		for _, l := range now {
			if !yield(&sitemap.URL{Loc: l}, nil) {
				return
			}
		}
	}
	touched := make(chan string)
	src := serve.Watched(serve.Seq(seq, nil), func(ctx context.Context, fn func(serve.Change)) error {
		fn(serve.Change{All: true}) // live: what came before is found by a check of every page
		for {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case loc := <-touched:
				fn(serve.Change{Keys: []serve.Key{loc}})
			}
		}
	})
	told := make(chan []sitemap.URL, 1)
	h, err := serve.NewHandler(src, serve.Options{BaseURL: "https://www.example.com/", Changed: func(urls []sitemap.URL) { told <- urls }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.Refresh(ctx)
	go h.Run(ctx)

	mu.Lock()
	locs = append(locs, "https://www.example.com/b") // the program's write
	mu.Unlock()
	touched <- "https://www.example.com/b" // and its notification
	for _, u := range <-told {
		fmt.Println("changed:", u.Loc)
	}
	fetch(h, "/sitemap-1.xml")
	// Output:
	// changed: https://www.example.com/b
	// /sitemap-1.xml 200 application/xml; charset=utf-8
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://www.example.com/a</loc></url>
	// <url><loc>https://www.example.com/b</loc></url>
	// </urlset>
}
