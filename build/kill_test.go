package build

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

const helperEnv = "BUILD_TEST_HELPER_DIR"

// TestHelperProcess is not a test: TestKilledRun runs the test binary with
// it to generate into a directory and be killed part-way.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	ctx := context.Background()
	ds, err := store.Dir(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	b, err := New(ds, Options{BaseURL: base, MaxURLs: 1000, Gzip: true})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	for i := 1; i <= 50_000_000; i++ {
		if err := b.Add(ctx, page(i)); err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		if i == 20000 {
			fmt.Println("wrote 20000")
		}
	}
	_, err = b.Commit(ctx)
	fmt.Println("committed", err)
	os.Exit(0)
}

// A run killed with SIGKILL part-way leaves the previously published
// sitemaps byte-identical (docs/ARCHITECTURE.md "What always holds"); the
// next run succeeds and removes the killed run's temporary files.
func TestKilledRun(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	dir := t.TempDir()
	ds, err := store.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	run(t, ds, Options{MaxURLs: 3, Gzip: true}, pages(10))
	before := published(snapshot(t, dir))

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "wrote 20000" {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
		t.Logf("helper: %s", sc.Text())
	}
	cmd.Wait()
	if !killed {
		t.Fatal("helper did not reach 20,000 entries")
	}

	all := snapshot(t, dir)
	after := published(all)
	temps := 0
	for n := range all {
		if strings.HasSuffix(n, ".tmp") {
			temps++
		}
	}
	if !maps(before, after) {
		t.Fatalf("killed run changed the published files: before %v, after %v", keys(before), keys(after))
	}
	if temps == 0 {
		t.Fatal("the killed run left no temporary files: it was not killed while writing")
	}

	// The next run recovers, publishes and leaves no temporary files; the
	// old children stay beside the new ones until the run after (the
	// readers of the old index may still fetch them).
	oldSum := run(t, store.Memory(), Options{MaxURLs: 3, Gzip: true}, pages(10))
	sum := run(t, ds, Options{MaxURLs: 3, Gzip: true}, pages(4))
	all = snapshot(t, dir)
	for n := range all {
		if strings.HasSuffix(n, ".tmp") {
			t.Errorf("temporary file %s left after the next run", n)
		}
	}
	final := published(all)
	if want := append(fileNames(oldSum), fileNames(sum)...); !sameSet(keys(final), want) {
		t.Fatalf("after the next run: %v, want %v", keys(final), want)
	}
	if len(sum.Removed) != 0 {
		t.Fatalf("next run removed %v, want nothing before the run after it", sum.Removed)
	}
}

// published drops hidden names (temporary files, the lock file).
func published(m map[string]string) map[string]string {
	p := map[string]string{}
	for n, v := range m {
		if !strings.HasPrefix(n, ".") {
			p[n] = v
		}
	}
	return p
}
