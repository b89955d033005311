package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// hostile serves pages whose script never lets the renderer go: /loop
// runs an endless loop, /mem allocates memory without end; /ok/N are
// plain pages with a title.
func hostile() *httptest.Server {
	page := func(w http.ResponseWriter, title, script string) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><p>text</p><script>%s</script></body></html>", title, script)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		page(w, "loop", "setTimeout(() => { for (;;) {} }, 20)")
	})
	mux.HandleFunc("/mem", func(w http.ResponseWriter, r *http.Request) {
		page(w, "mem", "const a = []; setTimeout(function f() { for (let i = 0; i < 20; i++) a.push(new Array(1e6).fill(i)); setTimeout(f, 0) }, 20)")
	})
	mux.HandleFunc("/ok/", func(w http.ResponseWriter, r *http.Request) {
		page(w, "ok", "")
	})
	return httptest.NewServer(mux)
}

// TestHostilePageAlone: a page whose script loops for ever or allocates
// without end costs at most its own render (an error or a timed-out read), never
// the pages rendered beside it in the other tab nor those rendered after
// it in the same tab.
func TestHostilePageAlone(t *testing.T) {
	srv := hostile()
	defer srv.Close()
	c := newChromium(t, Options{Concurrency: 3, Wait: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Beside the bad pages, which burn the machine's cores, a page may
	// be read before it settles (timed out), but it loads and is read.
	ok := func(when string, n int, settled bool) {
		for i := range n {
			u := fmt.Sprintf("%s/ok/%d", srv.URL, i)
			r, err := c.Render(ctx, u)
			if err != nil || settled && r.TimedOut {
				t.Errorf("%s %s: err %v, timed out %v", u, when, err, r.TimedOut)
			}
		}
	}
	var wg sync.WaitGroup
	for _, bad := range []string{"/loop", "/mem"} {
		wg.Go(func() {
			r, err := c.Render(ctx, srv.URL+bad)
			switch {
			case ctx.Err() != nil:
				t.Errorf("%s: the render did not end: %v", bad, ctx.Err())
			case bad == "/loop" && err == nil && !r.TimedOut:
				// An endless loop never lets a read run: it cannot settle.
				t.Errorf("%s: rendered as settled", bad)
			}
			// /mem yields between its allocations, so on a fast machine
			// with memory to spare its unchanging page may settle and be
			// read before the renderer runs out of memory: any end is
			// right for it, as long as it ends and costs only itself.
		})
	}
	time.Sleep(300 * time.Millisecond) // the bad pages are busy
	ok("beside them", 4, false)
	wg.Wait()
	ok("after them, in their tabs", 6, true)
}

// TestScriptRedirect: a page whose script navigates away while it is
// being parsed (location.href = ..., a redirect by script) never fires
// its load event, since the navigation aborts its loading; it is read
// as it is, and the target is reported as a navigation, not lost in a
// "did not load" error.
func TestScriptRedirect(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><html><head><title>old</title><script>location.href = '/new'</script></head><body><p>moved</p></body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := sharedChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := c.Render(ctx, srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Navigations, srv.URL+"/new") {
		t.Errorf("navigations %q, want %s/new among them", r.Navigations, srv.URL)
	}
}

// TestEventSourceSettles: a page holding an EventSource stream open (live
// updates) still settles: the stream, which never ends, is not a request
// the page waits for.
func TestEventSourceSettles(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/live", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><html><head><title>live</title></head><body><p>news</p><script>new EventSource('/events')</script></body></html>`)
	})
	mux.HandleFunc("/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for {
			fmt.Fprint(w, "data: x\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newChromium(t, Options{Concurrency: 1, Wait: 15 * time.Second})
	defer c.Close() // before the server closes: the tab holds the stream
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := c.Render(ctx, srv.URL+"/live")
	if err != nil || r.TimedOut {
		t.Fatalf("err %v, timed out %v: want a settled page", err, r.TimedOut)
	}
}
