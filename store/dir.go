package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// DirStore keeps files in one local directory. A file is written to a
// hidden temporary name in the same directory (".NAME.<random>.tmp"),
// synced and renamed into place by Publish, so a reader of the
// directory sees either the old file or the new one, never a part.
// Published files get mode 0644.
//
// A publication without a journal renames its files in order, syncing the
// directory before the last rename (the index of a set of sitemaps), so
// that after a crash the last file is never in place without the ones
// before it; then it removes what it was told to. A publication with a
// journal first writes one that lists every rename and removal, syncs it
// and the directory, and only then renames; the journal is removed when
// everything is done, and Recover finishes a journal a killed run left
// behind. Lock (see Locker) keeps two runs from writing into the
// directory at once.
type DirStore struct {
	dir string
	// afterRename, when set (tests), is called after each rename of a
	// publication with the number of renames done so far.
	afterRename func(done int)
}

// Dir returns a store for the directory path, creating it (and its
// parents, mode 0755) when it does not exist.
func Dir(path string) (*DirStore, error) {
	if path == "" {
		return nil, errors.New("store: empty directory path")
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, syscall.ENOTDIR) {
			// mkdir says only "not a directory"; name the file in the way.
			if st, serr := os.Stat(pe.Path); serr == nil && !st.IsDir() {
				return nil, fmt.Errorf("store: cannot create output directory %s: %s is a file, not a directory", path, pe.Path)
			}
		}
		return nil, fmt.Errorf("store: cannot create output directory: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("store: %s is not a directory", path)
	}
	return &DirStore{dir: path}, nil
}

// maxSyncs is how many files Publish syncs at once.
const maxSyncs = 8

// Path returns the directory of the store.
func (s *DirStore) Path() string { return s.dir }

// checkName rejects names that are not plain file names of this directory,
// or that the journal format cannot carry.
func checkName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("store: invalid file name %q", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("store: file name %q starts with a dot (reserved for temporary files)", name)
	case strings.ContainsAny(name, "/\\\x00\t\n\r"):
		return fmt.Errorf("store: file name %q contains a path separator or control character", name)
	}
	return nil
}

const tmpSuffix = ".tmp"

// tempName returns ".NAME.<16 hex>.tmp".
func tempName(name string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "." + name + "." + hex.EncodeToString(b[:]) + tmpSuffix
}

// tempTarget returns the name a temporary file was created for, and
// whether base is a temporary file name at all.
func tempTarget(base string) (string, bool) {
	if !strings.HasPrefix(base, ".") || !strings.HasSuffix(base, tmpSuffix) {
		return "", false
	}
	s := strings.TrimSuffix(base[1:], tmpSuffix)
	i := strings.LastIndexByte(s, '.')
	if i < 1 || len(s)-i-1 != 16 {
		return "", false
	}
	if _, err := hex.DecodeString(s[i+1:]); err != nil {
		return "", false
	}
	return s[:i], true
}

type dirFile struct {
	s     *DirStore
	name  string
	tmp   string // base name of the temporary file
	f     *os.File
	w     *bufio.Writer
	state int // 0 open, 1 committed, 2 aborted/published
}

