// Package render renders pages in headless Chromium for a crawl or an
// audit (crawl.Renderer): `sitemap crawl --render`, `sitemap audit
// --render`. See docs/CRAWL.md.
//
// One browser process runs a pool of tabs (Options.Concurrency); a page is
// rendered in a free tab: navigated to, then read once it settles (its
// load event, then no request in flight for Options.Idle, no setTimeout of
// up to 3 s the page set still due, and its main thread idle) or when
// Options.Wait runs out. Images, fonts and media are not downloaded, nor
// anything from another host than the page's (unless Options.AllowHosts
// names it); iframes are not loaded; a document navigation the page's
// script starts is stopped and reported as a link (crawl.Rendered). The
// browser is started again after Options.RestartAfter pages, and at once
// when it crashed (the page is then tried once more).
//
// Every browser process is gone when Close returns, and when the program
// dies: the browser runs in its own process group, killed by Close, and
// gets SIGKILL from the kernel when the program exits (Linux's
// parent-death signal); chromedp kills whatever still uses the browser's
// profile directory.
package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
)

// Options configure a Chromium.
type Options struct {
	// Browser is the Chromium (or Chrome) executable; "" looks on $PATH
	// (Find).
	Browser string
	// Concurrency is the number of tabs rendering at once (default 2).
	Concurrency int
	// Wait bounds the rendering of one page (default 10s): a page that
	// has not settled by then is read as it is (crawl.Rendered.TimedOut);
	// one that has not even loaded is an error.
	Wait time.Duration
	// Idle is how long the network must be quiet after the load event
	// for the page to count as settled (default 100ms).
	Idle time.Duration
	// AllowHosts are hosts besides the page's own from which the page may
	// load scripts and data (a CDN, an API host): a host, or host:port.
	AllowHosts []string
	// RestartAfter starts the browser again after that many pages
	// (default 1000), which bounds the memory a long crawl's browser
	// grows to.
	RestartAfter int
	// UserAgent, when set, is the browser's User-Agent.
	UserAgent string
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = 2
	}
	if o.Wait <= 0 {
		o.Wait = 10 * time.Second
	}
	if o.Idle <= 0 {
		o.Idle = 100 * time.Millisecond
	}
	if o.RestartAfter <= 0 {
		o.RestartAfter = 1000
	}
	return o
}

// Names are the executables Find looks for on $PATH, in order: the old
// headless shell first (Debian's chromium-headless-shell, Google's
// chrome-headless-shell), which renders a page for about half the CPU of
// the full browser's headless mode (no browser UI behind the page, a
// lighter compositor), then the full browsers.
var Names = []string{"chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the browser to run: path when it is set (it must exist),
// else the first of Names on $PATH. The error says how to install one.
func Find(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("browser %s: %v; give the path of a Chromium or Chrome executable", path, err)
		}
		return p, nil
	}
	for _, n := range Names {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found on $PATH (looked for " + strings.Join(Names, ", ") + "): install it (Debian, Ubuntu: apt-get install chromium-headless-shell, or chromium; Fedora: dnf install chromium; macOS: brew install --cask chromium) or name one with --browser PATH")
}

// Chromium renders pages in a headless Chromium: a crawl.Renderer. It is
// safe for concurrent use; Close it.
type Chromium struct {
	o    Options
	path string

	mu      sync.Mutex
	cur     *browser // the browser new pages go to
	closed  bool
	started int // browsers started, for tests and the summary
}

var _ crawl.Renderer = (*Chromium)(nil)

// New starts a headless Chromium with its tabs. The browser lives until
// Close, whatever ctx does after New returns; ctx bounds the start.
func New(ctx context.Context, o Options) (*Chromium, error) {
	o = o.withDefaults()
	path, err := Find(o.Browser)
	if err != nil {
		return nil, err
	}
	for _, h := range o.AllowHosts {
		if h == "" || strings.ContainsAny(h, "/?#@ ") {
			return nil, fmt.Errorf("allowed host %q: give a host name, or host:port, e.g. cdn.example.com", h)
		}
	}
	c := &Chromium{o: o, path: path}
	b, err := c.start(ctx)
	if err != nil {
		return nil, err
	}
	c.cur = b
	return c, nil
}

// Restarts is how many times the browser was started again (after
// RestartAfter pages, or a crash).
func (c *Chromium) Restarts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started - 1
}

// Render renders one page (crawl.Renderer). It waits for a free tab.
func (c *Chromium) Render(ctx context.Context, pageURL string) (crawl.Rendered, error) {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return crawl.Rendered{}, fmt.Errorf("render %s: not an http(s) URL", pageURL)
	}
	var r crawl.Rendered
	for try := 0; ; try++ {
		b, t, err := c.acquire(ctx)
		if err != nil {
			return crawl.Rendered{}, err
		}
		r, err = t.render(ctx, u, c.o)
		if (err != nil || r.TimedOut) && ctx.Err() == nil && !b.dead() {
			// The page's script may still hold the tab's renderer (an
			// endless loop, memory without end): the next page gets a
			// fresh tab.
			t = b.renew(t, c.o)
		}
		crashed := b.dead()
		c.release(b, t)
		if err == nil || ctx.Err() != nil || !crashed || try > 0 {
			if err != nil && ctx.Err() == nil {
				err = fmt.Errorf("render %s: %w", pageURL, err)
			}
			return r, err
		}
		// The browser died under the page: once more on a new one.
	}
}

// acquire returns a free tab of the current browser, starting a new
// browser first when the current one is dead or has rendered RestartAfter
// pages.
func (c *Chromium) acquire(ctx context.Context) (*browser, *tab, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, errors.New("render: the browser is closed")
	}
	b := c.cur
	if b.dead() || b.pages.Load() >= int64(c.o.RestartAfter) {
		b.retire()
		nb, err := c.start(ctx)
		if err != nil {
			c.mu.Unlock()
			return nil, nil, err
		}
		c.cur, b = nb, nb
	}
	b.refs++
	c.mu.Unlock()
	select {
	case t := <-b.tabs:
		b.pages.Add(1)
		return b, t, nil
	case <-ctx.Done():
		c.release(b, nil)
		return nil, nil, ctx.Err()
	}
}

// release gives the tab back and closes a retired browser whose last page
// is done.
func (c *Chromium) release(b *browser, t *tab) {
	if t != nil {
		b.tabs <- t
	}
	c.mu.Lock()
	b.refs--
	last := b.refs == 0 && (b.retired || c.closed)
	c.mu.Unlock()
	if last {
		b.close()
	}
}

// Close stops the browser (every process of it) and waits until it is
// gone; a page being rendered ends with an error.
func (c *Chromium) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	b := c.cur
	c.mu.Unlock()
	b.close()
	return nil
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
