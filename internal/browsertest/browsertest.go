// Package browsertest drives a headless Chromium from Go tests (through
// chromedp), for the pages this module writes for people: the HTML views of
// sitemaps, the maps of `sitemap graph`, the audit report.
//
// One browser serves a whole test binary when the package's TestMain calls
// Main; each test then gets its own tab (New). Without Main, New starts a
// browser for the test and closes it when the test ends (slower, same
// result). The browser runs headless with a fresh, empty profile in a
// temporary directory, no sandbox, no GPU, no QUIC, no first-run, background
// networking, component update or sync, so a test never reaches the network
// on its own.
//
// Chromium is looked for as $SITEMAP_CHROMIUM, then chromium,
// chromium-browser, google-chrome and google-chrome-stable on $PATH, then
// /usr/bin/chromium. When none is found the test is skipped, unless
// SITEMAP_REQUIRE_BROWSER=1 (set by `make test`), which makes it fail with
// the command that installs it.
//
// Screenshots are test artifacts: Tab.Screenshot writes a PNG into
// $SITEMAP_ARTIFACTS when it is set (created if missing), else into the
// test's temporary directory, and logs the path. Nothing is written into the
// repository.
//
// Tests only: no package of the module outside tests imports it.
package browsertest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Timeout bounds each action of a Tab (a load, an evaluation, a click, a
// screenshot). It is generous: the tests run under -race on a loaded
// machine, and a timeout is a failure, never a measurement.
const Timeout = 90 * time.Second

// Flags are the command-line switches Chromium is started with (besides
// --user-data-dir and chromedp's own --remote-debugging-pipe).
var Flags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"no-default-browser-check", "disable-extensions", "disable-dev-shm-usage",
	"hide-scrollbars", "mute-audio",
}

// Browser is one running Chromium.
type Browser struct {
	ctx     context.Context // a chromedp context that has run once
	cancel  func()
	dataDir string
}

// shared is the browser of the test binary, started by the first New
// after Main; nil otherwise. It is test-process state by design: one
// browser per binary.
var shared struct {
	sync.Mutex
	main    bool
	browser *Browser
	err     error
}

// Main runs the tests of a package with one browser shared by all of them
// and closes it (and removes its profile) after the last one. Call it from
// TestMain:
//
//	func TestMain(m *testing.M) { browsertest.Main(m) }
//
// The browser starts at the first New, so a test binary whose browser tests
// are all skipped or filtered out by -run never starts one.
func Main(m *testing.M) {
	shared.Lock()
	shared.main = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	if shared.browser != nil {
		shared.browser.Close()
		shared.browser = nil
	}
	shared.Unlock()
	os.Exit(code)
}

