package render

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
)

// Settings are rendering as a person asks for it (the flags --render,
// --render-concurrency, --render-wait, --render-allow and --browser of `sitemap crawl`
// and `audit`): Render is "" (no rendering), "all" (every HTML page) or
// "auto" (only pages that look like an application shell).
type Settings struct {
	Render      string
	Concurrency int // at least 1
	Wait        time.Duration
	Browser     string
	AllowHosts  []string // hosts besides the page's own it may load from (Options.AllowHosts)
}

// Check refuses settings Open would refuse, without starting anything, so
// a command can say so before it opens or writes anything else: an error
// names the setting as its flag (--render-wait) and says what to give
// instead. Without Render the other settings are not looked at.
func (s Settings) Check() error {
	_, err := s.mode()
	return err
}

// mode is the RenderMode of s once its settings are checked.
func (s Settings) mode() (crawl.RenderMode, error) {
	var mode crawl.RenderMode
	switch s.Render {
	case "":
		return mode, nil
	case "all":
	case "auto":
		mode = crawl.RenderAuto
	default:
		return mode, fmt.Errorf("--render=%s: give --render (every page) or --render=auto", s.Render)
	}
	if s.Concurrency < 1 {
		return mode, errors.New("--render-concurrency must be at least 1")
	}
	if s.Wait <= 0 {
		return mode, errors.New("--render-wait must be more than 0, e.g. 10s")
	}
	return mode, nil
}

// Open starts the browser s asks for, with userAgent: the renderer, its
// mode and the func that ends it (and every process of it). Without
// Render all three are zero and close does nothing. An error names the
// setting as its flag (--render-wait) and says what to give instead
// (Check).
func (s Settings) Open(ctx context.Context, userAgent string) (crawl.Renderer, crawl.RenderMode, func(), error) {
	none := func() {}
	mode, err := s.mode()
	if err != nil || s.Render == "" {
		return nil, mode, none, err
	}
	c, err := New(ctx, Options{Browser: s.Browser, Concurrency: s.Concurrency, Wait: s.Wait, UserAgent: userAgent, AllowHosts: s.AllowHosts})
	if err != nil {
		return nil, mode, none, fmt.Errorf("--render: %v", err)
	}
	return c, mode, func() { c.Close() }, nil
}
