package robots_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/robots"
)

// Change.Run names the file and the step that failed, without Go's
// "open NAME:"; a file it can edit is edited in place.
func TestChangeRunErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte("Sitemap: https://e.com/a.xml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change robots.Change
		target string
		stdin  string
		want   string // the error; "" for none
	}{
		{"missing", robots.Change{Remove: true, URL: "https://e.com/b.xml"}, filepath.Join(dir, "none.txt"), "", filepath.Join(dir, "none.txt") + ": no such file"},
		{"no directory", robots.Change{URL: "https://e.com/b.xml"}, filepath.Join(dir, "none", "robots.txt"), "", "no directory"},
		{"url", robots.Change{Remove: true, URL: "https://e.com/b.xml"}, "http://e.com/robots.txt", "", "http://e.com/robots.txt: remove edits a local file"},
		{"bad url", robots.Change{URL: "/relative.xml"}, file, "", "sitemap URL"},
		{"utf-16 stdin", robots.Change{URL: "https://e.com/b.xml"}, "-", "\xff\xfeU\x00", "<stdin>: robots.txt is UTF-16"},
		{"binary file", robots.Change{URL: "https://e.com/b.xml"}, writeFile(t, dir, "bin.txt", "a\x00b"), "", "bin.txt: holds binary data"},
		{"add", robots.Change{URL: "https://e.com/b.xml"}, file, "", ""},
	} {
		var out, diag strings.Builder
		err := c.change.Run(c.target, strings.NewReader(c.stdin), &out, &diag)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "open ")):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "Sitemap: https://e.com/a.xml\nSitemap: https://e.com/b.xml\n" {
		t.Errorf("file %q", b)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestChangeRunUnwritable: a robots.txt whose directory takes no new
// file (read-only, another user's) is said with what happened to the
// file and what to do, not as the bare write error.
func TestChangeRunUnwritable(t *testing.T) {
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		dir = "/sys" // sysfs refuses new files even to root
		if _, err := os.Stat(dir); err != nil {
			t.Skip("no /sys to stand for a directory root cannot write to")
		}
	} else {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	target := filepath.Join(dir, "robots.txt")
	var out, diag strings.Builder
	err := robots.Change{URL: "https://www.example.com/sitemap.xml"}.Run(target, strings.NewReader(""), &out, &diag)
	if want := "; " + target + " was left as it was: give a robots.txt in a directory you can write to"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("%v; want …%s", err, want)
	}
}
