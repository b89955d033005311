package render

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sitemapkit/sitemap/crawl"
)

// flags are Chromium's switches: headless, no profile state worth
// keeping, nothing started on its own that would reach the network, no
// images decoded, a bound on the script heap of a page (512 MB: a page
// that allocates without end crashes its own renderer, not the machine).
// Each tab has a renderer process of its own (no process-per-site), so a
// page whose script loops for ever or eats memory stalls only its tab,
// which is then replaced (browser.renew); the CPU a page costs is the same.
var flags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"no-default-browser-check", "disable-extensions", "disable-dev-shm-usage",
	"hide-scrollbars", "mute-audio", "disable-background-timer-throttling",
	"disable-renderer-backgrounding", "disable-backgrounding-occluded-windows",
	"disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache,IsolateOrigins,site-per-process,PaintHolding",
	"disable-site-isolation-trials", "js-flags=--max-old-space-size=512", "disable-ipc-flooding-protection",
	"disable-hang-monitor", "disable-remote-fonts", "disable-threaded-animation",
	"blink-settings=imagesEnabled=false",
}

// browser is one Chromium process and its tabs.
type browser struct {
	ctx    context.Context // the browser's chromedp context
	cancel func()
	pgid   *atomic.Int64 // the process group (Linux), 0 before the start
	tabs   chan *tab
	pages  atomic.Int64
	// refs and retired are guarded by Chromium.mu.
	refs    int
	retired bool
	once    sync.Once
	done    chan struct{}
	// broken is set when a tab could not be replaced: the browser is
	// then treated as dead, and the next page starts a new one.
	broken atomic.Bool
}

// start starts a browser with o.Concurrency tabs.
func (c *Chromium) start(ctx context.Context) (*browser, error) {
	c.started++
	pgid := new(atomic.Int64)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(c.path),
		chromedp.WindowSize(1024, 768),
		chromedp.ModifyCmdFunc(procAttr(pgid)),
	}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if ok {
			opts = append(opts, chromedp.Flag(k, v))
		} else {
			opts = append(opts, chromedp.Flag(k, true))
		}
	}
	if c.o.UserAgent != "" {
		opts = append(opts, chromedp.UserAgent(c.o.UserAgent))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &browser{ctx: bctx, pgid: pgid, tabs: make(chan *tab, c.o.Concurrency), done: make(chan struct{})}
	b.cancel = func() {
		killGroup(pgid.Load())
		bcancel()
		acancel() // waits for the process and removes the profile
	}
	// The first Run starts the browser and must not carry ctx's deadline
	// (it would end the browser): a watchdog bounds it instead.
	errc := make(chan error, 1)
	go func() { errc <- chromedp.Do(bctx) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		err = ctx.Err()
	case <-time.After(time.Minute):
		err = errors.New("no answer within a minute")
	}
	if err == nil {
		if p := chromedp.FromContext(bctx).Browser.Process(); p != nil {
			pgid.Store(int64(p.Pid))
		}
		for range c.o.Concurrency {
			var t *tab
			if t, err = newTab(bctx, c.o); err != nil {
				break
			}
			b.tabs <- t
		}
	}
	if err != nil {
		b.close()
		return nil, fmt.Errorf("starting the browser %s: %w", c.path, err)
	}
	return b, nil
}

// dead reports whether the browser process has gone (crashed, killed).
func (b *browser) dead() bool { return b.ctx.Err() != nil || b.broken.Load() }

// renew closes t, whose page failed or did not settle (its renderer may
// still run the page's script), and returns a fresh tab in its place.
// Closing the tab ends its renderer process. When no tab can be opened,
// the browser is marked broken and t is returned (closed: a page given to
// it fails at once and is tried again on a new browser).
func (b *browser) renew(t *tab, o Options) *tab {
	t.cancel()
	nt, err := newTab(b.ctx, o)
	if err != nil {
		b.broken.Store(true)
		return t
	}
	return nt
}

// retire marks the browser for closing once its last page is done
// (Chromium.mu held).
func (b *browser) retire() {
	b.retired = true
	if b.refs == 0 {
		b.close()
	}
}

