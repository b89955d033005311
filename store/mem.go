package store

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sync"
)

// MemStore keeps files in memory, for tests. Publication is atomic: a
// file becomes visible only through Publish. The zero value is an empty
// store, as Memory returns.
type MemStore struct {
	mu    sync.Mutex
	files map[string][]byte
	open  int // files created and neither published nor aborted
}

// Memory returns an empty in-memory store.
func Memory() *MemStore { return &MemStore{files: map[string][]byte{}} }

type memFile struct {
	s     *MemStore
	name  string
	buf   bytes.Buffer
	state int // 0 open, 1 committed, 2 done
}

// Create implements Store.
func (s *MemStore) Create(ctx context.Context, name string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.open++
	s.mu.Unlock()
	return &memFile{s: s, name: name}, nil
}

func (f *memFile) Name() string { return f.name }

// Rename implements Renamer.
func (f *memFile) Rename(name string) error {
	if f.state == 2 {
		return ErrClosed
	}
	if err := checkName(name); err != nil {
		return err
	}
	f.name = name
	return nil
}

func (f *memFile) Write(p []byte) (int, error) {
	if f.state != 0 {
		return 0, ErrClosed
	}
	return f.buf.Write(p)
}

func (f *memFile) Commit() error {
	if f.state != 0 {
		return ErrClosed
	}
	f.state = 1
	return nil
}

func (f *memFile) Abort() error {
	if f.state == 2 {
		return nil
	}
	f.state = 2
	f.s.mu.Lock()
	f.s.open--
	f.s.mu.Unlock()
	return nil
}

// Publish implements Store.
func (s *MemStore) Publish(ctx context.Context, p Publication) error {
	if p.Journal != "" {
		if err := checkName(p.Journal); err != nil {
			return err
		}
	}
	names := map[string]bool{}
	for _, f := range p.Files {
		mf, ok := f.(*memFile)
		if !ok || mf.s != s {
			return fmt.Errorf("store: file %q does not belong to this store", f.Name())
		}
		if mf.state != 1 {
			return fmt.Errorf("%w: %s", ErrNotCommitted, mf.name)
		}
		names[mf.name] = true
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	for _, f := range p.Files {
		mf := f.(*memFile)
		s.files[mf.name] = bytes.Clone(mf.buf.Bytes())
		mf.state = 2
		s.open--
	}
	for _, r := range p.Remove {
		if !names[r] {
			delete(s.files, r)
		}
	}
	return nil
}

// Recover implements Store; memory never holds a half-done publication.
func (s *MemStore) Recover(ctx context.Context, journal string, owns func(string) bool) error {
	return ctx.Err()
}

// Remove implements Store.
func (s *MemStore) Remove(ctx context.Context, name string) error {
	s.mu.Lock()
	delete(s.files, name)
	s.mu.Unlock()
	return nil
}

// Open implements Store.
func (s *MemStore) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	s.mu.Lock()
	b, ok := s.files[name]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("store: %s: %w", name, fs.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// List implements Store.
func (s *MemStore) List(ctx context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.files))
	for n := range s.files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// Bytes returns a copy of a published file, or nil when it is absent.
func (s *MemStore) Bytes(name string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.files[name])
}

// Pending returns how many created files were neither published nor
// aborted: a test's check that a run cleaned up after itself.
func (s *MemStore) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}
