package main

import (
	"io"
	"os"
	"sync"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// inputMeter is the done-of-total of generate's progress line: the bytes
// of the INPUT files read so far, of their total size. A file read whole
// counts whole; the one being read counts to its offset (polled at each
// redraw: the reader is not slowed by counting). Standard input has no
// size and is not counted. A nil *inputMeter does nothing.
type inputMeter struct {
	mu    sync.Mutex
	total int64
	done  int64
	sizes map[*input.Doc]int64
	cur   *os.File
}

func newInputMeter(docs []input.Doc) *inputMeter {
	m := &inputMeter{sizes: map[*input.Doc]int64{}}
	for i := range docs {
		if docs[i].Path == "" {
			continue
		}
		if st, err := os.Stat(docs[i].Path); err == nil && st.Mode().IsRegular() {
			m.sizes[&docs[i]] = st.Size()
			m.total += st.Size()
		}
	}
	return m
}

// reading says which file is being read now (nil: none).
func (m *inputMeter) reading(f *os.File) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.cur = f
	m.mu.Unlock()
}

// finish counts doc as read whole.
func (m *inputMeter) finish(doc *input.Doc) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.done += m.sizes[doc]
	m.mu.Unlock()
}

// measure returns the bytes read so far and the total.
func (m *inputMeter) measure() (done, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	done = m.done
	if m.cur != nil {
		if off, err := m.cur.Seek(0, io.SeekCurrent); err == nil {
			done += off
		}
	}
	return min(done, m.total), m.total
}

// fetchQueue is the done-of-total of fetch's progress line: the sitemaps
// read of those known so far, started or listed (by robots.txt or an
// index) and not started yet. Children listed but never read (repeats,
// off-site, past a cap) keep the total an estimate from above.
type fetchQueue struct {
	started, done int64
	pending       int64         // listed by a finished list, not started
	early         map[int]int64 // per list still being read: children started
	ended         map[int]bool  // lists read whole
}

// start counts a node that starts; it returns done and total.
func (q *fetchQueue) start(n *fetch.Node) (int64, int64) {
	if n != nil && n.Kind == fetch.NodeSitemap {
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
func (q *fetchQueue) end(n *fetch.Node) (int64, int64) {
	if n != nil {
		if n.Kind == fetch.NodeSitemap {
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
