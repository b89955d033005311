package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

func locs(n int, fail error) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range n {
			if err := yield(&sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/p%03d", i)}); err != nil {
				return err
			}
		}
		return fail
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// A run writes its pages and removes an earlier run's pages past its
// last; a run that fails leaves the directory as it was, no temporary
// file included.
func TestWritePages(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	if _, err := WritePages(ctx, dir, locs(25, nil), PageOptions{PerPage: 5}); err != nil {
		t.Fatal(err)
	}
	want := []string{"index.html", "page-2.html", "page-3.html", "page-4.html", "page-5.html"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	boom := errors.New("boom")
	if _, err := WritePages(ctx, dir, locs(8, boom), PageOptions{PerPage: 5}); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if got := names(t, dir); !slices.Equal(got, want) || string(before) != string(after) {
		t.Fatalf("a failed run changed the directory: %v", got)
	}
	sum, err := WritePages(ctx, dir, locs(8, nil), PageOptions{PerPage: 5})
	if err != nil || sum.Pages != 2 || sum.Links != 8 {
		t.Fatalf("%+v %v", sum, err)
	}
	if got := names(t, dir); !slices.Equal(got, want[:2]) {
		t.Fatalf("got %v, want %v", got, want[:2])
	}
	if fi, _ := os.Stat(filepath.Join(dir, "index.html")); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// Items: an urlset, an index, an empty document, and an error of next.
func TestItems(t *testing.T) {
	run := func(items []sitemap.Item, fail error) (string, error) {
		i := 0
		var b strings.Builder
		err := Items(context.Background(), &b, func() (*sitemap.Item, error) {
			if i == len(items) {
				if fail != nil {
					return nil, fail
				}
				return nil, io.EOF
			}
			i++
			return &items[i-1], nil
		}, Options{})
		return b.String(), err
	}
	u := sitemap.Item{Kind: sitemap.ItemURL, URL: sitemap.URL{Loc: "https://e.com/page-a"}}
	x := sitemap.Item{Kind: sitemap.ItemIndex, Index: sitemap.IndexEntry{Loc: "https://e.com/child-b.xml"}}
	if out, err := run([]sitemap.Item{u, x, u}, nil); err != nil || strings.Count(out, "page-a") < 2 || strings.Contains(out, "child-b") {
		t.Errorf("urlset: %v\n%s", err, out)
	}
	if out, err := run([]sitemap.Item{x, u}, nil); err != nil || !strings.Contains(out, "child-b") || strings.Contains(out, "page-a") {
		t.Errorf("index: %v\n%s", err, out)
	}
	if out, err := run(nil, nil); err != nil || !strings.Contains(out, "<table") {
		t.Errorf("empty: %v\n%s", err, out)
	}
	boom := errors.New("boom")
	if _, err := run([]sitemap.Item{u}, boom); !errors.Is(err, boom) {
		t.Errorf("error: %v", err)
	}
	if _, err := run(nil, boom); !errors.Is(err, boom) {
		t.Errorf("first error: %v", err)
	}
}
