package diff

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"

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
// loc come out in the order they were added.
//
// In the sort a record is loc, data, its source and two lengths at the
// end: the loc comes first so that the sort's runs, which store what a
// record does not share with the one before, keep little more than the
// end of each loc; the source is a number, its place in srcs, for the
// first maxSources sources (most inputs have one source a sitemap file,
// repeated by all its entries), or 0 and the source itself past them.
// The lengths are uvarints written backwards (read from the record's
// end): len(data), then len(loc) last.
type sorter struct {
	es      *extsort.Sorter
	scratch []byte // the entry being encoded (sortSide)
	enc     []byte // the record being added
	srcs    []string
	srcIdx  map[string]int
	srcSize int // the bytes of srcs
}

// The sources a sorter numbers: at most maxSources of them, of at most
// maxSourceBytes in all, so the table stays small whatever the input.
const (
	maxSources     = 1 << 14
	maxSourceBytes = 2 << 20
)

func newSorter(dir string, chunkBytes, fanIn int) *sorter {
	return &sorter{es: extsort.New(extsort.Options{Dir: dir, Memory: chunkBytes, FanIn: fanIn}, compareLoc),
		srcIdx: map[string]int{}}
}

// appendRevUvarint appends the uvarint of v with its bytes in reverse
// order, to be read from the end by revUvarint.
func appendRevUvarint(b []byte, v uint64) []byte {
	n := len(b)
	b = binary.AppendUvarint(b, v)
	slices.Reverse(b[n:])
	return b
}

// revUvarint reads the uvarint appendRevUvarint put at the end of b and
// returns it and the bytes before it (false when b does not end in one).
func revUvarint(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, shift := len(b)-1, 0; i >= 0 && shift < 64; i, shift = i-1, shift+7 {
		c := b[i]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, b[:i], true
		}
	}
	return 0, nil, false
}

// splitRecord returns the loc, the data and the source part of an
// encoded record.
func splitRecord(b []byte) (loc, data, src []byte, ok bool) {
	nl, rest, ok := revUvarint(b)
	if !ok || uint64(len(rest)) < nl {
		return nil, nil, nil, false
	}
	nd, rest, ok := revUvarint(rest)
	if !ok || uint64(len(rest))-nl < nd {
		return nil, nil, nil, false
	}
	return rest[:nl], rest[nl : nl+nd], rest[nl+nd:], true
}

// recordLoc returns the loc of an encoded record (nil for a corrupt one):
// the sort's comparison, so a loc shorter than 128 bytes, whose length
// is the record's last byte, is read without revUvarint.
func recordLoc(b []byte) []byte {
	if n := len(b) - 1; n >= 0 && b[n] < 0x80 {
		if l := int(b[n]); l <= n {
			return b[:l]
		}
		return nil
	}
	nl, rest, ok := revUvarint(b)
	if !ok || uint64(len(rest)) < nl {
		return nil
	}
	return rest[:nl]
}

// compareLoc orders encoded records by loc.
func compareLoc(a, b []byte) int {
	return bytes.Compare(recordLoc(a), recordLoc(b))
}

func (s *sorter) add(r record) error {
	b := append(s.enc[:0], r.loc...)
	b = append(b, r.data...)
	i, ok := s.srcIdx[r.src]
	if !ok && len(s.srcs) < maxSources && s.srcSize+len(r.src) <= maxSourceBytes {
		i, ok = len(s.srcs), true
		s.srcs = append(s.srcs, r.src)
		s.srcIdx[r.src] = i
		s.srcSize += len(r.src)
	}
	if ok {
		b = binary.AppendUvarint(b, uint64(i)+1)
	} else {
		b = append(b, 0)
		b = append(b, r.src...)
	}
	b = appendRevUvarint(b, uint64(len(r.data)))
	b = appendRevUvarint(b, uint64(len(r.loc)))
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
	src string // the last Source read past the numbered ones, shared by the records that repeat it
	buf []byte
}

func (st *sorted) next() (record, error) {
	b, err := st.r.Next()
	if err != nil {
		return record{}, err
	}
	return st.decode(b)
}

// decode makes the record of b; its data is copied, its strings made.
func (st *sorted) decode(b []byte) (record, error) {
	loc, data, src, ok := splitRecord(b)
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
	ref, k := binary.Uvarint(src)
	switch {
	case k <= 0 || ref > uint64(len(st.s.srcs)) || (ref > 0 && k != len(src)):
		return record{}, errCorruptRun
	case ref > 0:
		rec.src = st.s.srcs[ref-1]
	default:
		if string(src[k:]) != st.src {
			st.src = string(src[k:])
		}
		rec.src = st.src
	}
	return rec, nil
}

func (st *sorted) close() error { return st.s.es.Close() }
