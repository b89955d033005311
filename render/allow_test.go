package render

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A page whose links come from another host's API (a host:port of its
// own here): blocked by default, so the rendered page has none; with the
// host in Options.AllowHosts (--render-allow), the links are there.
func TestAllowHosts(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `["/from-the-api"]`)
	}))
	defer api.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>t</title><body><script>
fetch("`+api.URL+`/links.json").then(r => r.json()).then(l => { for (const h of l) { const a = document.createElement("a"); a.href = h; a.textContent = h; document.body.appendChild(a) } })
</script>`)
	}))
	defer site.Close()
	apiHost := strings.TrimPrefix(api.URL, "http://")
	for _, allow := range [][]string{nil, {apiHost}} {
		c := newChromium(t, Options{Concurrency: 1, Wait: 20 * time.Second, AllowHosts: allow})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, err := c.Render(ctx, site.URL+"/")
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Contains(string(r.HTML), `href="/from-the-api"`), allow != nil; got != want {
			t.Errorf("AllowHosts %v: the API's link rendered %v, want %v\n%s", allow, got, want, r.HTML)
		}
	}
}
