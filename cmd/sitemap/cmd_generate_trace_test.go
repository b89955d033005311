package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/internal/xmllint"
)

// A run that fails leaves no trace: an input that cannot be read (exit 2)
// does not create the --out directory, and a run whose entries are all
// invalid writes no stylesheet.
func TestGenerateFailureLeavesNoTrace(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "o", "p")
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, filepath.Join(tmp, "nope.txt"))
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "o")); err == nil {
		t.Errorf("a run that could not read its input created %s", filepath.Join(tmp, "o"))
	}
	bad := filepath.Join(tmp, "bad.txt")
	os.WriteFile(bad, []byte("ftp://www.example.com/a\nwww.example.com/relative\n"), 0o644)
	existing := filepath.Join(tmp, "public")
	os.Mkdir(existing, 0o755)
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--out", existing, "--xsl", bad)
	if code != exitProblems || !strings.Contains(stderr, "nothing published") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := snapshotNames(snapshot(t, existing)); len(got) != 0 {
		t.Errorf("a run that published nothing wrote %v", got)
	}
}

// --out - writes the one sitemap to standard output (valid against the
// XSD, the summary on standard error) and creates nothing; entries that
// need more than one sitemap are an error that says how many, and the
// flags that need a directory are refused.
func TestGenerateStdout(t *testing.T) {
	urls := filepath.Join(repoRoot(t), "examples/urls.txt")
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", "-", urls)
	if code != exitOK || !strings.HasPrefix(stdout, "<?xml") || strings.Count(stdout, "<url>") != 9 || !strings.Contains(stderr, "9 URLs in 1 sitemap") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	f := filepath.Join(t.TempDir(), "sitemap.xml")
	os.WriteFile(f, []byte(stdout), 0o644)
	xmllint.Validate(t, f, xmllint.All)

	code, stdout, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--out", "-", "--max-urls", "4", urls)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "the 9 entries need 3 sitemaps") || !strings.Contains(stderr, "--out DIR") {
		t.Fatalf("too many: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, flag := range []string{"--json", "--xsl", "--index=always"} {
		if code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", "-", flag, urls); code != exitUsage || !strings.Contains(stderr, "--out -") {
			t.Errorf("%s: exit %d: %s", flag, code, stderr)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Fatal("--out - created a directory named -")
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// A run whose standard error is a pipe nobody reads (… 2>&1 | head) is not
// killed by SIGPIPE half-way: it publishes, exits with its status, and
// leaves nothing else in --out (no lock file, no temporary file).
func TestGenerateBrokenStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	tmp := t.TempDir()
	in := filepath.Join(tmp, "urls.txt")
	var b strings.Builder
	for i := range 3000 {
		if i%10 == 0 {
			b.WriteString("not a url\n") // one report a line on standard error
		} else {
			b.WriteString(genBase + "p/" + strconv.Itoa(i) + "\n")
		}
	}
	os.WriteFile(in, []byte(b.String()), 0o644)
	out := filepath.Join(tmp, "public")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // nobody reads: the first write raises SIGPIPE
	cmd := exec.Command(os.Args[0], "generate", "--base-url", genBase, "--out", out, "--max-urls", "500", in)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	cmd.Stderr = w
	err = cmd.Run()
	w.Close()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitProblems {
		t.Fatalf("run: %v, want exit status 1 (invalid entries skipped)", err)
	}
	got := snapshotNames(snapshot(t, out))
	if len(got) != 7 || got[len(got)-1] != "sitemap.xml" {
		t.Fatalf("--out holds %v, want 6 sitemaps and the index, nothing else", got)
	}
	for _, n := range got {
		if strings.HasPrefix(n, ".") {
			t.Errorf("left %s in --out", n)
		}
	}
}
