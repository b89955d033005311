package fetch

import (
	"testing"
)

// The fetch queue of fetch's progress line: sitemaps done of those
// started or listed and not started yet, whether a child starts before
// or after its index is read whole.
func TestFetchQueue(t *testing.T) {
	q := &queue{}
	step := func(d, tot int64) func(int64, int64) {
		return func(gd, gt int64) {
			t.Helper()
			if gd != d || gt != tot {
				t.Errorf("%d of %d, want %d of %d", gd, gt, d, tot)
			}
		}
	}
	robots := &Node{ID: 1, Kind: NodeRobots}
	index := &Node{ID: 2, Parent: 1, Kind: NodeSitemap}
	step(0, 0)(q.start(robots))
	robots.Sitemaps = 1
	step(0, 1)(q.end(robots))
	step(0, 1)(q.start(index))
	child := func(id int) *Node { return &Node{ID: id, Parent: 2, Kind: NodeSitemap} }
	step(0, 2)(q.start(child(3))) // started while the index is read
	index.Sitemaps = 4
	step(1, 5)(q.end(index)) // 3 more listed, not started
	step(1, 5)(q.start(child(4)))
	step(2, 5)(q.end(child(3)))
	step(3, 5)(q.end(child(4)))
}
