package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// WriterStore publishes one file to an io.Writer, such as standard
// output: the single sitemap of a run without an index. Its bytes go to
// the writer as the file is written (a builder writes a file only once it
// is complete), and are flushed by Commit; Publish then has nothing left
// to do. A second file is refused, as is renaming one (package build
// therefore never writes an index there: see build.Options.Index). It
// holds no published files: Open finds none and List is empty, so nothing
// is ever removed.
type WriterStore struct {
	w       io.Writer
	created bool
}

// Writer returns a store that writes its one file to w.
func Writer(w io.Writer) *WriterStore { return &WriterStore{w: w} }

// ErrOneFile is returned by a WriterStore's Create for a second file.
var ErrOneFile = errors.New("store: a writer takes one file")

type writerFile struct {
	name  string
	w     *bufio.Writer
	state int // 0 open, 1 committed, 2 aborted or published
}

// Create implements Store.
func (s *WriterStore) Create(ctx context.Context, name string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	if s.created {
		return nil, fmt.Errorf("%w (%s)", ErrOneFile, name)
	}
	s.created = true
	return &writerFile{name: name, w: bufio.NewWriterSize(s.w, 64<<10)}, nil
}

func (f *writerFile) Name() string { return f.name }

func (f *writerFile) Write(p []byte) (int, error) {
	if f.state != 0 {
		return 0, ErrClosed
	}
	return f.w.Write(p)
}

func (f *writerFile) Commit() error {
	if f.state != 0 {
		return ErrClosed
	}
	f.state = 1
	return f.w.Flush()
}

// Abort implements File. Bytes already flushed to the writer stay there.
func (f *writerFile) Abort() error {
	f.state = 2
	return nil
}

// Publish implements Store.
func (s *WriterStore) Publish(ctx context.Context, p Publication) error {
	for _, f := range p.Files {
		wf, ok := f.(*writerFile)
		if !ok {
			return fmt.Errorf("store: file %q does not belong to this store", f.Name())
		}
		if wf.state != 1 {
			return fmt.Errorf("%w: %s", ErrNotCommitted, wf.name)
		}
		wf.state = 2
	}
	return nil
}

// Recover implements Store; a writer holds nothing to recover.
func (s *WriterStore) Recover(ctx context.Context, journal string, owns func(string) bool) error {
	return ctx.Err()
}

// Remove implements Store; nothing is published to remove.
func (s *WriterStore) Remove(ctx context.Context, name string) error { return nil }

// Open implements Store: there are no published files to read.
func (s *WriterStore) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("store: %s: %w", name, fs.ErrNotExist)
}

// List implements Store: there are no published files.
func (s *WriterStore) List(ctx context.Context) ([]string, error) { return nil, nil }
