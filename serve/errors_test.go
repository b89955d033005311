package serve

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

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

// A source that fails: 503 while there are no pages (never a short page
// that looks whole, and never the database's error in the body); once
// there are, a failing check keeps them.
func TestSourceErrors(t *testing.T) {
	f := &failing{n: 500, failAt: -1, badVersion: true}
	h, err := NewHandler(f, Options{Hosts: []string{"www.example.com"}, Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := get(t, h, "GET", "/sitemap.xml")
	if b := body(t, res); res.StatusCode != 503 || strings.Contains(b, "database is down") {
		t.Errorf("change check failing: %s %q", res.Status, b)
	}
	f.badVersion, f.failAt = false, 400
	res = get(t, h, "GET", "/sitemap-1.xml")
	if b := body(t, res); res.StatusCode != 503 || strings.Contains(b, "connection reset") || res.Header.Get("ETag") != "" {
		t.Errorf("source failing mid-page: %s %v %.200q", res.Status, res.Header, b)
	}
	f.failAt = -1
	res = get(t, h, "GET", "/sitemap-1.xml")
	whole := body(t, res)
	if res.StatusCode != 200 || strings.Count(whole, "<url>") != 500 {
		t.Fatalf("page 1: %s", res.Status)
	}
	etag := res.Header.Get("ETag")
	for _, bad := range []func(){func() { f.failAt = 0 }, func() { f.failAt = 400 }, func() { f.failAt, f.badVersion = -1, true }} {
		bad()
		res = get(t, h, "GET", "/sitemap-1.xml")
		if b := body(t, res); res.StatusCode != 200 || b != whole || res.Header.Get("ETag") != etag {
			t.Errorf("a failing check after the pages were built: %s, ETag %s, the same page %v", res.Status, res.Header.Get("ETag"), b == whole)
		}
	}
}

// dropped is a source of two entries, one a page, whose table is dropped
// once gone is set: the walk of the second page fails at once, the walk of
// the first only when it is cancelled (its query was under way).
type dropped struct{ gone bool }

func (d *dropped) Version(context.Context) (string, error) {
	if d.gone {
		return "2", nil
	}
	return "1", nil
}

func (d *dropped) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	if d.gone {
		if after != nil {
			return errors.New("no such table: pages")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
	for _, loc := range []string{"https://www.example.com/a", "https://www.example.com/b"} {
		if (after == nil || loc > after.(string)) && (upto == nil || loc <= upto.(string)) {
			if err := fn(loc, &sitemap.URL{Loc: loc}); err != nil {
				return err
			}
		}
	}
	return nil
}

// A check that fails says why: the error of the page whose read failed,
// not the "context canceled" of the reads it cut short (a dropped table
// was logged as "reading the entries: context canceled").
func TestCheckErrorIsTheCause(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // two pages read at once
	src := &dropped{}
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	src.gone = true
	err = h.Refresh(t.Context())
	if err == nil || !strings.Contains(err.Error(), "no such table: pages") {
		t.Fatalf("check of a dropped table: %v, want the table's error", err)
	}
}
