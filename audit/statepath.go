package audit

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// StatePath is the state file of an audit that asked to resume without
// naming one (sitemap audit --resume): USERDIR/audit/HASH.db
// ([state.UserDir]), HASH the first 16 hex digits of the SHA-256 of what
// is audited: site (Options.Site, "" for a URL) and the names, local
// files by their absolute path. The same audit finds its state again;
// nothing is created.
func StatePath(site string, names []string) (string, error) {
	home, err := state.UserDir()
	if err != nil {
		return "", err
	}
	key := site
	for _, in := range names {
		if abs, err := filepath.Abs(in); err == nil && !urlnorm.IsHTTP(in) && in != "-" {
			in = abs
		}
		key += "\x00" + in
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(home, "audit", hex.EncodeToString(sum[:8])+".db"), nil
}

// StateFile is one audit state kept in the per-user state directory (a
// run that asked to resume, see StatePath).
type StateFile struct {
	Path    string
	Target  string // what it audits, as KeepStateTarget wrote it ("" when not known)
	Size    int64  // bytes, its journal files included
	ModTime time.Time
}

// KeepStateTarget writes what the audit state at path (a [StatePath])
// audits beside it (path + ".target": the site, or the names, one line),
// so [States] can name it; [RemoveState] removes it with the state.
func KeepStateTarget(path, site string, names []string) error {
	target := strings.Join(names, " ")
	if site != "" {
		target = site + " " + target
	}
	return os.WriteFile(path+targetSuffix, []byte(strings.TrimSpace(target)+"\n"), 0o644)
}

// targetSuffix names the file KeepStateTarget writes beside a state.
const targetSuffix = ".target"

// States lists the audit states kept in the per-user state directory
// (USERDIR/audit/*.db), oldest first; none when the directory does not
// exist.
func States() ([]StateFile, error) {
	home, err := state.UserDir()
	if err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(home, "audit", "*.db"))
	if err != nil {
		return nil, err
	}
	var out []StateFile
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue // removed meanwhile
		}
		sf := StateFile{Path: p, Size: fi.Size(), ModTime: fi.ModTime()}
		if b, err := os.ReadFile(p + targetSuffix); err == nil {
			sf.Target = strings.TrimSpace(string(b))
		}
		for _, suffix := range stateSuffixes {
			if fj, err := os.Stat(p + suffix); err == nil {
				sf.Size += fj.Size()
			}
		}
		out = append(out, sf)
	}
	slices.SortFunc(out, func(a, b StateFile) int { return a.ModTime.Compare(b.ModTime) })
	return out, nil
}

// stateSuffixes are the files SQLite keeps beside a database.
var stateSuffixes = [...]string{"-wal", "-shm", "-journal"}

// RemoveState removes the audit state file path and the files SQLite
// keeps beside it; removed reports whether there was a state (any of
// those files) to remove. A state that does not exist is no error: it
// is removed false, so a caller can say nothing was kept for that audit.
func RemoveState(path string) (removed bool, err error) {
	for _, p := range []string{path, path + stateSuffixes[0], path + stateSuffixes[1], path + stateSuffixes[2], path + targetSuffix} {
		switch e := os.Remove(p); {
		case e == nil:
			removed = true
		case !errors.Is(e, fs.ErrNotExist) && err == nil:
			err = e
		}
	}
	return removed, err
}

// WriteStates writes the audit states kept in the per-user state
// directory ([States]) to w, one a line, oldest first: what each audits
// ("?" when not known), its path, when it was last written (UTC,
// RFC 3339) and its size, tab-separated (`sitemap audit --list-states`).
// With none kept it says so on errw.
func WriteStates(w, errw io.Writer) error {
	states, err := States()
	if err != nil {
		return err
	}
	for _, st := range states {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d bytes\n", cmp.Or(st.Target, "?"), st.Path, st.ModTime.UTC().Format(time.RFC3339), st.Size)
	}
	if len(states) == 0 {
		fmt.Fprintln(errw, "sitemap: no audit state kept (only audits run with --resume keep one)")
	}
	return nil
}

// Forget removes the kept state of the audit of names served at site
// ([StatePath]), or every kept state when names is empty
// (`sitemap audit --forget`), and says on w what it removed, or that no
// state was kept for names.
func Forget(w io.Writer, site string, names []string) error {
	var paths []string
	if len(names) > 0 {
		p, err := StatePath(site, names)
		if err != nil {
			return err
		}
		paths = append(paths, p)
	} else {
		states, err := States()
		if err != nil {
			return err
		}
		for _, st := range states {
			paths = append(paths, st.Path)
		}
	}
	for _, p := range paths {
		removed, err := RemoveState(p)
		if err != nil {
			return fmt.Errorf("--forget: %v", err)
		}
		if !removed {
			fmt.Fprintf(w, "sitemap: no audit state kept for %s (only audits run with --resume keep one; --list-states lists them)\n", strings.Join(names, " "))
			continue
		}
		fmt.Fprintf(w, "sitemap: removed %s\n", p)
	}
	return nil
}
