package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir on a path that is (or runs through) a regular file says so plainly,
// instead of passing on mkdir's "not a directory".
func TestDirOnFile(t *testing.T) {
	tmp := t.TempDir()
	f := filepath.Join(tmp, "public")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{f, f + " is a file, not a directory"},
		{filepath.Join(f, "sub"), f + " is a file, not a directory"},
	} {
		_, err := Dir(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Dir(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
	if _, err := Dir(filepath.Join(tmp, "a", "b")); err != nil {
		t.Errorf("Dir of a missing path: %v", err)
	}
}
