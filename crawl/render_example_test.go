package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/sitemapkit/sitemap/crawl"
)

func ExampleLooksLikeAppShell() {
	shell := `<!doctype html><html><head><script src="/app.js" defer></script></head><body><div id="root"></div></body></html>`
	page := `<!doctype html><html><body><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a><p>Text.</p></body></html>`
	fmt.Println(crawl.LooksLikeAppShell([]byte(shell), 0), crawl.LooksLikeAppShell([]byte(page), 0))
	// Output: true false
}

// staticRenderer is a Renderer of a Go program's own: here, one that
// "renders" every page into the same document.
type staticRenderer string

func (s staticRenderer) Render(ctx context.Context, pageURL string) (crawl.Rendered, error) {
	return crawl.Rendered{HTML: []byte(s), ConsoleErrors: []string{"TypeError: x is undefined"}}, nil
}

func ExampleRenderPage() {
	header := http.Header{"Content-Type": {"text/html"}}
	raw, _ := crawl.ReadPage(strings.NewReader(`<html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`),
		header, "https://www.example.com/shop", "sitemap-crawl", 0)
	r := staticRenderer(`<html><head><title>Shop</title><meta name="robots" content="noindex"></head><body><a href="/shop/1">One</a></body></html>`)
	p, facts, err := crawl.RenderPage(context.Background(), r, raw, header, "https://www.example.com/shop", "sitemap-crawl", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(raw.AppShell(), p.NoindexMeta, facts.Noindex, facts.JSLinks, facts.JSLink, facts.ConsoleErrors)
	// Output: true true added 1 https://www.example.com/shop/1 1
}