// close ends the browser and every process of it, and waits for them.
func (b *browser) close() {
	b.once.Do(func() {
		b.cancel()
		close(b.done)
	})
}

// instrument runs in every document before its scripts: it records the
// URLs given to history.pushState and replaceState, and the timers the
// page sets (setTimeout) that settle waits for: those of at most
// timerMax ms, set by the page's scripts or by the callback of such a
// timer (a timer set by a timer set by a timer is not waited for: a
// loop that sets its next turn does not hold the page for ever).
// __sitemapSettle(ms) resolves once no such timer is due within ms and
// then the main thread is idle (a requestIdleCallback).
const instrument = `(() => {
	const nav = [];
	Object.defineProperty(window, '__sitemapNav', {value: nav, enumerable: false});
	for (const m of ['pushState', 'replaceState']) {
		const f = history[m];
		history[m] = function (state, title, u) {
			if (u !== undefined && u !== null) {
				try { nav.push(new URL(String(u), location.href).href); } catch (e) {}
			}
			return f.apply(this, arguments);
		};
	}
	const st = window.setTimeout, ct = window.clearTimeout, now = () => performance.now();
	const due = new Map();
	let depth = 0;
	window.setTimeout = function (f, ms, ...args) {
		if (typeof f !== 'function') return st.apply(window, arguments);
		const d = Math.max(0, Number(ms) || 0), my = depth + 1;
		const id = st.call(window, function () {
			due.delete(id);
			const prev = depth;
			depth = my;
			try { return f.apply(this, args); } finally { depth = prev; }
		}, ms);
		if (d <= ` + timerMax + ` && my <= 2) due.set(id, now() + d);
		return id;
	};
	window.clearTimeout = function (id) { due.delete(id); return ct.call(window, id); };
	const ric = window.requestIdleCallback ? f => window.requestIdleCallback(f, {timeout: 1000}) : f => st.call(window, f, 0);
	Object.defineProperty(window, '__sitemapSettle', {enumerable: false, value: within => new Promise(r => {
		const end = now() + within;
		const check = () => {
			let next = -1;
			for (const t of due.values()) if (t <= end && (next < 0 || t < next)) next = t;
			if (next < 0) ric(() => r(true));
			else st.call(window, check, Math.max(0, next - now()) + 1);
		};
		check();
	})});
})()`

// timerMax is the longest setTimeout delay, in ms, that settle waits for:
// content a page adds "shortly after load" by a timer is read, a timer
// of a popup or a poll of a minute is not waited for.
const timerMax = "3000"

// extract is what is read from a settled page.
const extract = `JSON.stringify({html: document.documentElement ? document.documentElement.outerHTML : '', nav: window.__sitemapNav || []})`

// tab is one tab of a browser and the page it renders.
type tab struct {
	ctx    context.Context
	cancel func() // closes the tab
	target *chromedp.Target
	frame  cdp.FrameID // the main frame (the target's id)

	mu  sync.Mutex
	cur *pageState
}

// pageState is what the events of one page's rendering say.
type pageState struct {
	host     string          // the page's host:port
	allow    map[string]bool // hosts the page may load from
	doc      bool            // the main document's request was let through
	loaded   bool
	inflight map[network.RequestID]bool
	last     time.Time // the last network event
	nav      []string
	console  []string
	failed   []string
}

// newTab opens a tab and sets it up: the instrument script, request
// interception and the event listener.
func newTab(bctx context.Context, o Options) (*tab, error) {
	tctx, cancel := chromedp.NewContext(bctx) // cancelled with the browser
	t := &tab{ctx: tctx, cancel: cancel}
	err := chromedp.Do(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		t.target = tg
		// chromedp enables the DOM, CSS and Log domains for its queries;
		// a renderer that only evaluates spares their events.
		for _, off := range []cdp.Command[cdp.Empty, cdp.Empty]{css.Disable, dom.Disable, cdplog.Disable} {
			if _, err := cdp.Call(ctx, tg, off, cdp.Empty{}); err != nil {
				return err
			}
		}
		if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrument}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, cdpfetch.Enable, cdpfetch.EnableParams{Patterns: []*cdpfetch.RequestPattern{{URLPattern: "*"}}})
		return err
	}))
	if err != nil {
		cancel()
		return nil, err
	}
	t.frame = cdp.FrameID(t.target.TargetID)
	if err := chromedp.Listen(tctx, t.event); err != nil {
		cancel()
		return nil, err
	}
	return t, nil
}

