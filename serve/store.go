package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
)

// blob is the gzip form of one built document.
type blob interface {
	// open returns the gzip bytes; it fails once the blob is dropped.
	open() (io.ReadCloser, error)
	// size is the length of the gzip bytes.
	size() int64
	// drop frees the blob; readers that opened it may finish.
	drop()
}

// blobStore keeps blobs: in memory ([memStore]) or as files of a
// directory ([dirStore]).
type blobStore interface {
	// put stores the gzip form of the document write writes.
	put(write func(io.Writer) error) (blob, error)
}

// gzipTo compresses what write writes into w, at the speed a page build
// needs (a 5 MB page in about 20 ms).
func gzipTo(w io.Writer, write func(io.Writer) error) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return err
	}
	if err := write(zw); err != nil {
		return err
	}
	return zw.Close()
}

// memStore keeps blobs in memory: about a tenth of the documents' size
// (a sitemap compresses about tenfold), some 12 bytes per entry.
type memStore struct{}

type memBlob struct{ b []byte }

func (memStore) put(write func(io.Writer) error) (blob, error) {
	var buf bytes.Buffer
	if err := gzipTo(&buf, write); err != nil {
		return nil, err
	}
	return &memBlob{bytes.Clone(buf.Bytes())}, nil
}

func (b *memBlob) open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b.b)), nil }
func (b *memBlob) size() int64                  { return int64(len(b.b)) }
func (b *memBlob) drop()                        {}

// dirStore keeps blobs as files of a directory the handler owns: each is
// written to a temporary file (".part-*") and renamed into place whole,
// and removed when no snapshot needs it. newDirStore removes what an
// earlier run left there (killed before it could), so nothing piles up.
type dirStore struct {
	dir  string
	seq  atomic.Int64
	lock *os.File // the directory's flock, held until close
}

func (s *dirStore) close() error { return s.lock.Close() }

// Names of the files a dirStore writes.
const (
	partPrefix = ".part-"
	blobPrefix = "doc-"
	blobSuffix = ".xml.gz"
)

func newDirStore(dir string) (*dirStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		lock.Close()
		return nil, err
	}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && (strings.HasPrefix(n, partPrefix) || strings.HasPrefix(n, blobPrefix) && strings.HasSuffix(n, blobSuffix)) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
				lock.Close()
				return nil, fmt.Errorf("removing what an earlier run left: %w", err)
			}
		}
	}
	return &dirStore{dir: dir, lock: lock}, nil
}

type fileBlob struct {
	path string
	n    int64
}

func (s *dirStore) put(write func(io.Writer) error) (blob, error) {
	f, err := os.CreateTemp(s.dir, partPrefix+"*")
	if err != nil {
		return nil, err
	}
	cw := &countWriter{w: f}
	err = gzipTo(cw, write)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	name := filepath.Join(s.dir, blobPrefix+strconv.FormatInt(s.seq.Add(1), 10)+blobSuffix)
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	return &fileBlob{path: name, n: cw.n}, nil
}

func (b *fileBlob) open() (io.ReadCloser, error) { return os.Open(b.path) }
func (b *fileBlob) size() int64                  { return b.n }
func (b *fileBlob) drop()                        { os.Remove(b.path) }

// countWriter counts the bytes written through it.
type countWriter struct {
	w     io.Writer
	n     int64
	wrote bool
}

func (c *countWriter) Write(b []byte) (int, error) {
	c.wrote = true
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
