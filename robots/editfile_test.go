package robots

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Edit.File creates a file to add to, keeps the mode of an existing one,
// writes nothing when nothing changes, and says which step failed.
func TestEditFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "robots.txt")
	const a, b = "https://www.example.com/a.xml", "https://www.example.com/b.xml"
	ed, err := Edit{Add: a}.File(p)
	if err != nil || !ed.Created || !ed.Added {
		t.Fatalf("new file: %+v %v", ed, err)
	}
	if got, _ := os.ReadFile(p); string(got) != "Sitemap: "+a+"\n" {
		t.Errorf("new file holds %q", got)
	}
	os.Chmod(p, 0o600)
	ed, err = Edit{Add: b, Remove: []string{a, "https://www.example.com/none.xml"}}.File(p)
	if err != nil || ed.Created || !ed.Added || len(ed.Removed) != 1 || ed.Removed[0] != a {
		t.Fatalf("edit: %+v %v", ed, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	before, _ := os.Stat(p)
	if ed, err = (Edit{Add: b}).File(p); err != nil || ed.Changed() {
		t.Fatalf("edit that changes nothing: %+v %v", ed, err)
	}
	if after, _ := os.Stat(p); !os.SameFile(before, after) {
		t.Error("a file that did not change was written again")
	}

	for _, c := range []struct {
		name string
		edit Edit
		path string
		op   string
	}{
		{"remove from a missing file", Edit{Remove: []string{a}}, filepath.Join(dir, "missing.txt"), "read"},
		{"a directory", Edit{Add: a}, dir, "read"},
		{"an invalid URL", Edit{Add: "/relative.xml"}, p, "edit"},
		{"no directory to write in", Edit{Add: a}, filepath.Join(dir, "no", "robots.txt"), "write"},
	} {
		_, err := c.edit.File(c.path)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Op != c.op || fe.Path != c.path {
			t.Errorf("%s: %v (%#v), want a %s error", c.name, err, fe, c.op)
		}
	}
	_, err = Edit{Remove: []string{a}}.File(filepath.Join(dir, "missing.txt"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	_, err = Edit{Add: "/relative.xml"}.File(p)
	if !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("edit error %q does not name the file first", err)
	}
}

// Apply says when the file disallows the sitemap it adds (RB-11).
func TestEditDisallowed(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"User-agent: *\nDisallow:\n", ""},
		{"User-agent: *\nDisallow: /\n", "*"},
		{"User-agent: Googlebot\nDisallow: /maps/\n", "Googlebot"},
	} {
		ed, err := Edit{Add: "https://www.example.com/maps/sitemap.xml"}.Apply([]byte(c.src))
		if err != nil || ed.Disallowed != c.want {
			t.Errorf("%q: Disallowed %q, %v; want %q", c.src, ed.Disallowed, err, c.want)
		}
	}
	if ed, _ := (Edit{Remove: []string{"https://x/"}}).Apply([]byte("User-agent: *\nDisallow: /\n")); ed.Disallowed != "" {
		t.Error("Disallowed set without Add")
	}
}

// TestEditFileRefusesBinary: a file with a NUL byte (an image, a gzip
// file given by mistake) is not a robots.txt: add and remove refuse it and
// leave it as it was, where add used to append a Sitemap line to it.
func TestEditFileRefusesBinary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.txt")
	bin := []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00Sitemap: https://www.example.com/s.xml\n")
	if err := os.WriteFile(path, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range []Edit{{Add: "https://www.example.com/sitemap.xml"}, {Remove: []string{"https://www.example.com/s.xml"}}} {
		_, err := e.File(path)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Op != "edit" || !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), path+": holds binary data") {
			t.Errorf("%+v: %v", e, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, bin) {
			t.Errorf("%+v: file changed: %q", e, got)
		}
	}
}
