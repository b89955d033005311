package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveStateSaysWhetherKept: RemoveState tells a state it removed
// (the database, or only SQLite's files beside it) from one never kept,
// so "sitemap audit --forget TARGET" no longer says it removed the state
// of an audit that never ran with --resume.
func TestRemoveStateSaysWhetherKept(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		files []string
		want  bool
	}{
		{"none", nil, false},
		{"db", []string{"a.db"}, true},
		{"db and wal", []string{"a.db", "a.db-wal", "a.db-shm"}, true},
		{"journal only", []string{"a.db-journal"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			removed, err := RemoveState(filepath.Join(dir, "a.db"))
			if err != nil || removed != tc.want {
				t.Errorf("RemoveState = %v, %v; want %v, nil", removed, err, tc.want)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "a.db*")); len(left) > 0 {
				t.Errorf("left %v", left)
			}
		})
	}
	if _, err := RemoveState(filepath.Join(dir, "sub")); err != nil {
		t.Errorf("a missing state: %v", err)
	}
}
