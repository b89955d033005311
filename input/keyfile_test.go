package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolveDirectorySkipsKeyFiles: a directory input reads the text
// sitemaps beside an IndexNow key file (what `sitemap indexnow key --out
// public/` writes), not the key file, which was read as a text sitemap
// of one bad line (T-02, T-01: `validate public/` failed). A .txt file
// that only looks like a key file is still read.
func TestResolveDirectorySkipsKeyFiles(t *testing.T) {
	for _, c := range []struct {
		name, body string
		read       bool
	}{
		{"9f3c2a7e41b84d0c.txt", "9f3c2a7e41b84d0c", false},
		{"9f3c2a7e41b84d0c.txt", "9f3c2a7e41b84d0c\n", false},
		{"9f3c2a7e41b84d0c.txt", "\ufeff9f3c2a7e41b84d0c\r\n", false},
		{"71406b5a-4daf-0c56.txt", "71406b5a-4daf-0c56", false},
		{"9f3c2a7e41b84d0c.txt", "https://www.example.com/a\n", true}, // a sitemap named like a key
		{"9f3c2a7e41b84d0c.txt", "9f3c2a7e41b84d0c\nhttps://www.example.com/a\n", true},
		{"9f3c2a7e41b84d0c.txt", "0000000000000000", true}, // another key: not this file's
		{"short.txt", "short", true},                       // fewer than 8 characters: no key
		{"9f3c2a7e41b84d0c.TXT", "9f3c2a7e41b84d0c", true}, // engines ask for KEY.txt
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(urlset("https://www.example.com/")), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.name), []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		docs, err := Resolve([]string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range docs {
			got = append(got, filepath.Base(d.Path))
		}
		want := "sitemap.xml"
		if c.read {
			want = c.name + " sitemap.xml"
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s holding %q: read %q, want %s", c.name, c.body, got, want)
		}
	}
	// A directory of key files only has no sitemap.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "9f3c2a7e41b84d0c.txt"), []byte("9f3c2a7e41b84d0c"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve([]string{dir}, Options{}); err == nil || !strings.Contains(err.Error(), "no sitemap file") {
		t.Errorf("a directory of a key file: %v", err)
	}
}
