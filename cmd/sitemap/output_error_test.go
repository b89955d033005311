package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// fullWriter fails every write, as standard output on a full disk
// (/dev/full) or a closed pipe does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A command whose standard output cannot be written could not do its
// work: exit 2, saying so, and not as a usage error. rules and explain
// added "run 'sitemap rules --help' for usage"; version, indexnow key,
// submit --dry-run and robots list exited 0 with their output lost.
func TestStdoutWriteErrorExit2(t *testing.T) {
	dir := t.TempDir()
	list := writeList(t, "https://www.example.com/a")
	robots := filepath.Join(dir, "robots.txt")
	writeFile(t, robots, "Sitemap: https://www.example.com/sitemap.xml\n")
	for _, args := range [][]string{
		{"rules"},
		{"rules", "--format", "json", "L"},
		{"explain", "X-06"},
		{"version"},
		{"indexnow", "key", "--out", dir},
		{"submit", "--dry-run", "--key", submitKey, "--host", "www.example.com", list},
		{"robots", "list", robots},
		{"robots", "list", "--format", "jsonl", robots},
	} {
		var errb bytes.Buffer
		s := &streams{In: strings.NewReader(""), Out: fullWriter{}, Err: &errb}
		code := execute(context.Background(), s, args)
		if code != exitUsage || !strings.Contains(errb.String(), "writing output: no space left on device") || strings.Contains(errb.String(), "for usage") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
