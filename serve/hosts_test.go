package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// Without BaseURL, Host headers naming other ports of a loopback name, or
// other paths, build no other pages: the loopback host is taken at the
// port the request came in on, at the root.
func TestHostsDoNotMultiplyPages(t *testing.T) {
	h, err := NewHandler(Seq(seqOf("https://www.example.com/a"), nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	for i, host := range []string{"localhost:1", "localhost:2", "127.0.0.1:3", "localhost", "localhost:4"} {
		req, _ := http.NewRequest("GET", srv.URL+"/x"+string(rune('a'+i))+"/sitemap.xml", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b := body(t, res)
		if res.StatusCode != 200 || !strings.Contains(b, ":"+port+"/sitemap-1.xml") {
			t.Errorf("Host %s: %s\n%s", host, res.Status, b)
		}
	}
	if n := len(h.allSites()); n != 2 { // localhost and 127.0.0.1
		t.Errorf("%d sets of pages built, want 2", n)
	}
}

// A loc with a scheme other than http(s), or naming another host with
// "//", is not resolved against the base: the encoder refuses it, and it
// is left out and told.
func TestOddLocsNotResolved(t *testing.T) {
	var skipped []string
	src := Entries(func(ctx context.Context, yield func(*sitemap.URL) error) error {
		// Entries must come in loc order.
		for _, l := range []string{"//evil.example/x", "//www.example.com/ok", "/b", "c:d", "javascript:alert(1)", "mailto:a@b.c"} {
			if err := yield(&sitemap.URL{Loc: l}); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Skipped: func(loc string, err error) { skipped = append(skipped, loc) }})
	if err != nil {
		t.Fatal(err)
	}
	got := locs(body(t, get(t, h, "GET", "/sitemap-1.xml")))
	if strings.Join(got, " ") != "https://www.example.com/ok https://www.example.com/b" {
		t.Errorf("served %q", got)
	}
	if len(skipped) != 4 {
		t.Errorf("told %q, want the four others", skipped)
	}
}
