package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// ListenAndServe serves the site and the admin endpoints, stops when its
// context is done, and reports a busy address and a Stop error as such.
func TestListenAndServe(t *testing.T) {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "site\n") })
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan [2]net.Addr, 1)
	stopping := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, site, ServerOptions{
			Addr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", AccessLog: io.Discard,
			ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, ShutdownTimeout: time.Second,
			Listening: func(s, a net.Addr) { addrs <- [2]net.Addr{s, a} },
			Stopping:  func() { close(stopping) },
		})
	}()
	a := <-addrs
	get := func(addr net.Addr, path string) (int, string) {
		t.Helper()
		res, err := http.Get("http://" + addr.String() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(a[0], "/sitemap.xml"); code != 200 || body != "site\n" {
		t.Errorf("site: %d %q", code, body)
	}
	if code, body := get(a[1], "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	if code, body := get(a[1], "/metrics"); code != 200 || !strings.Contains(body, "sitemap_serve_requests") {
		t.Errorf("metrics: %d %q", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("after ctx done: %v", err)
	}
	<-stopping

	// The address taken: a ListenError naming it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = ListenAndServe(context.Background(), site, ServerOptions{Addr: ln.Addr().String()})
	var le *ListenError
	if !errors.As(err, &le) || le.Admin || le.Addr != ln.Addr().String() {
		t.Errorf("busy address: %v", err)
	}
	// An error on Stop ends the server with it.
	stop := make(chan error, 1)
	stop <- errors.New("feed down")
	err = ListenAndServe(context.Background(), site, ServerOptions{Addr: "127.0.0.1:0", Stop: stop})
	var se *StopError
	if !errors.As(err, &se) || se.Err.Error() != "feed down" {
		t.Errorf("stop: %v", err)
	}
}

// Without an admin address, the admin endpoints answer loopback clients
// only.
func TestLoopbackOnly(t *testing.T) {
	h := LoopbackOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	for _, c := range []struct {
		remote string
		header string // a header a proxy adds, "Name: value"
		code   int
	}{
		{"127.0.0.1:1234", "", 200}, {"[::1]:1234", "", 200}, {"192.0.2.1:1234", "", 403}, {"bogus", "", 403},
		// Through a proxy on this machine: a client from anywhere.
		{"127.0.0.1:1234", "X-Forwarded-For: 192.0.2.1", 403},
		{"127.0.0.1:1234", "X-Real-IP: 192.0.2.1", 403},
		{"[::1]:1234", "Forwarded: for=192.0.2.1", 403},
	} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = c.remote
		if name, value, ok := strings.Cut(c.header, ": "); ok {
			r.Header.Set(name, value)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.code {
			t.Errorf("%s %s: %d, want %d", c.remote, c.header, w.Code, c.code)
		}
	}
}
