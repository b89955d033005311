package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestTimerContentSettles: content a page adds by a timer shortly after
// its load event (a second or two) (straight away, through a second timer, or from a fetch
// the timer starts) is in the page read, which was judged empty before
// (AUD-23); a timer far in the future and a loop that sets its next turn
// for ever do not hold the page until the bound (not timed out).
func TestTimerContentSettles(t *testing.T) {
	fill := `document.getElementById('root').innerHTML = '<a href="/next">Next</a><p>late content</p>'`
	pages := map[string]string{
		"late":  `addEventListener('load', () => setTimeout(() => { ` + fill + ` }, 1500))`,
		"chain": `addEventListener('load', () => setTimeout(() => setTimeout(() => { ` + fill + ` }, 800), 800))`,
		"fetch": `addEventListener('load', () => setTimeout(() => fetch('/data').then(r => r.text()).then(h => { document.getElementById('root').innerHTML = h }), 1200))`,
		"far":   fill + `; setTimeout(() => { document.title = 'popup' }, 60000)`,
		"poll":  fill + `; let n = 0; setTimeout(function f() { n++; setTimeout(f, 200) }, 200)`,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/data", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<a href="/next">Next</a><p>late content</p>`)
	})
	mux.HandleFunc("/p/", func(w http.ResponseWriter, r *http.Request) {
		script, ok := pages[strings.TrimPrefix(r.URL.Path, "/p/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><html><head><title>t</title></head><body><div id="root"></div><script>%s</script></body></html>`, script)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newChromium(t, Options{Concurrency: 2, Wait: 8 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range []string{"late", "chain", "fetch", "far", "poll"} {
		r, err := c.Render(ctx, srv.URL+"/p/"+name)
		if err != nil || r.TimedOut {
			t.Errorf("%s: err %v, timed out %v: want a settled page", name, err, r.TimedOut)
			continue
		}
		// The script's own text holds the content too: look inside the root.
		if h := string(r.HTML); !strings.Contains(h, `<div id="root"><a href="/next">Next</a><p>late content</p></div>`) {
			t.Errorf("%s: the content the timer adds is missing from the page read:\n%s", name, h)
		}
		if name == "far" && strings.Contains(string(r.HTML), "<title>popup</title>") {
			t.Errorf("far: a timer of a minute was waited for")
		}
	}
}
