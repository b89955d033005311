package diff

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"

	"github.com/sitemapkit/sitemap/internal/extsort"
)

// record is one entry in the sort: its loc (the key), its temporary
// record without Loc and Source (tempcodec.go), and its Source (kept apart
// so that equal entries from different files have equal data).
type record struct {
	loc  string
	data []byte
	src  string
}

// sorter sorts records by loc through the module's one external sort
// (internal/extsort): records up to chunkBytes in memory, sorted runs in
// dir merged fanIn at a time. The sort is stable: records with the same
// loc come out in the order they were added. In the sort a record is
// uvarint(len(loc)) loc uvarint(len(data)) data src.
type sorter struct {
	es      *extsort.Sorter
	scratch []byte // the entry being encoded (sortSide)
	enc     []byte // the record being added
}

func newSorter(dir string, chunkBytes, fanIn int) *sorter {
	return &sorter{es: extsort.New(extsort.Options{Dir: dir, Memory: chunkBytes, FanIn: fanIn}, compareLoc)}
}

// splitLoc returns the loc of an encoded record and the rest.
func splitLoc(b []byte) ([]byte, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// compareLoc orders encoded records by loc.
func compareLoc(a, b []byte) int {
	la, _, _ := splitLoc(a)
	lb, _, _ := splitLoc(b)
	return bytes.Compare(la, lb)
}

func (s *sorter) add(r record) error {
	b := binary.AppendUvarint(s.enc[:0], uint64(len(r.loc)))
	b = append(b, r.loc...)
	b = binary.AppendUvarint(b, uint64(len(r.data)))
	b = append(b, r.data...)
	b = append(b, r.src...)
	s.enc = b
	return s.es.Add(b)
}

// stream yields records in loc order.
type stream interface {
	// next returns the next record, or io.EOF.
	next() (record, error)
	close() error
}

// finish returns the sorted stream of everything added. The caller
// closes the stream, which removes the sort's files.
func (s *sorter) finish(ctx context.Context) (stream, error) {
	r, err := s.es.Sort(ctx)
	if err != nil {
		s.es.Close()
		return nil, err
	}
	return &sorted{s: s, r: r}, nil
}

var errCorruptRun = errors.New("diff: corrupt temporary run file")

// readSlabSize is the size of the blocks the records' data is copied
// into as they are read (the caller keeps a record past the next one).
const readSlabSize = 4 << 10

// sorted is the sorted stream of a sorter.
type sorted struct {
	s   *sorter
	r   *extsort.Reader
	src string // the last Source read: records repeat it, so it is shared
	buf []byte
}

func (st *sorted) next() (record, error) {
	b, err := st.r.Next()
	if err != nil {
		return record{}, err
	}
	loc, rest, ok := splitLoc(b)
	if !ok {
		return record{}, errCorruptRun
	}
	data, src, ok := splitLoc(rest)
	if !ok {
		return record{}, errCorruptRun
	}
	rec := record{loc: string(loc)}
	if len(data) > readSlabSize/4 {
		rec.data = append([]byte(nil), data...)
	} else {
		if cap(st.buf)-len(st.buf) < len(data) {
			st.buf = make([]byte, 0, readSlabSize)
		}
		m := len(st.buf)
		st.buf = append(st.buf, data...)
		rec.data = st.buf[m:len(st.buf):len(st.buf)]
	}
	if string(src) != st.src {
		st.src = string(src)
	}
	rec.src = st.src
	return rec, nil
}

func (st *sorted) close() error { return st.s.es.Close() }
