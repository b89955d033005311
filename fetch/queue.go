package fetch

// queue is the done-of-total of [Run]'s progress line: the sitemaps read
// of those known so far, started or listed (by robots.txt or an index)
// and not started yet. Children listed but never read (repeats,
// off-site, past a cap) keep the total an estimate from above.
type queue struct {
	started, done int64
	pending       int64         // listed by a finished list, not started
	early         map[int]int64 // per list still being read: children started
	ended         map[int]bool  // lists read whole
}

// start counts a node that starts; it returns done and total.
func (q *queue) start(n *Node) (int64, int64) {
	if n != nil && n.Kind == NodeSitemap {
		q.started++
		if q.ended[n.Parent] {
			q.pending = max(0, q.pending-1)
		} else {
			if q.early == nil {
				q.early = map[int]int64{}
			}
			q.early[n.Parent]++
		}
	}
	return q.done, q.started + q.pending
}

// end counts a node that ends; it returns done and total.
func (q *queue) end(n *Node) (int64, int64) {
	if n != nil {
		if n.Kind == NodeSitemap {
			q.done++
		}
		if n.Sitemaps > 0 {
			q.pending += max(0, int64(n.Sitemaps)-q.early[n.ID])
			if q.ended == nil {
				q.ended = map[int]bool{}
			}
			q.ended[n.ID] = true
		}
		delete(q.early, n.ID)
	}
	return q.done, q.started + q.pending
}
