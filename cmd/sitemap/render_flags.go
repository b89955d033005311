package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemap/render"
)

// renderFlags are the flags of rendering pages in headless Chromium,
// shared by crawl and audit (render.Settings; its Open starts the
// browser).
type renderFlags struct{ render.Settings }

func (r *renderFlags) register(f *pflag.FlagSet) {
	f.StringVar(&r.Render, "render", "", "read pages as headless Chromium renders them (=auto: app shells only)")
	f.Lookup("render").NoOptDefVal = "all"
	f.IntVar(&r.Concurrency, "render-concurrency", 2, "browser tabs rendering at once")
	f.DurationVar(&r.Wait, "render-wait", 10*time.Second, "longest a rendered page may take to settle")
	f.StringSliceVar(&r.AllowHosts, "render-allow", nil, "another `HOST[:PORT]` rendered pages may load from (an API, a CDN); repeatable")
	f.StringVar(&r.Browser, "browser", "", "Chromium executable (default: chromium-headless-shell, chromium or google-chrome on $PATH)")
}
