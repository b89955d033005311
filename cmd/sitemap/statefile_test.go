package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --state that cannot be a state file is named with what to give
// instead: a file that is no SQLite database (a URL list given by
// mistake), a directory, a file in a directory that does not exist. They
// got SQLite's words ("PRAGMA journal_mode = WAL: file is not a database
// (26)", "unable to open database file (14)").
func TestStateFileChecked(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("https://www.example.com/a\n"), 0o644)
	for _, c := range []struct{ state, want string }{
		{list, "--state " + list + " is not a state file (not an SQLite database)"},
		{dir, "--state " + dir + " is a directory"},
		{filepath.Join(dir, "nodir", "st.db"), "--state " + filepath.Join(dir, "nodir", "st.db") + ": no directory " + filepath.Join(dir, "nodir")},
	} {
		for _, args := range [][]string{
			{"generate", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "out"), "--state", c.state, list},
			{"submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", "--state", c.state, list},
		} {
			code, _, errb := runCLI(t, "", args...)
			if code != exitUsage || !strings.Contains(errb, c.want) {
				t.Errorf("%s --state %s: exit %d, stderr %q; want %q", args[0], c.state, code, errb, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(list); string(b) != "https://www.example.com/a\n" {
		t.Errorf("urls.txt now holds %q", b)
	}
}