// Path returns the Chromium executable the tests use, or "" when there is
// none.
func Path() string {
	if p := os.Getenv("SITEMAP_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// Require returns the Chromium executable, or skips t when there is none
// (fails it when SITEMAP_REQUIRE_BROWSER=1).
func Require(t testing.TB) string {
	t.Helper()
	p := Path()
	if p != "" {
		return p
	}
	if os.Getenv("SITEMAP_REQUIRE_BROWSER") == "1" {
		t.Fatal("chromium not found (SITEMAP_REQUIRE_BROWSER=1): install it with `apt-get install -y chromium` (or `make deps`), or point SITEMAP_CHROMIUM at a Chrome")
	}
	t.Skip("chromium not found; skipping the browser test (install Debian's chromium; SITEMAP_REQUIRE_BROWSER=1 makes this a failure)")
	return ""
}

// Start starts a headless Chromium at path with a new empty profile. Close
// stops it and removes the profile.
func Start(path string) (*Browser, error) {
	dir, err := os.MkdirTemp("", "sitemap-browsertest-")
	if err != nil {
		return nil, fmt.Errorf("browsertest: profile directory: %w", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &Browser{ctx: bctx, dataDir: dir, cancel: func() { bcancel(); acancel() }}
	// The first Run starts the browser; it must not carry a timeout (the
	// timeout would end the browser), so a watchdog bounds the start.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(bctx) }()
	select {
	case err = <-done:
	case <-time.After(Timeout):
		err = errors.New("no answer within " + Timeout.String())
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("browsertest: starting %s: %w", path, err)
	}
	return b, nil
}

// Close stops the browser and removes its profile directory.
func (b *Browser) Close() {
	b.cancel()
	os.RemoveAll(b.dataDir)
}

// Tab is one browser tab of a test. Its methods fail the test on error.
type Tab struct {
	t      testing.TB
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// New opens a tab for t, closed when t ends. It skips or fails t when
// there is no Chromium (Require). After Main the tab is on the shared
// browser; otherwise on a browser of t's own.
func New(t testing.TB) *Tab {
	t.Helper()
	path := Require(t)
	shared.Lock()
	var b *Browser
	var err error
	if shared.main {
		if shared.browser == nil && shared.err == nil {
			shared.browser, shared.err = Start(path)
		}
		b, err = shared.browser, shared.err
	} else {
		b, err = Start(path)
		if err == nil {
			t.Cleanup(b.Close)
		}
	}
	shared.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	tab := &Tab{t: t, ctx: ctx}
	err = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil && e.ExceptionDetails.Exception.Description != "" {
				msg = e.ExceptionDetails.Exception.Description
			}
			tab.mu.Lock()
			tab.errors = append(tab.errors, msg)
			tab.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("browsertest: opening a tab: %v", err)
	}
	return tab
}

// Context returns the tab's chromedp context, for actions the helpers do
// not cover: chromedp.Run(ctx, …). Bound it with context.WithTimeout.
func (tab *Tab) Context() context.Context { return tab.ctx }

// Do runs chromedp actions in the tab within Timeout, failing the test on
// error. what names the step in the failure message.
func (tab *Tab) Do(what string, steps ...chromedp.Action[chromedp.Void]) {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		tab.t.Fatalf("browsertest: %s: %v", what, err)
	}
}

// Load navigates to url (http(s) or file) and waits for its load event.
func (tab *Tab) Load(url string) {
	tab.t.Helper()
	tab.Do("loading "+url, chromedp.Navigate(url))
}

// LoadFile navigates to the local file at path.
func (tab *Tab) LoadFile(path string) {
	tab.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tab.t.Fatal(err)
	}
	tab.Load("file://" + filepath.ToSlash(abs))
}

// Eval evaluates the JavaScript expression in the page and returns its
// value decoded from JSON into T (a promise is awaited). An exception
// fails the test.
func Eval[T any](tab *Tab, expr string) T {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tab.t.Fatalf("browsertest: evaluating %s: %v", short(expr), err)
	}
	return v
}

// Click clicks the first element matching the CSS selector, once it is
// visible.
func (tab *Tab) Click(selector string) {
	tab.t.Helper()
	tab.Do("clicking "+selector, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
}

// Type types text into the first element matching the CSS selector, as a
// user would (key events, so input listeners run).
func (tab *Tab) Type(selector, text string) {
	tab.t.Helper()
	tab.Do("typing into "+selector, chromedp.SendKeys(chromedp.CSS(selector), text, chromedp.NodeVisible))
}

// WaitVisible waits until an element matching the CSS selector is visible.
func (tab *Tab) WaitVisible(selector string) {
	tab.t.Helper()
	tab.Do("waiting for "+selector, chromedp.WaitVisible(chromedp.CSS(selector)))
}

// Text returns the rendered text of the first element matching the CSS
// selector (innerText; textContent for an SVG element), waiting for the
// element to exist.
func (tab *Tab) Text(selector string) string {
	tab.t.Helper()
	sel, _ := json.Marshal(selector)
	return Eval[string](tab, `new Promise(done => { const look = () => { const el = document.querySelector(`+string(sel)+`);
		if (!el) return setTimeout(look, 20); done(el.innerText !== undefined ? el.innerText : el.textContent); }; look(); })`)
}

// Errors returns the uncaught JavaScript exceptions the page threw so far.
func (tab *Tab) Errors() []string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	return append([]string(nil), tab.errors...)
}

// NoErrors fails the test when the page threw an uncaught exception.
func (tab *Tab) NoErrors() {
	tab.t.Helper()
	if errs := tab.Errors(); len(errs) > 0 {
		tab.t.Errorf("the page threw %d uncaught exception(s):\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// Screenshot writes a PNG of the viewport named NAME.png (prefixed with
// the test's name) into ArtifactDir and returns its path.
func (tab *Tab) Screenshot(name string) string {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, Timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tab.t.Fatalf("browsertest: screenshot: %v", err)
	}
	p := filepath.Join(ArtifactDir(tab.t), fileName(tab.t.Name()+"-"+name)+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		tab.t.Fatalf("browsertest: writing the screenshot: %v", err)
	}
	tab.t.Logf("screenshot: %s", p)
	return p
}

// ArtifactDir is where tests write artifacts: $SITEMAP_ARTIFACTS (created
// when missing) or else t's temporary directory.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("SITEMAP_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("SITEMAP_ARTIFACTS: %v", err)
		}
		return d
	}
	return t.TempDir()
}

func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

//go:embed a11y.js
var a11yJS string

// Accessibility runs an automated accessibility check in the loaded page
// and returns its violations ("rule: what (where)"; none: empty). The
// rules are those of WCAG 2 A/AA a machine can decide, named as axe-core
// names them: html-has-lang, document-title, landmark-one-main, region,
// landmark-unique, page-has-heading-one, heading-order, empty-heading,
// link-name, button-name, image-alt, svg-img-alt, label, duplicate-id,
// td-has-header, list, color-contrast (AA: 4.5:1, 3:1 for large text).
func (tab *Tab) Accessibility() []string {
	tab.t.Helper()
	return Eval[[]string](tab, a11yJS)
}