// event sees every event of the tab, on the tab's reading goroutine: it
// only records, and answers a paused request from another goroutine.
func (t *tab) event(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.cur
	if e, ok := ev.(*cdpfetch.EventRequestPaused); ok {
		go t.answer(e, t.decide(s, e))
		return
	}
	if s == nil {
		return
	}
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if e.Type == network.ResourceTypeEventSource {
			break // a stream of live updates never ends: not waited for
		}
		s.inflight[e.RequestID] = true
		s.last = time.Now()
	case *network.EventLoadingFinished:
		delete(s.inflight, e.RequestID)
		s.last = time.Now()
	case *network.EventLoadingFailed:
		if s.inflight[e.RequestID] && !e.Canceled && e.BlockedReason == "" && !strings.Contains(e.ErrorText, "BLOCKED_BY_CLIENT") && !strings.Contains(e.ErrorText, "ERR_ABORTED") {
			s.failed = append(s.failed, fmt.Sprintf("%s request: %s", e.Type, e.ErrorText))
		}
		delete(s.inflight, e.RequestID)
		s.last = time.Now()
	case *network.EventResponseReceived:
		if s.inflight[e.RequestID] && e.Response != nil && e.Response.Status >= 400 && e.Type != network.ResourceTypeDocument {
			s.failed = append(s.failed, fmt.Sprintf("%s: status %d", e.Response.URL, e.Response.Status))
		}
	case *page.EventLoadEventFired:
		s.loaded = true
		s.last = time.Now()
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				}
			}
			s.console = append(s.console, strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		if d := e.ExceptionDetails; d != nil {
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg = d.Exception.Description
			}
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			s.console = append(s.console, msg)
		}
	}
}

// verdicts of a paused request.
const (
	letThrough = iota
	block
	stopNavigation
)

// decide says what becomes of a paused request (t.mu held): the page's
// own document and its requests to allowed hosts go through; images,
// fonts, media, other hosts, subframes and /favicon.ico are blocked; another document
// of the main frame (the script navigating away) is stopped and noted.
func (t *tab) decide(s *pageState, e *cdpfetch.EventRequestPaused) int {
	if s == nil || e.Request == nil {
		return block
	}
	switch e.ResourceType {
	case network.ResourceTypeImage, network.ResourceTypeFont, network.ResourceTypeMedia:
		return block
	case network.ResourceTypeDocument:
		if e.FrameID != t.frame {
			return block
		}
		if !s.doc {
			s.doc = true
			return letThrough
		}
		s.nav = append(s.nav, e.Request.URL)
		// A navigation started while the page loads aborts its
		// loading: no load event will come. The page is read as it is.
		s.loaded = true
		s.last = time.Now()
		return stopNavigation
	}
	u, err := url.Parse(e.Request.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		if u != nil && (u.Scheme == "data" || u.Scheme == "blob") {
			return letThrough
		}
		return block
	}
	if u.Host != s.host && !s.allow[u.Host] && !s.allow[u.Hostname()] || u.Path == "/favicon.ico" {
		return block // another host; the browser's own request for an icon
	}
	return letThrough
}

// answer tells the browser what becomes of a paused request.
func (t *tab) answer(e *cdpfetch.EventRequestPaused, verdict int) {
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	var err error
	switch verdict {
	case letThrough:
		_, err = cdp.Call(ctx, t.target, cdpfetch.ContinueRequest, cdpfetch.ContinueRequestParams{RequestID: e.RequestID})
	case block:
		_, err = cdp.Call(ctx, t.target, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	default:
		_, err = cdp.Call(ctx, t.target, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonAborted})
	}
	_ = err // the page is gone or the browser closing: nothing to answer
}

