package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CheckLocal names the first local input that is not there; "-", URLs
// and s3:// locations are not looked at.
func TestCheckLocal(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "urls.txt")
	os.WriteFile(file, nil, 0o644)
	missing := filepath.Join(dir, "nope.txt")
	if err := CheckLocal([]string{"-", file, dir, "https://www.example.com/sitemap.xml", "s3://bucket/sitemap.xml"}); err != nil {
		t.Fatal(err)
	}
	err := CheckLocal([]string{file, missing, filepath.Join(dir, "other")})
	if err == nil || err.Error() != missing+": no such file" || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CheckLocal = %v, want %s: no such file", err, missing)
	}
	err = CheckLocal([]string{filepath.Join(file, "x")})
	if err == nil || err.Error() != filepath.Join(file, "x")+": not a directory" {
		t.Fatalf("under a file: %v", err)
	}
}
