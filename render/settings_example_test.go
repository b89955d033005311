package render_test

import (
	"context"
	"fmt"
	"time"

	"github.com/sitemapkit/sitemap/render"
)

// Settings without --render start no browser; a bad one is refused
// before any browser starts.
func ExampleSettings_Open() {
	ctx := context.Background()
	r, _, closeBrowser, err := render.Settings{}.Open(ctx, "sitemap")
	defer closeBrowser()
	fmt.Println(r == nil, err)
	_, _, _, err = render.Settings{Render: "auto", Concurrency: 2}.Open(ctx, "sitemap")
	fmt.Println(err)
	_, _, _, err = render.Settings{Render: "some", Concurrency: 2, Wait: time.Second}.Open(ctx, "sitemap")
	fmt.Println(err)
	// Output:
	// true <nil>
	// --render-wait must be more than 0, e.g. 10s
	// --render=some: give --render (every page) or --render=auto
}

// Check refuses what Open would, without starting anything.
func ExampleSettings_Check() {
	fmt.Println(render.Settings{}.Check())
	fmt.Println(render.Settings{Render: "all", Concurrency: 2, Wait: -time.Second}.Check())
	fmt.Println(render.Settings{Render: "auto", Concurrency: 2, Wait: 10 * time.Second}.Check())
	// Output:
	// <nil>
	// --render-wait must be more than 0, e.g. 10s
	// <nil>
}