// settle waits for the page to settle: its load event, then no request
// in flight for o.Idle, then no timer the page set shortly before due
// (instrument) and the page's main thread idle (a requestIdleCallback),
// with still no request: a script that parses one answer before it asks
// for the next, or adds its content by a timer after the load event, is
// not read half done. When
// bound ends first, the page is read as it is (timedOut), unless it has
// not even loaded.
func (t *tab) settle(ctx, bound context.Context, s *pageState, o Options) (timedOut bool, err error) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	quiet := func() (settled, loaded bool, last time.Time) {
		t.mu.Lock()
		defer t.mu.Unlock()
		return s.loaded && len(s.inflight) == 0 && time.Since(s.last) >= o.Idle, s.loaded, s.last
	}
	for {
		settled, loaded, last := quiet()
		if settled {
			_, err := chromedp.Run(bound, chromedp.Evaluate[bool](idle(bound), chromedp.EvalAwaitPromise))
			t.mu.Lock()
			still := len(s.inflight) == 0 && s.last.Equal(last)
			t.mu.Unlock()
			if err == nil && still {
				return false, nil
			}
			if err == nil && bound.Err() == nil {
				continue // a request started meanwhile: wait for it
			}
		}
		select {
		case <-tick.C:
			continue
		case <-bound.Done():
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if !loaded {
			return false, fmt.Errorf("the page did not load within %s", o.Wait)
		}
		return true, nil
	}
}

// idle returns the script that resolves when no timer settle waits for is
// due within the time left to bound (less a margin to read the page), and
// then the page's main thread is idle (instrument's __sitemapSettle; a
// document that did not run instrument waits for the main thread only).
func idle(bound context.Context) string {
	left := time.Second
	if d, ok := bound.Deadline(); ok {
		left = time.Until(d) - time.Until(d)/10 - 50*time.Millisecond
	}
	return fmt.Sprintf(`window.__sitemapSettle ? window.__sitemapSettle(%d) : new Promise(r => (window.requestIdleCallback || (f => setTimeout(f, 0)))(() => r(true), {timeout: 1000}))`, max(0, left.Milliseconds()))
}

// render loads u in the tab and reads it once it settles.
func (t *tab) render(ctx context.Context, u *url.URL, o Options) (r crawl.Rendered, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("rendering panicked: %v", p)
		}
	}()
	s := &pageState{host: u.Host, allow: map[string]bool{}, inflight: map[network.RequestID]bool{}, last: time.Now()}
	for _, h := range o.AllowHosts {
		s.allow[h] = true
	}
	t.mu.Lock()
	t.cur = s
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.cur = nil
		t.mu.Unlock()
	}()
	start := time.Now()
	// Commands go to the tab's context, bounded by o.Wait and ending with
	// ctx.
	bound, cancel := context.WithTimeout(t.ctx, o.Wait)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	nav, err := chromedp.Run(bound, func(ctx context.Context, tg *chromedp.Target) (page.NavigateResult, error) {
		return cdp.Call(ctx, tg, page.Navigate, page.NavigateParams{URL: u.String()})
	})
	if err != nil {
		return r, err
	}
	if nav.ErrorText != "" {
		return r, errors.New(nav.ErrorText)
	}
	if r.TimedOut, err = t.settle(ctx, bound, s, o); err != nil {
		return r, err
	}
	rctx := bound
	if r.TimedOut {
		// The bound is spent: reading gets a short one of its own.
		var c2 context.CancelFunc
		rctx, c2 = context.WithTimeout(t.ctx, 5*time.Second)
		defer c2()
		defer context.AfterFunc(ctx, c2)()
	}
	raw, err := chromedp.Run(rctx, chromedp.Evaluate[string](extract))
	if err != nil {
		return r, fmt.Errorf("reading the page after %s: %w", time.Since(start).Round(time.Millisecond), err)
	}
	var out struct {
		HTML string   `json:"html"`
		Nav  []string `json:"nav"`
	}
	if err := jsonUnmarshal(raw, &out); err != nil {
		return r, err
	}
	t.mu.Lock()
	r.HTML = []byte(out.HTML)
	r.Navigations = append(out.Nav, s.nav...)
	r.ConsoleErrors = s.console
	r.FailedRequests = s.failed
	t.mu.Unlock()
	return r, nil
}
