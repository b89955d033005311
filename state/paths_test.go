package state

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// UserDir follows SITEMAP_STATE_DIR, then an absolute XDG_STATE_HOME; a
// relative XDG_STATE_HOME is ignored (the XDG rule).
func TestUserDir(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct{ env, xdg, want string }{
		{tmp, "/x", tmp},
		{"", "/var/state", filepath.Join("/var/state", "sitemap")},
	} {
		t.Setenv(DirEnv, c.env)
		t.Setenv("XDG_STATE_HOME", c.xdg)
		if got, err := UserDir(); err != nil || got != c.want {
			t.Errorf("DirEnv %q XDG %q: %q, %v; want %q", c.env, c.xdg, got, err, c.want)
		}
	}
	t.Setenv(DirEnv, "")
	t.Setenv("XDG_STATE_HOME", "relative")
	if got, err := UserDir(); err == nil && strings.Contains(got, "relative") {
		t.Errorf("relative XDG_STATE_HOME used: %q", got)
	}
}

// Each output directory gets its own file, the same one however it is
// spelled; its name is safe in any file system.
func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv(DirEnv, home)
	dir := t.TempDir()
	out := filepath.Join(dir, "pub lic")
	a, err := DefaultPath(out, "crawl")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultPath(out+string(filepath.Separator)+".", "crawl")
	c, _ := DefaultPath(filepath.Join(dir, "other"), "crawl")
	d, _ := DefaultPath("-", "audit")
	if a != b || a == c {
		t.Errorf("paths %q %q %q: want the first two equal, the third apart", a, b, c)
	}
	if !strings.HasPrefix(a, filepath.Join(home, "crawl", "pub_lic-")) || !strings.HasSuffix(a, ".db") || len(filepath.Base(a)) != len("pub_lic-")+16+3 {
		t.Errorf("path %q: want %s/crawl/pub_lic-HASH16.db", a, home)
	}
	if !strings.HasPrefix(d, filepath.Join(home, "audit", "stdout-")) {
		t.Errorf("standard output's path %q", d)
	}
}

// MoveFile moves a database and its journal, does nothing without one,
// and never overwrites.
func TestMoveFile(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a.db"), filepath.Join(dir, "new", "b.db")
	if moved, err := MoveFile(from, to); moved || err != nil {
		t.Fatalf("missing source: %v %v", moved, err)
	}
	os.WriteFile(from, []byte(sqliteMagic+"x"), 0o600)
	os.WriteFile(from+"-wal", []byte("wal"), 0o600)
	if moved, err := MoveFile(from, to); !moved || err != nil {
		t.Fatalf("move: %v %v", moved, err)
	}
	if b, err := os.ReadFile(to + "-wal"); err != nil || string(b) != "wal" {
		t.Errorf("journal not moved: %q %v", b, err)
	}
	if _, err := os.Stat(from); err == nil {
		t.Error("source still there")
	}
	os.WriteFile(from, []byte(sqliteMagic), 0o600)
	if _, err := MoveFile(from, to); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("move over an existing file: %v", err)
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	os.WriteFile(db, []byte(sqliteMagic+"rest"), 0o600)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("https://example.com/\n"), 0o600)
	for _, c := range []struct{ path, want string }{
		{db, ""},
		{empty, ""},
		{filepath.Join(dir, "new.db"), ""},
		{dir, " is a directory; give a state file, such as "},
		{list, " is not a state file (not an SQLite database)"},
		{filepath.Join(dir, "no", "x.db"), ": no directory "},
	} {
		err := CheckFile(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.path+c.want)):
			t.Errorf("%s: %v; want %q", c.path, err, c.want)
		}
	}
}

// A dry run's copy holds the file and its journal; removing it leaves the
// original alone.
func TestDryRunCopy(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	os.WriteFile(db, []byte(sqliteMagic), 0o600)
	os.WriteFile(db+"-wal", []byte("wal"), 0o600)
	tmp, remove, err := DryRunCopy(db)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(tmp + "-wal"); string(b) != "wal" {
		t.Errorf("journal not copied")
	}
	remove()
	if _, err := os.Stat(tmp); err == nil {
		t.Error("copy left behind")
	}
	if _, err := os.Stat(db + "-wal"); err != nil {
		t.Error("original touched")
	}
	tmp, remove, err = DryRunCopy(filepath.Join(dir, "missing.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	if _, err := os.Stat(tmp); err == nil {
		t.Error("a copy of a missing file exists")
	}
}

// Open with DryRun writes nothing to the file named: a new state is not
// created, an existing one keeps its rows, and Close removes the copy.
func TestOpenDryRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	st, err := Open(ctx, path, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, Record{Loc: "https://example.com/a", ContentHash: "h"}); err != nil {
		t.Fatal(err)
	}
	copyPath := st.path
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("dry run created %s: %v", path, err)
	}
	if _, err := os.Stat(filepath.Dir(copyPath)); !os.IsNotExist(err) {
		t.Errorf("copy %s left behind: %v", copyPath, err)
	}
	real, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	real.Put(ctx, Record{Loc: "https://example.com/b", ContentHash: "h"})
	real.Close()
	st, err = Open(ctx, path, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok, err := st.Lookup(ctx, "https://example.com/b"); !ok || err != nil {
		t.Errorf("the copy lacks the file's row: %v %v", ok, err)
	}
}
