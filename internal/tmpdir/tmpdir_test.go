package tmpdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A directory whose process was killed (kill -9) is removed by the next
// Make of its pattern; a live process's directory, and directories of
// other patterns, stay.
func TestKilledProcessSwept(t *testing.T) {
	if os.Getenv("TMPDIR_CHILD") != "" {
		path, _, err := Make(os.Getenv("TMPDIR_CHILD"), "sitemap-test-*")
		if err != nil {
			os.Exit(3)
		}
		os.WriteFile(filepath.Join(path, "state.db"), []byte("x"), 0o600)
		os.Stdout.WriteString(path + "\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestKilledProcessSwept$")
	child.Env = append(os.Environ(), "TMPDIR_CHILD="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	n, _ := out.Read(buf)
	left := strings.TrimSpace(string(buf[:n]))
	if left == "" {
		t.Fatal("the child made no directory")
	}
	other := filepath.Join(dir, "other-dir")
	os.Mkdir(other, 0o700)

	// While the child lives, its directory stays.
	mine, release, err := Make(dir, "sitemap-test-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("a live process's directory was removed: %v", err)
	}
	child.Process.Kill()
	child.Wait()

	// Once it is killed, the next Make removes it, not ours, not others.
	mine2, release2, err := Make(dir, "sitemap-test-*")
	if err != nil {
		t.Fatal(err)
	}
	defer release2()
	if _, err := os.Stat(left); err == nil {
		t.Errorf("%s outlived its killed process past the next Make", left)
	}
	for _, p := range []string{mine, mine2, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	release()
	if _, err := os.Stat(mine); err == nil {
		t.Errorf("release left %s", mine)
	}
	names, _ := filepath.Glob(filepath.Join(dir, ".new-*"))
	if len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}
