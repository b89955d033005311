package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRetryAfter: any header value gives a bounded, non-negative delay.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"1", "0", "-1", "120", "99999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "Mon, 02 Nov 2026 10:00:30 GMT", "soon", " 5 ", ""} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := retryAfter(v, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("retryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}

// FuzzClassify: any start string is either rejected or classified as an
// absolute http(s) URL.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"https://www.example.com/", "http://e.com/robots.txt", "https://e.com/s.xml.gz", "e.com", "ftp://x/", "https://", "http://[::1]:80/a#b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, u, err := classify(s)
		if err != nil {
			return
		}
		if u == nil || u.Host == "" || (k != NodeStart && k != NodeRobots && k != NodeSitemap) {
			t.Fatalf("classify(%q) = %v, %v", s, k, u)
		}
	})
}

// FuzzWalkBody serves arbitrary bytes as a sitemap index on 127.0.0.1 and
// walks it: no panic, no hang, and every URL handed out is a loc the body
// could have named.
func FuzzWalkBody(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/s.xml</loc></sitemap><sitemap><loc>/i.xml</loc></sitemap></sitemapindex>`))
	f.Add([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc></url></urlset>`))
	f.Add([]byte("https://e.com/a\nhttps://e.com/b\n"))
	f.Add(gz([]byte(`<urlset><url><loc>https://e.com/z</loc></url></urlset>`)))
	f.Add([]byte(`<html><body>not found</body></html>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/i.xml":
				w.Write(body)
			case "/s.xml":
				w.Write(urlset("https://e.com/child"))
			default:
				http.NotFound(w, r)
			}
		}))
		defer srv.Close()
		// Every connection goes to the test server, whatever host a
		// fuzzed loc names: nothing leaves 127.0.0.1.
		addr := srv.Listener.Addr().String()
		tr := &http.Transport{DisableCompression: true, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		}}
		defer tr.CloseIdleConnections()
		o := Options{Client: &http.Client{Transport: tr, CheckRedirect: checkRedirect}, SitemapTimeout: 2 * time.Second, IdleTimeout: time.Second, Attempts: 1, MaxSitemaps: 20}
		_, err := Walk(t.Context(), srv.URL+"/i.xml", o, func(ev Event) error {
			if ev.Kind == EventURL && ev.URL.Loc == "" {
				t.Fatal("empty loc handed out")
			}
			if ev.Kind == EventDiagnostic && strings.TrimSpace(string(ev.Diagnostic.Rule)) == "" {
				t.Fatalf("diagnostic without a rule: %v", ev.Diagnostic)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
