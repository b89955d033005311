package state

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sitemapkit/sitemap/internal/tmpdir"
)

// DirEnv names the environment variable that overrides [UserDir]: where
// state is kept between runs when no state file is named.
const DirEnv = "SITEMAP_STATE_DIR"

// UserDir is the per-user directory of the state kept between runs when
// no state file is named (a crawl's frontier and fingerprints):
// $SITEMAP_STATE_DIR ([DirEnv]) when set, else $XDG_STATE_HOME/sitemap
// when that is an absolute path, else ~/.local/state/sitemap
// (~/Library/Application Support/sitemap on macOS, %LocalAppData%\sitemap
// on Windows). It is never inside a published directory, which holds only
// what a site serves. The directory is named, not created. Its error says
// to set DirEnv when there is no home directory.
func UserDir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sitemap"), nil
	}
	switch runtime.GOOS {
	case "windows":
		d, err := os.UserCacheDir() // %LocalAppData%
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "sitemap"), nil
	case "darwin", "ios":
		d, err := os.UserConfigDir() // ~/Library/Application Support
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "sitemap"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("%w; set %s to a directory for the state", err, DirEnv)
	}
	return filepath.Join(home, ".local", "state", "sitemap"), nil
}

// DefaultPath is the state file of kind ("crawl", "audit", …) kept for
// the output directory out when no state file is named:
// USERDIR/KIND/BASE-HASH.db ([UserDir]), where BASE is out's last element
// (characters other than ASCII letters, digits, '-', '_' and '.' written
// as '_') and HASH the first 16 hex digits of the SHA-256 of out's
// absolute path, symbolic links resolved when out exists; so each output
// directory has its own file. out "-" (standard output) is named "stdout".
// Nothing is created.
func DefaultPath(out, kind string) (string, error) {
	home, err := UserDir()
	if err != nil {
		return "", err
	}
	key, base := "stdout", "stdout"
	if out != "-" {
		abs, err := filepath.Abs(out)
		if err != nil {
			return "", err
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		key, base = abs, filepath.Base(abs)
	}
	sum := sha256.Sum256([]byte(key))
	base = strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return r
		}
		return '_'
	}, base)
	return filepath.Join(home, kind, base+"-"+hex.EncodeToString(sum[:8])+".db"), nil
}

// sqliteSuffixes are the files of one SQLite database: the file itself
// and its journals.
var sqliteSuffixes = [...]string{"", "-wal", "-shm", "-journal"}

// MoveFile moves the SQLite state file from, with its journal files, to
// to, creating to's directory (mode 0700): a rename, or a copy and a
// removal across file systems. It does nothing and returns false when
// from does not exist, and refuses (an error naming both) when to exists
// already. The database must not be open.
func MoveFile(from, to string) (moved bool, err error) {
	if _, err := os.Stat(from); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if _, err := os.Stat(to); err == nil {
		return false, fmt.Errorf("both %s and %s exist; remove the one not to keep", from, to)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return false, err
	}
	for _, suffix := range sqliteSuffixes {
		src, dst := from+suffix, to+suffix
		if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(src, dst); err == nil {
			continue
		}
		if err := copyFile(src, dst); err != nil {
			return false, err
		}
		if err := os.Remove(src); err != nil {
			return false, err
		}
	}
	return true, nil
}

// copyFile copies src to the new file dst (never over an existing one),
// synced; a failed copy leaves no dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}

// DryRunCopy returns the path of a copy of the SQLite state file path
// (with its journal files, when there are any) in a new temporary
// directory, or of a new file there when path does not exist, and the
// function that removes that directory. A dry run opens the copy, so it
// writes nothing: not the file, not even the schema of a new one. A
// directory a killed dry run left is removed by the next one (tmpdir).
func DryRunCopy(path string) (tmp string, remove func(), err error) {
	dir, release, err := tmpdir.Make("", "sitemap-crawl-dry-run-*")
	if err != nil {
		return "", nil, err
	}
	tmp = filepath.Join(dir, "state.db")
	for _, suffix := range sqliteSuffixes {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = os.WriteFile(tmp+suffix, b, 0o600)
		}
		if err != nil {
			release()
			return "", nil, fmt.Errorf("copying the state file %s: %w", path+suffix, err)
		}
	}
	return tmp, release, nil
}

// sqliteMagic begins every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// IsSQLite reports whether the file at path begins as every SQLite
// database does (an empty or unreadable file does not): a file to give
// SQLite rather than one given by mistake (a URL list, a directory).
func IsSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == sqliteMagic
}

// CheckFile says why path cannot be a SQLite state file, before opening
// it would fail in SQLite's words or create a file where none should be:
// a directory, a file that is not an SQLite database (a URL list given by
// mistake), or a new file in a directory that does not exist. An empty
// file, or one not there in an existing directory, is a new state (nil).
// The error begins with path ("PATH is a directory; …").
func CheckFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return fmt.Errorf("%s: no directory %s; create it, or give a state file in an existing directory", path, dir)
		}
		return nil
	case err != nil:
		return fmt.Errorf("%s: %v", path, err)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory; give a state file, such as %s", path, filepath.Join(path, "sitemap-state.db"))
	case fi.Size() == 0:
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != sqliteMagic {
		return fmt.Errorf("%s is not a state file (not an SQLite database); give a new file name, or the file an earlier run wrote", path)
	}
	return nil
}

