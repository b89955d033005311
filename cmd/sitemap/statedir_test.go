package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/mariatest"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/internal/s3test"
	"github.com/sitemapkit/sitemap/state"
)

// TestMain keeps the state the commands keep by default (see state.UserDir)
// in a temporary directory, never in the home directory of whoever runs
// the tests.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) != "" {
		main() // a child process running the command itself (os.Args[1:])
	}
	dir, err := os.MkdirTemp("", "sitemap-test-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv(stateDirEnv, dir)
	code := m.Run()
	pgtest.Stop()
	mariatest.Stop()
	s3test.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// stateDirEnv is the variable that moves the per-user state directory.
const stateDirEnv = state.DirEnv

// runMainEnv makes the test binary run the command (see TestMain), for
// tests that need a process of their own.
const runMainEnv = "SITEMAP_TEST_RUN_MAIN"

// stateOf is the default crawl state file of the output directory out.
func stateOf(t *testing.T, out string) string {
	t.Helper()
	p, err := state.DefaultPath(out, "crawl")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The crawl keeps its state outside --out by default, one file per
// output directory under the per-user state directory, and says where; a
// state an earlier version left in OUT/.sitemap-state.db is read by a dry
// run and moved by a real run, which says so.
func TestCrawlStateOutsideOut(t *testing.T) {
	home := t.TempDir()
	t.Setenv(stateDirEnv, home)
	srv := crawlTestSite(t)
	out := filepath.Join(t.TempDir(), "public")
	// A dry run writes nothing anywhere: not --out, not the state directory.
	if code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0", "--dry-run"); code != exitProblems {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	if ents, _ := os.ReadDir(home); len(ents) != 0 {
		t.Fatalf("the dry run wrote %v into the state directory", ents)
	}
	code, _, stderr := runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0")
	if code != exitProblems {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	state := stateOf(t, out)
	if !strings.HasPrefix(state, os.Getenv(stateDirEnv)) || !strings.Contains(stderr, "sitemap: crawl state: "+state) {
		t.Errorf("state %s not said:\n%s", state, stderr)
	}
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("no state file: %v", err)
	}
	if got := snapshotNames(snapshot(t, out)); len(got) != 1 || got[0] != "sitemap.xml" {
		t.Fatalf("--out holds %v, want sitemap.xml alone", got)
	}

	// An earlier version's state in the published directory.
	legacy := filepath.Join(out, ".sitemap-state.db")
	if err := os.Rename(state, legacy); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0", "--dry-run")
	if code != exitProblems || !strings.Contains(stderr, "reading the crawl state from "+legacy) {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(state); err == nil {
		t.Fatal("the dry run moved the state")
	}
	code, _, stderr = runCLI(t, "", "crawl", srv.URL+"/", "--out", out, "--rate", "0")
	if code != exitProblems || !strings.Contains(stderr, "moved the crawl state from "+legacy+" to "+state) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(legacy); err == nil {
		t.Error("the old state file is still in --out")
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("the state was not moved: %v", err)
	}
	// Each output directory has its own.
	if other := stateOf(t, out+"2"); other == state {
		t.Errorf("two output directories share %s", state)
	}
}

// No --help example keeps state inside the directory it publishes.
func TestHelpStateOutsideOut(t *testing.T) {
	for _, cmd := range []string{"generate", "crawl"} {
		_, stdout, _ := runCLI(t, "", cmd, "--help")
		for _, line := range strings.Split(stdout, "\n") {
			f := strings.Fields(line)
			var out, state string
			for i := 0; i+1 < len(f); i++ {
				switch f[i] {
				case "--out":
					out = f[i+1]
				case "--state":
					state = f[i+1]
				}
			}
			if out != "" && state != "" && strings.HasPrefix(filepath.Clean(state)+"/", filepath.Clean(out)+"/") {
				t.Errorf("%s --help: %q keeps the state in --out", cmd, strings.TrimSpace(line))
			}
		}
	}
}
