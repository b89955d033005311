package serve

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// failing is a source of n entries whose walks fail after failAt entries
// (never when failAt < 0), and whose change check fails when badVersion.
type failing struct {
	n, failAt  int
	badVersion bool
}

func (f *failing) Version(context.Context) (string, error) {
	if f.badVersion {
		return "", errors.New("database is down")
	}
	return "v", nil
}

func (f *failing) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	for i := range f.n {
		if f.failAt >= 0 && i >= f.failAt {
			return errors.New("connection reset")
		}
		loc := "https://www.example.com/" + strings.Repeat("a", 200) + string(rune('a'+i%26)) + strings.Repeat("z", i)
		if err := fn(loc, &sitemap.URL{Loc: loc}); err != nil {
			return err
		}
	}
	return nil
}

// A source that fails: 503 with the reason before the first byte; a
// connection cut after it, never a short document that looks whole; a
// failing change check keeps the pages there are.
func TestSourceErrors(t *testing.T) {
	f := &failing{n: 500, failAt: -1, badVersion: true}
	h, err := NewHandler(f, Options{Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := get(t, h, "GET", "/sitemap.xml")
	if b := body(t, res); res.StatusCode != 503 || !strings.Contains(b, "database is down") {
		t.Errorf("change check failing: %s %q", res.Status, b)
	}
	f.badVersion = false
	if res := get(t, h, "GET", "/sitemap-1.xml"); res.StatusCode != 200 {
		t.Fatalf("page 1: %s", res.Status)
	}
	f.failAt = 0
	res = get(t, h, "GET", "/sitemap-1.xml")
	if b := body(t, res); res.StatusCode != 503 || !strings.Contains(b, "connection reset") || res.Header.Get("ETag") != "" {
		t.Errorf("source failing at once: %s %v %q", res.Status, res.Header, b)
	}
	f.failAt = 400 // after the encoder's first 32 KiB went out
	srv := httptest.NewServer(h)
	defer srv.Close()
	r, err := http.Get(srv.URL + "/sitemap-1.xml")
	if err != nil {
		return // cut before the client read the headers: no document at all
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err == nil || strings.HasSuffix(string(b), "</urlset>\n") {
		t.Errorf("source failing mid-page: read %d bytes, err %v; want the connection cut", len(b), err)
	}
}
