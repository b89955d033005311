package main

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
)

// stateDirEnv names the environment variable that overrides where the
// commands keep their state when no --state is given.
const stateDirEnv = "SITEMAP_STATE_DIR"

// stateHome is the per-user directory of the state the commands keep
// between runs when no --state is given (the crawl's frontier and
// fingerprints): $SITEMAP_STATE_DIR when set, else $XDG_STATE_HOME/sitemap,
// else ~/.local/state/sitemap (~/Library/Application Support/sitemap on
// macOS, %LocalAppData%\sitemap on Windows). Never inside --out: the
// published directory holds only what a site serves.
func stateHome() (string, error) {
	if d := os.Getenv(stateDirEnv); d != "" {
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
		return "", fmt.Errorf("%w; set %s to a directory for the state", err, stateDirEnv)
	}
	return filepath.Join(home, ".local", "state", "sitemap"), nil
}

// outStatePath is the default state file of kind ("crawl") for the output
// directory out: STATEHOME/KIND/BASE-HASH.db, where HASH is the first 16
// hex digits of the SHA-256 of out's absolute path (symbolic links
// resolved when out exists), so each output directory has its own.
func outStatePath(out, kind string) (string, error) {
	home, err := stateHome()
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
var sqliteSuffixes = []string{"", "-wal", "-shm", "-journal"}

// moveState moves the SQLite database from (with its journal files) to
// to, whose directory it creates: a rename, or a copy and a removal
// across file systems. It does nothing when from does not exist, and
// refuses when to exists already.
func moveState(from, to string) (moved bool, err error) {
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
