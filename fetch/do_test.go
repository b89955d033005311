package fetch

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Do sends a request once as the caller built it, with the Client's
// User-Agent, and returns any status, a redirect unfollowed.
func TestDo(t *testing.T) {
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/there", http.StatusFound)
		case "/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		default:
			w.Header().Set("X-Got", r.Method+" "+r.UserAgent()+" "+r.Header.Get("X-Signed"))
			io.WriteString(w, "body")
		}
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{UserAgent: "probe/1"})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/k", strings.NewReader("data"))
	req.Header.Set("User-Agent", "sdk/9")
	req.Header.Set("X-Signed", "yes")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("X-Got"); got != "PUT probe/1 yes" || string(b) != "body" {
		t.Errorf("the server saw %q and sent %q; want the request as built, with the Client's User-Agent", got, b)
	}
	if req.Header.Get("User-Agent") != "sdk/9" {
		t.Errorf("Do changed the caller's request")
	}
	for path, want := range map[string]int{"/moved": http.StatusFound, "/busy": http.StatusServiceUnavailable} {
		hits = 0
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || hits != 1 {
			t.Errorf("%s: status %d after %d requests; want %d after one (no redirect followed, no retry)", path, resp.StatusCode, hits, want)
		}
	}

	// The Scope and the scheme are checked before anything is sent.
	scoped, err := NewClient(ClientOptions{Scope: Scope{Allow: []string{"example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	hits = 0
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/k", nil)
	var fe *Error
	if _, err := scoped.Do(req); !errors.As(err, &fe) || fe.Kind != KindScope || hits != 0 {
		t.Errorf("a host outside the scope: %v after %d requests; want a KindScope *Error and none", err, hits)
	}
	req, _ = http.NewRequest(http.MethodGet, "ftp://example.com/k", nil)
	if _, err := c.Do(req); !errors.As(err, &fe) || fe.Kind != KindBadURL {
		t.Errorf("ftp://: %v; want a KindBadURL *Error", err)
	}

	// Timeout bounds the exchange.
	quick, err := NewClient(ClientOptions{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/slow", nil)
	if resp, err := quick.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a server slower than Timeout: no error")
	}
}
