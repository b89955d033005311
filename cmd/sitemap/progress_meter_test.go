package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// The input meter of generate's progress line: the bytes read of the
// INPUT files' total size, a finished file whole, the one being read to
// its offset; standard input adds nothing to the total.
func TestInputMeter(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, make([]byte, 1000), 0o644)
	os.WriteFile(b, make([]byte, 3000), 0o644)
	docs := []input.Doc{{Name: a, Path: a}, {Name: "-", Stdin: true}, {Name: b, Path: b}}
	m := newInputMeter(docs)
	if d, tot := m.measure(); d != 0 || tot != 4000 {
		t.Fatalf("before: %d of %d, want 0 of 4000", d, tot)
	}
	m.finish(&docs[0])
	m.finish(&docs[1])
	f, err := os.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m.reading(f)
	f.Read(make([]byte, 1500))
	if d, tot := m.measure(); d != 2500 || tot != 4000 {
		t.Fatalf("halfway through b: %d of %d, want 2500 of 4000", d, tot)
	}
	m.reading(nil)
	m.finish(&docs[2])
	if d, _ := m.measure(); d != 4000 {
		t.Fatalf("at the end: %d", d)
	}
	var nilMeter *inputMeter
	nilMeter.reading(f)
	nilMeter.finish(&docs[0])
}

// The fetch queue of fetch's progress line: sitemaps done of those
// started or listed and not started yet, whether a child starts before
// or after its index is read whole.
func TestFetchQueue(t *testing.T) {
	q := &fetchQueue{}
	step := func(d, tot int64) func(int64, int64) {
		return func(gd, gt int64) {
			t.Helper()
			if gd != d || gt != tot {
				t.Errorf("%d of %d, want %d of %d", gd, gt, d, tot)
			}
		}
	}
	robots := &fetch.Node{ID: 1, Kind: fetch.NodeRobots}
	index := &fetch.Node{ID: 2, Parent: 1, Kind: fetch.NodeSitemap}
	step(0, 0)(q.start(robots))
	robots.Sitemaps = 1
	step(0, 1)(q.end(robots))
	step(0, 1)(q.start(index))
	child := func(id int) *fetch.Node { return &fetch.Node{ID: id, Parent: 2, Kind: fetch.NodeSitemap} }
	step(0, 2)(q.start(child(3))) // started while the index is read
	index.Sitemaps = 4
	step(1, 5)(q.end(index)) // 3 more listed, not started
	step(1, 5)(q.start(child(4)))
	step(2, 5)(q.end(child(3)))
	step(3, 5)(q.end(child(4)))
}
