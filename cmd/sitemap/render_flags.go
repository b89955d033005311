package main

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/render"
)

// renderFlags are the flags of rendering pages in headless Chromium,
// shared by crawl and audit.
type renderFlags struct {
	Render      string
	Concurrency int
	Wait        time.Duration
	Browser     string
}

func (r *renderFlags) register(f *pflag.FlagSet) {
	f.StringVar(&r.Render, "render", "", "read pages as headless Chromium renders them (=auto: app shells only)")
	f.Lookup("render").NoOptDefVal = "all"
	f.IntVar(&r.Concurrency, "render-concurrency", 2, "browser tabs rendering at once")
	f.DurationVar(&r.Wait, "render-wait", 10*time.Second, "longest a rendered page may take to settle")
	f.StringVar(&r.Browser, "browser", "", "Chromium executable (default: chromium or google-chrome on $PATH)")
}

// open starts the browser when --render is given: the renderer, its mode
// and the func that ends it (and every process of it). Without --render
// all three are zero and close does nothing.
func (r *renderFlags) open(ctx context.Context, userAgent string) (crawl.Renderer, crawl.RenderMode, func(), error) {
	none := func() {}
	var mode crawl.RenderMode
	switch r.Render {
	case "":
		return nil, mode, none, nil
	case "all":
	case "auto":
		mode = crawl.RenderAuto
	default:
		return nil, mode, none, cannotRun("--render=%s: give --render (every page) or --render=auto", r.Render)
	}
	if r.Concurrency < 1 {
		return nil, mode, none, cannotRun("--render-concurrency must be at least 1")
	}
	if r.Wait <= 0 {
		return nil, mode, none, cannotRun("--render-wait must be more than 0, e.g. 10s")
	}
	c, err := render.New(ctx, render.Options{Browser: r.Browser, Concurrency: r.Concurrency, Wait: r.Wait, UserAgent: userAgent})
	if err != nil {
		return nil, mode, none, cannotRun("--render: %v", err)
	}
	return c, mode, func() { c.Close() }, nil
}
