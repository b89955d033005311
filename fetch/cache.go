package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// cache stores, per URL, the wire body of the last 200 response and its
// validators (ETag, Last-Modified), so the next walk can ask with
// If-None-Match / If-Modified-Since and reuse the body on 304. Files are
// written aside and renamed into place; a body that was not read to its
// end is never stored.
type cache struct{ dir string }

type cacheMeta struct {
	URL             string `json:"url"`
	FinalURL        string `json:"final_url"`
	ETag            string `json:"etag,omitempty"`
	LastModified    string `json:"last_modified,omitempty"`
	ContentType     string `json:"content_type,omitempty"`
	ContentEncoding string `json:"content_encoding,omitempty"`
}

func (c *cache) key(u string) string {
	h := sha256.Sum256([]byte(u))
	return filepath.Join(c.dir, hex.EncodeToString(h[:16]))
}

// lookup returns the stored validators of u, if any.
func (c *cache) lookup(u string) (cacheMeta, bool) {
	if c == nil {
		return cacheMeta{}, false
	}
	b, err := os.ReadFile(c.key(u) + ".json")
	if err != nil {
		return cacheMeta{}, false
	}
	var m cacheMeta
	if json.Unmarshal(b, &m) != nil || m.URL != u {
		return cacheMeta{}, false
	}
	if _, err := os.Stat(c.key(u) + ".body"); err != nil {
		return cacheMeta{}, false
	}
	return m, true
}

func (c *cache) open(u string) (io.ReadCloser, error) {
	return os.Open(c.key(u) + ".body")
}

// entry is a body being written to the cache.
type cacheEntry struct {
	c    *cache
	meta cacheMeta
	f    *os.File
	err  error
}

func (c *cache) create(m cacheMeta) *cacheEntry {
	if c == nil || (m.ETag == "" && m.LastModified == "") {
		return nil
	}
	f, err := os.CreateTemp(c.dir, ".body-*")
	if err != nil {
		return nil
	}
	return &cacheEntry{c: c, meta: m, f: f}
}

func (e *cacheEntry) Write(p []byte) (int, error) {
	if e.err == nil {
		_, e.err = e.f.Write(p)
	}
	return len(p), nil // a cache failure never fails the read
}

// commit renames the body and metadata into place.
func (e *cacheEntry) commit() {
	name := e.f.Name()
	if err := e.f.Close(); err != nil || e.err != nil {
		_ = os.Remove(name)
		return
	}
	k := e.c.key(e.meta.URL)
	b, _ := json.Marshal(e.meta)
	tmp := name + ".json"
	if os.WriteFile(tmp, b, 0o644) != nil {
		_ = os.Remove(name)
		_ = os.Remove(tmp)
		return
	}
	if os.Rename(name, k+".body") != nil || os.Rename(tmp, k+".json") != nil {
		_ = os.Remove(name)
		_ = os.Remove(tmp)
	}
}

func (e *cacheEntry) abort() {
	name := e.f.Name()
	_ = e.f.Close()
	_ = os.Remove(name)
}

// teeBody copies what is read from r into the cache entry.
type teeBody struct {
	r io.ReadCloser
	e *cacheEntry
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		_, _ = t.e.Write(p[:n])
	}
	return n, err
}

func (t *teeBody) Close() error { return t.r.Close() }
