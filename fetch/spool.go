package fetch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/sitemapkit/sitemap/internal/check"
)

// urlSpool keeps the URLs of a [Tree] with TreeOptions.URLs, each
// sitemap's apart, so the tree can list them under their sitemap once the
// walk is over (sitemaps are read concurrently and the tree is written in
// index order). URLs go to a temporary file in chunks; memory holds at
// most spoolChunk bytes per sitemap being read, whatever the site's size.
type urlSpool struct {
	f    *os.File
	size int64
	buf  map[int]*bytes.Buffer // per node: URLs not yet in the file
	segs map[int][]spoolSeg    // per node: its URLs' chunks in the file
	err  error
}

// spoolSeg is a chunk of the spool file: one node's URLs, one a line.
type spoolSeg struct{ off, n int64 }

// spoolChunk is how many bytes of one node's URLs are held in memory
// before they go to the file.
const spoolChunk = 256 << 10

func newURLSpool(dir string) (*urlSpool, error) {
	f, err := os.CreateTemp(dir, "sitemap-fetch-urls-*")
	if err != nil {
		return nil, fmt.Errorf("--urls: temporary file: %w", err)
	}
	if runtime.GOOS != "windows" {
		// Unlinked at once: a killed run leaves nothing in $TMPDIR.
		os.Remove(f.Name())
	}
	return &urlSpool{f: f, buf: map[int]*bytes.Buffer{}, segs: map[int][]spoolSeg{}}, nil
}

// add keeps loc, listed by node id.
func (s *urlSpool) add(id int, loc string) {
	b := s.buf[id]
	if b == nil {
		b = &bytes.Buffer{}
		s.buf[id] = b
	}
	b.WriteString(check.EscapeControls(loc))
	b.WriteByte('\n')
	if b.Len() >= spoolChunk {
		s.flush(id)
	}
}

// flush moves node id's URLs held in memory to the file.
func (s *urlSpool) flush(id int) {
	b := s.buf[id]
	if b == nil || b.Len() == 0 {
		delete(s.buf, id)
		return
	}
	if s.err == nil {
		n, err := s.f.Write(b.Bytes())
		s.segs[id] = append(s.segs[id], spoolSeg{s.size, int64(n)})
		s.size += int64(n)
		s.err = err
	}
	delete(s.buf, id)
}

// write copies node id's URLs to w, each line after indent.
func (s *urlSpool) write(w *bufio.Writer, id int, indent string) error {
	s.flush(id)
	if s.err != nil {
		return fmt.Errorf("--urls: temporary file: %w", s.err)
	}
	for _, seg := range s.segs[id] {
		sc := bufio.NewScanner(io.NewSectionReader(s.f, seg.off, seg.n))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			w.WriteString(indent)
			w.Write(sc.Bytes())
			w.WriteByte('\n')
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("--urls: temporary file: %w", err)
		}
	}
	return nil
}

// close removes the file.
func (s *urlSpool) close() {
	if s != nil && s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
	}
}
