package render_test

import (
	"context"
	"fmt"
	"log"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/render"
	"github.com/sitemapkit/sitemap/state"
)

// A crawl that reads every HTML page as a browser renders it.
func ExampleNew() {
	ctx := context.Background()
	browser, err := render.New(ctx, render.Options{Concurrency: 4})
	if err != nil {
		log.Fatal(err) // no Chromium: the message says how to install one
	}
	defer browser.Close() // every browser process ends here
	st, err := state.OpenSQLite(ctx, "crawl.db", state.SQLiteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	c, err := crawl.New(ctx, st, st.Crawl(), "https://www.example.com/", crawl.Options{Render: browser, RenderMode: crawl.RenderAuto})
	if err != nil {
		log.Fatal(err)
	}
	sum, err := c.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Render.Rendered, "pages rendered,", sum.Render.JSLinks, "with links only after rendering")
}

// One page, rendered.
func ExampleChromium_Render() {
	ctx := context.Background()
	browser, err := render.New(ctx, render.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	page, err := browser.Render(ctx, "https://www.example.com/app/")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.HTML), "bytes rendered;", len(page.ConsoleErrors), "console errors")
}

// Find says which browser --render would run, or how to install one.
func ExampleFind() {
	path, err := render.Find("")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rendering with", path)
}
