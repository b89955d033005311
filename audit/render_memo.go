package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/tmpdir"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// renderMemo is the audit's renderer when a crawl that renders with the
// same renderer follows it (Options.Crawl.Render): every page it renders
// is kept on disk, one file a page in a temporary directory (memory does
// not grow with the pages), for the crawl to take instead of rendering
// the page again (replay). A page that could not be kept, or that the
// audit did not render, is rendered by the crawl. close removes what is
// left.
type renderMemo struct {
	r crawl.Renderer

	mu      sync.Mutex
	dir     string // made at the first page kept
	release func()
	failed  bool // the directory could not be made: keep nothing
}

// memoFor returns the memo of o's renderer when o's crawl renders with
// the same one, else nil.
func memoFor(o Options) *renderMemo {
	if o.Render == nil || o.Crawl == nil || o.Crawl.Render == nil {
		return nil
	}
	if t := reflect.TypeOf(o.Render); !t.Comparable() || o.Render != o.Crawl.Render {
		return nil
	}
	return &renderMemo{r: o.Render}
}

// Render renders u and keeps the page for the crawl.
func (m *renderMemo) Render(ctx context.Context, u string) (crawl.Rendered, error) {
	rd, err := m.r.Render(ctx, u)
	if err == nil {
		m.put(u, rd)
	}
	return rd, err
}

// file is where the page of u is kept; "" when nothing can be kept.
func (m *renderMemo) file(u string, create bool) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dir == "" && create && !m.failed {
		dir, release, err := tmpdir.Make("", "sitemap-audit-render-*")
		if err != nil {
			m.failed = true
		} else {
			m.dir, m.release = dir, release
		}
	}
	if m.dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(urlnorm.Key(u)))
	return filepath.Join(m.dir, hex.EncodeToString(sum[:16])+".json")
}

// put keeps rd as the page of u, written aside and renamed so that the
// crawl never reads half a file. A failure keeps nothing.
func (m *renderMemo) put(u string, rd crawl.Rendered) {
	name := m.file(u, true)
	if name == "" {
		return
	}
	b, err := json.Marshal(rd)
	if err != nil {
		return
	}
	tmp := name + ".tmp"
	if os.WriteFile(tmp, b, 0o600) != nil || os.Rename(tmp, name) != nil {
		os.Remove(tmp)
	}
}

// take returns the page of u the audit rendered, once: the file is
// removed.
func (m *renderMemo) take(u string) (crawl.Rendered, bool) {
	var rd crawl.Rendered
	name := m.file(u, false)
	if name == "" {
		return rd, false
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return rd, false
	}
	os.Remove(name)
	return rd, json.Unmarshal(b, &rd) == nil
}

// renderer is what the audit renders its pages with: the memo when a
// crawl follows, else Options.Render.
func (a *Auditor) renderer() crawl.Renderer {
	if a.memo != nil {
		return a.memo
	}
	return a.o.Render
}

// replay is the crawl's renderer: a page the audit rendered as it was
// then, any other rendered by the renderer.
func (m *renderMemo) replay() crawl.Renderer { return replayRenderer{m} }

type replayRenderer struct{ m *renderMemo }

func (p replayRenderer) Render(ctx context.Context, u string) (crawl.Rendered, error) {
	if rd, ok := p.m.take(u); ok {
		return rd, nil
	}
	return p.m.r.Render(ctx, u)
}

// close removes the pages kept (nil: nothing to do).
func (m *renderMemo) close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.release != nil {
		m.release()
		m.dir, m.release = "", nil
	}
}