// LegacyCrawlFile is where earlier versions kept a crawl's state by
// default: inside the published directory.
const LegacyCrawlFile = ".sitemap-state.db"

// CrawlFile is where a crawl keeps its state when no file is named
// ([CrawlPath]).
type CrawlFile struct {
	// Path is the file to open: [DefaultPath] of the output directory,
	// or Legacy in a dry run that reads it where it is.
	Path string
	// Default is DefaultPath(out, "crawl"), where the state belongs.
	Default string
	// Legacy is OUT/.sitemap-state.db ([LegacyCrawlFile]) when an earlier
	// version left a state there that this call moved (Moved) or that a
	// dry run reads (Path == Legacy); "" otherwise.
	Legacy string
	Moved  bool
	// DryRun is CrawlPath's dryRun: the crawl writes no state file, and
	// reads a copy of Path when there is one.
	DryRun bool
}

// Notes are what a person running the crawl is told about f, one line
// each: where the state is and how to keep it elsewhere, and where an
// earlier version's file was moved from or is read. A dry run names no
// file it does not read: it writes none.
func (f CrawlFile) Notes() []string {
	switch {
	case f.Legacy != "" && f.Path == f.Legacy:
		return []string{fmt.Sprintf("reading the crawl state from %s, where earlier versions kept it (a real run moves it to %s)", f.Legacy, f.Default)}
	case f.DryRun:
		if _, err := os.Stat(f.Path); err == nil {
			return []string{fmt.Sprintf("dry run: reading a copy of the crawl state %s; nothing is written to it", f.Path)}
		}
		return []string{fmt.Sprintf("dry run: no crawl state is kept (a run without --dry-run keeps it in %s)", f.Path)}
	case f.Moved:
		return []string{fmt.Sprintf("moved the crawl state from %s to %s: the published directory holds only what the site serves", f.Legacy, f.Path),
			fmt.Sprintf("crawl state: %s (--state FILE, or %s, to keep it elsewhere)", f.Path, DirEnv)}
	}
	return []string{fmt.Sprintf("crawl state: %s (--state FILE, or %s, to keep it elsewhere)", f.Path, DirEnv)}
}

// CrawlPath is the crawl state of the output directory out when no state
// file is named: [DefaultPath](out, "crawl"). A state an earlier version
// left in OUT/.sitemap-state.db is moved there ([MoveFile]), so the
// published directory holds only what the site serves; a dry run moves
// nothing and reads that file where it is while the default one does not
// exist. out "-" has no published directory. An error says what to do
// in the words of `sitemap crawl`.
func CrawlPath(out string, dryRun bool) (CrawlFile, error) {
	p, err := DefaultPath(out, "crawl")
	if err != nil {
		return CrawlFile{}, fmt.Errorf("the crawl state has no default place: %w; give --state FILE", err)
	}
	f := CrawlFile{Path: p, Default: p, DryRun: dryRun}
	if out == "-" {
		return f, nil
	}
	legacy := filepath.Join(out, LegacyCrawlFile)
	switch _, err := os.Stat(p); {
	case dryRun && errors.Is(err, os.ErrNotExist):
		if _, err := os.Stat(legacy); err == nil {
			f.Path, f.Legacy = legacy, legacy
		}
	case !dryRun:
		moved, err := MoveFile(legacy, p)
		if err != nil {
			return f, fmt.Errorf("moving the crawl state out of the published directory: %w", err)
		}
		if moved {
			f.Legacy, f.Moved = legacy, true
		}
	}
	return f, nil
}

// A Location is the state a run opens: Path, for [Open]; Shown, its name
// in messages (a PostgreSQL URL without its password, [Redact]); Notes,
// the lines a person running it is told about where it is, if any.
type Location struct {
	Path, Shown string
	Notes       []string
}

// CrawlLocation is the state a crawl opens that is given the state name
// (a file, a postgres:// URL, or "" for [CrawlPath] of the output
// directory out) and writes into out, or with dryRun only reads a copy
// of a file ([Options].DryRun: Shown says so). A dry run of a database is
// refused: a crawl writes its frontier there. The directory of a file
// is created (not in a dry run). An error names the setting as its flag
// (--state) and says what to do; Notes are set with it when the default
// file was found (or moved) before the error.
func CrawlLocation(name, out string, dryRun bool) (Location, error) {
	if IsPostgres(name) {
		if dryRun {
			return Location{}, fmt.Errorf("--dry-run with --state %s: a crawl writes its frontier into the database, and a dry run writes nothing; give a copy of the database, or --state FILE", Redact(name))
		}
		return Location{Path: name, Shown: Redact(name)}, nil
	}
	l := Location{Path: name}
	if name == "" {
		f, err := CrawlPath(out, dryRun)
		if err != nil {
			return Location{}, err
		}
		l.Path, l.Notes = f.Path, f.Notes()
	}
	if dryRun {
		l.Shown = l.Path + " (a copy: dry run)"
		return l, nil
	}
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
		return Location{Notes: l.Notes}, fmt.Errorf("--state %s: %v", l.Path, err)
	}
	l.Shown = l.Path
	return l, nil
}
