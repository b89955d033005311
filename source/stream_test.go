package source

import (
	"context"
	"errors"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// Entries yields every entry, hands refused ones to onError and goes on,
// and stops at the first error yield returns.
func TestEntries(t *testing.T) {
	in := "https://www.example.com/a\nhttps://www.example.com/b\xff\nhttps://www.example.com/c\n"
	var locs []string
	var bad []int
	err := Entries(NewText(strings.NewReader(in), Options{Name: "u.txt"}), func(e *Error) { bad = append(bad, e.Line) })(context.Background(), func(u *sitemap.URL) error {
		locs = append(locs, u.Loc)
		return nil
	})
	if err != nil || strings.Join(locs, " ") != "https://www.example.com/a https://www.example.com/c" || len(bad) != 1 || bad[0] != 2 {
		t.Errorf("err %v, locs %v, refused lines %v", err, locs, bad)
	}
	stop := errors.New("stop")
	n := 0
	err = Entries(NewText(strings.NewReader(in), Options{}), nil)(context.Background(), func(*sitemap.URL) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v after %d entries, want stop after 1", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Entries(NewText(strings.NewReader(in), Options{}), nil)(ctx, func(*sitemap.URL) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