// Create implements Store.
func (s *DirStore) Create(ctx context.Context, name string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	tmp := tempName(name)
	f, err := os.OpenFile(filepath.Join(s.dir, tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// The umask may have narrowed the mode; published sitemaps must be
	// readable by the web server.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("store: %w", err)
	}
	return &dirFile{s: s, name: name, tmp: tmp, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (f *dirFile) Name() string { return f.name }

// Rename implements Renamer: the temporary file is renamed to the
// temporary name of the new name, so that Recover still knows whose it is.
func (f *dirFile) Rename(name string) error {
	if f.state == 2 {
		return ErrClosed
	}
	if err := checkName(name); err != nil {
		return err
	}
	if name == f.name {
		return nil
	}
	tmp := tempName(name)
	if err := os.Rename(filepath.Join(f.s.dir, f.tmp), filepath.Join(f.s.dir, tmp)); err != nil {
		return fmt.Errorf("store: naming %s %s: %w", f.name, name, err)
	}
	f.name, f.tmp = name, tmp
	return nil
}

func (f *dirFile) Write(p []byte) (int, error) {
	if f.state != 0 {
		return 0, ErrClosed
	}
	return f.w.Write(p)
}

func (f *dirFile) Commit() error {
	if f.state != 0 {
		return ErrClosed
	}
	if err := f.w.Flush(); err != nil {
		f.state = 2
		f.f.Close()
		os.Remove(filepath.Join(f.s.dir, f.tmp))
		return fmt.Errorf("store: writing %s: %w", f.name, err)
	}
	if err := f.f.Close(); err != nil {
		f.state = 2
		os.Remove(filepath.Join(f.s.dir, f.tmp))
		return fmt.Errorf("store: writing %s: %w", f.name, err)
	}
	// The file is synced by Publish, all files of a publication at once:
	// on a journaling file system one flush then covers them all, and
	// syncing here, one file at a time while the caller creates the next
	// ones, stalls it behind every journal commit.
	f.state = 1
	f.w = nil // a run may hold thousands of committed files: free the buffer
	return nil
}

// syncFiles fsyncs committed files, up to maxSyncs at a time.
func (s *DirStore) syncFiles(files []*dirFile) error {
	sem := make(chan struct{}, maxSyncs)
	errs := make(chan error, len(files))
	for _, f := range files {
		sem <- struct{}{}
		go func(f *dirFile) {
			defer func() { <-sem }()
			h, err := os.OpenFile(filepath.Join(s.dir, f.tmp), os.O_WRONLY, 0)
			if err == nil {
				err = h.Sync()
				if cerr := h.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				err = fmt.Errorf("store: syncing %s: %w", f.name, err)
			}
			errs <- err
		}(f)
	}
	var first error
	for range files {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (f *dirFile) Abort() error {
	switch f.state {
	case 0:
		f.f.Close()
	case 2:
		return nil
	}
	f.state = 2
	if err := os.Remove(filepath.Join(f.s.dir, f.tmp)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

const journalMagic = "sitemap-store-journal 1"

// Publish implements Store. With a journal it writes the journal (synced,
// renamed into place, directory synced), renames each file into place in
// order, syncs the directory, removes p.Remove, and removes the journal.
// Without one it syncs the files, renames them in order with a directory
// sync before the last rename and after it, then removes p.Remove.
func (s *DirStore) Publish(ctx context.Context, p Publication) error {
	if p.Journal != "" {
		if err := checkName(p.Journal); err != nil {
			return err
		}
	}
	files := make([]*dirFile, len(p.Files))
	names := make(map[string]bool, len(p.Files))
	for i, f := range p.Files {
		df, ok := f.(*dirFile)
		if !ok || df.s != s {
			return fmt.Errorf("store: file %q does not belong to this store", f.Name())
		}
		if df.state != 1 {
			return fmt.Errorf("%w: %s", ErrNotCommitted, df.name)
		}
		if names[df.name] {
			return fmt.Errorf("store: %s published twice", df.name)
		}
		names[df.name] = true
		files[i] = df
	}
	if p.Journal == "" {
		return s.publishInOrder(ctx, files, names, p.Remove)
	}
	var j bytes.Buffer
	j.WriteString(journalMagic + "\n")
	for _, f := range files {
		fmt.Fprintf(&j, "rename\t%s\t%s\n", f.tmp, f.name)
	}
	for _, r := range p.Remove {
		if err := checkName(r); err != nil {
			return err
		}
		if !names[r] {
			fmt.Fprintf(&j, "remove\t%s\n", r)
		}
	}
	j.WriteString("end\n")
	// Every file must be durable before the journal names it.
	if err := s.syncFiles(files); err != nil {
		return err
	}
	// Nothing has changed yet: a cancelled run stops here.
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.writeJournal(p.Journal, j.Bytes()); err != nil {
		return err
	}
	// From here on the publication is decided; Recover finishes it if we
	// are killed.
	for _, f := range files {
		f.state = 2
	}
	return s.replay(p.Journal, j.Bytes())
}

// publishInOrder is Publish without a journal.
func (s *DirStore) publishInOrder(ctx context.Context, files []*dirFile, names map[string]bool, remove []string) error {
	for _, r := range remove {
		if err := checkName(r); err != nil {
			return err
		}
	}
	if err := s.syncFiles(files); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, f := range files {
		if i == len(files)-1 && i > 0 {
			// The last file (an index) only after the ones it names.
			if err := s.syncDir(); err != nil {
				return err
			}
		}
		if err := os.Rename(filepath.Join(s.dir, f.tmp), filepath.Join(s.dir, f.name)); err != nil {
			return fmt.Errorf("store: publishing %s: %w", f.name, err)
		}
		f.state = 2
		if s.afterRename != nil {
			s.afterRename(i + 1)
		}
	}
	if err := s.syncDir(); err != nil {
		return err
	}
	removed := false
	for _, r := range remove {
		if names[r] {
			continue
		}
		err := os.Remove(filepath.Join(s.dir, r))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("store: removing %s: %w", r, err)
		}
		removed = removed || err == nil
	}
	if removed {
		return s.syncDir()
	}
	return nil
}

func (s *DirStore) writeJournal(name string, data []byte) error {
	tmp := tempName(name)
	path := filepath.Join(s.dir, tmp)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(path, filepath.Join(s.dir, name))
	}
	if err == nil {
		err = s.syncDir()
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("store: journal: %w", err)
	}
	return nil
}

type journalOp struct {
	remove   bool
	tmp, dst string
}

func parseJournal(data []byte) ([]journalOp, error) {
	lines := strings.Split(string(data), "\n")
	if len(lines) < 3 || lines[0] != journalMagic || lines[len(lines)-2] != "end" || lines[len(lines)-1] != "" {
		return nil, errors.New("store: journal is incomplete or not a journal")
	}
	var ops []journalOp
	for _, l := range lines[1 : len(lines)-2] {
		f := strings.Split(l, "\t")
		switch {
		case len(f) == 3 && f[0] == "rename":
			if t, ok := tempTarget(f[1]); !ok || t != f[2] || checkName(f[2]) != nil {
				return nil, fmt.Errorf("store: bad journal line %q", l)
			}
			ops = append(ops, journalOp{tmp: f[1], dst: f[2]})
		case len(f) == 2 && f[0] == "remove":
			if checkName(f[1]) != nil {
				return nil, fmt.Errorf("store: bad journal line %q", l)
			}
			ops = append(ops, journalOp{remove: true, dst: f[1]})
		default:
			return nil, fmt.Errorf("store: bad journal line %q", l)
		}
	}
	return ops, nil
}

// replay carries out a journal. Every step is idempotent, so replaying a
// journal that was partly carried out finishes it.
func (s *DirStore) replay(journal string, data []byte) error {
	ops, err := parseJournal(data)
	if err != nil {
		return err
	}
	done := 0
	for _, op := range ops {
		if op.remove {
			continue
		}
		err := os.Rename(filepath.Join(s.dir, op.tmp), filepath.Join(s.dir, op.dst))
		if errors.Is(err, fs.ErrNotExist) {
			// Renamed before a crash; the file must be in place.
			if _, serr := os.Stat(filepath.Join(s.dir, op.dst)); serr == nil {
				err = nil
			}
		}
		if err != nil {
			return fmt.Errorf("store: publishing %s: %w", op.dst, err)
		}
		done++
		if s.afterRename != nil {
			s.afterRename(done)
		}
	}
	if err := s.syncDir(); err != nil {
		return err
	}
	for _, op := range ops {
		if !op.remove {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, op.dst)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("store: removing %s: %w", op.dst, err)
		}
	}
	if err := os.Remove(filepath.Join(s.dir, journal)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: removing journal: %w", err)
	}
	return s.syncDir()
}

// Recover implements Store.
func (s *DirStore) Recover(ctx context.Context, journal string, owns func(string) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var data []byte
	err := fs.ErrNotExist
	if journal != "" {
		if err := checkName(journal); err != nil {
			return err
		}
		data, err = os.ReadFile(filepath.Join(s.dir, journal))
	}
	switch {
	case err == nil:
		if err := s.replay(journal, data); err != nil {
			return fmt.Errorf("store: finishing the publication an earlier run left in %s: %w (check the files it names; remove it to go on)", filepath.Join(s.dir, journal), err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store: %w", err)
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, e := range ents {
		t, ok := tempTarget(e.Name())
		if !ok || e.IsDir() || ((journal == "" || t != journal) && (owns == nil || !owns(t))) {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("store: removing stale %s: %w", e.Name(), err)
		}
	}
	return nil
}

func (s *DirStore) syncDir() error {
	d, err := os.Open(s.dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	err = d.Sync()
	d.Close()
	if err != nil {
		return fmt.Errorf("store: syncing directory: %w", err)
	}
	return nil
}

// Remove implements Store.
func (s *DirStore) Remove(ctx context.Context, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Open implements Store.
func (s *DirStore) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return f, nil
}

// List implements Store. Hidden files (temporary files among them) and
// directories are left out.
func (s *DirStore) List(ctx context.Context) ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names, nil
}
