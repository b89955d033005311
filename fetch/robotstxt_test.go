package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// RobotsTxt reads /robots.txt for a site's URL, says "no robots.txt" for
// a 4xx, and an error for anything else that is not 200.
func TestRobotsTxt(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow:\n\nSitemap: https://www.example.com/sitemap.xml\n"))
		case "/gone/robots.txt":
			http.Error(w, "gone", http.StatusGone)
		default:
			http.Error(w, "down", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	c := newTestClient(t, ClientOptions{})
	ctx := context.Background()
	for _, target := range []string{srv.URL, srv.URL + "/", srv.URL + "/robots.txt"} {
		r, err := c.RobotsTxt(ctx, target)
		if err != nil || r.File == nil || r.FinalURL != srv.URL+"/robots.txt" {
			t.Fatalf("%s: %+v %v", target, r, err)
		}
		if sm, _ := r.File.Sitemaps(nil); len(sm) != 1 {
			t.Errorf("%s: sitemaps %v", target, sm)
		}
	}
	if r, err := c.RobotsTxt(ctx, srv.URL+"/gone/robots.txt"); err != nil || r.File != nil || r.Status != 410 {
		t.Errorf("410: %+v %v, want no file and no error", r, err)
	}
	if _, err := c.RobotsTxt(ctx, srv.URL+"/down/robots.txt"); err == nil || !strings.Contains(err.Error(), "try again later") {
		t.Errorf("503: %v", err)
	}
	if _, err := c.RobotsTxt(ctx, "robots.txt"); err == nil || !strings.Contains(err.Error(), "is not a valid URL") {
		t.Errorf("no URL: %v", err)
	}
}
