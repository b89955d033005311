package serve

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// pageCache keeps built pages as files of Options.CacheDir, by the ETag of
// the representation (plain, gzip-encoded, .xml.gz): a page is built from
// the source once per change of the page, and then sent from its file.
// Files of pages that changed are removed at the next refresh.
type pageCache struct {
	dir      string
	mu       sync.Mutex
	files    map[string]cacheFile // by representation ETag
	building map[string]bool
}

type cacheFile struct {
	path string
	page string // the ETag of the page (or index) it is a representation of
}

func newPageCache(dir string) (*pageCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &pageCache{dir: dir, files: map[string]cacheFile{}, building: map[string]bool{}}, nil
}

// open returns the file of etag, or nil.
func (c *pageCache) open(etag string) (*os.File, bool) {
	c.mu.Lock()
	cf, ok := c.files[etag]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	f, err := os.Open(cf.path)
	if err != nil {
		return nil, false
	}
	return f, true
}

// start returns a file to write the representation etag of page into, or
// nil when it is cached or being written already; commit or abort it.
func (c *pageCache) start(etag, page string) *cacheWriter {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.files[etag]; ok || c.building[etag] {
		return nil
	}
	f, err := os.CreateTemp(c.dir, ".part-*")
	if err != nil {
		return nil
	}
	c.building[etag] = true
	return &cacheWriter{c: c, f: f, etag: etag, page: page}
}

// prune removes the files of every page whose ETag is not in live.
func (c *pageCache) prune(live map[string]bool) {
	c.mu.Lock()
	var gone []string
	for k, cf := range c.files {
		if !live[cf.page] {
			gone = append(gone, cf.path)
			delete(c.files, k)
		}
	}
	c.mu.Unlock()
	for _, p := range gone {
		os.Remove(p)
	}
}

// cacheWriter is one representation being written to the cache.
type cacheWriter struct {
	c          *pageCache
	f          *os.File
	etag, page string
	err        error
}

// Write never fails: a failure to write the file only drops it from the
// cache, it must not cut the answer.
func (w *cacheWriter) Write(b []byte) (int, error) {
	if w.err == nil {
		_, w.err = w.f.Write(b)
	}
	return len(b), nil
}

func (w *cacheWriter) commit() {
	err := w.err
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	name := filepath.Join(w.c.dir, "page-"+strings.Trim(strings.ReplaceAll(w.etag, `"`, ""), "-")+".xml")
	if err == nil {
		err = os.Rename(w.f.Name(), name)
	}
	w.c.mu.Lock()
	delete(w.c.building, w.etag)
	if err == nil {
		w.c.files[w.etag] = cacheFile{path: name, page: w.page}
	}
	w.c.mu.Unlock()
	if err != nil {
		os.Remove(w.f.Name())
	}
}

func (w *cacheWriter) abort() {
	w.f.Close()
	os.Remove(w.f.Name())
	w.c.mu.Lock()
	delete(w.c.building, w.etag)
	w.c.mu.Unlock()
}

// Warm builds into Options.CacheDir every page of the plain XML form that
// is not there yet, one at a time (within Options.MaxBuilds), then checks
// the source again every Options.Recheck and builds what changed, until
// ctx is done; it returns ctx's error. Without a CacheDir it returns nil at
// once. A server runs it beside the listener, so crawlers get built pages
// from the first request.
func (h *Handler) Warm(ctx context.Context) error {
	if h.cache == nil {
		return nil
	}
	bu := h.base
	every := h.o.Recheck
	if every <= 0 {
		every = time.Second
	}
	for {
		if s, err := h.current(ctx); err == nil {
			for _, p := range s.pages {
				if p.count == 0 || ctx.Err() != nil {
					continue
				}
				if f, _ := h.cache.open(p.etag); f != nil {
					f.Close()
					continue
				}
				cw := h.cache.start(p.etag, p.etag)
				if cw == nil {
					continue
				}
				if !h.acquire(ctx) {
					cw.abort()
					break
				}
				start := time.Now()
				_, err := h.writePage(ctx, cw, p, bu)
				h.release()
				if err != nil || cw.err != nil {
					cw.abort()
					continue
				}
				cw.commit()
				h.stats.warmed.Add(1)
				h.stats.observeBuild(time.Since(start))
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}

// acquire takes a build slot (false when ctx ended first); release gives
// it back.
func (h *Handler) acquire(ctx context.Context) bool {
	if h.sem == nil {
		return true
	}
	select {
	case h.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (h *Handler) release() {
	if h.sem != nil {
		<-h.sem
	}
}

// serveCached sends the cached file of etag, if there is one.
func (h *Handler) serveCached(w http.ResponseWriter, r *http.Request, etag string) bool {
	if h.cache == nil {
		return false
	}
	f, _ := h.cache.open(etag)
	if f == nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
	}
	// Straight to the connection (sendfile where the platform has it).
	n, err := io.Copy(w, f)
	h.stats.bytes.Add(n)
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	h.stats.cached.Add(1)
	h.stats.pages.Add(1)
	return true
}
