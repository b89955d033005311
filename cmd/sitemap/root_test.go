package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns exit code, stdout
// and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &streams{In: strings.NewReader(stdin), Out: &out, Err: &errb}
	code := execute(context.Background(), s, args)
	return code, out.String(), errb.String()
}

func TestRootUsageErrors(t *testing.T) {
	code, _, stderr := runCLI(t, "", "no-such-command")
	if code != exitUsage || !strings.Contains(stderr, "unknown command") {
		t.Fatalf("unknown command: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "version", "--no-such-flag")
	if code != exitUsage || !strings.Contains(stderr, "--help") {
		t.Fatalf("bad flag: code %d, stderr %q", code, stderr)
	}
	// A wrong number of arguments, like a bad flag, says where the usage is.
	for _, args := range [][]string{{"explain"}, {"diff", "a.xml"}, {"robots", "add"}, {"no-such-command"}} {
		code, _, stderr = runCLI(t, "", args...)
		want := "run 'sitemap " + args[0] + " --help' for usage\n"
		if args[0] == "robots" {
			want = "run 'sitemap robots add --help' for usage\n"
		} else if args[0] == "no-such-command" {
			want = "run 'sitemap --help' for usage\n"
		}
		if code != exitUsage || !strings.HasSuffix(stderr, want) || strings.Count(stderr, "\n") != 2 {
			t.Errorf("%v: code %d, stderr %q; want exit 2 and two lines ending %q", args, code, stderr, want)
		}
	}
	// The arguments a command takes are named on the error's line.
	if code, _, stderr = runCLI(t, "", "diff", "public/"); !strings.HasPrefix(stderr, "sitemap: accepts 2 arg(s), received 1 (sitemap diff [flags] OLD NEW)\n") {
		t.Errorf("diff with one argument: code %d, stderr %q", code, stderr)
	}
	// help of a name that is no command or topic is a usage error.
	if code, _, stderr = runCLI(t, "", "help", "nosuch"); code != exitUsage || !strings.Contains(stderr, `no command or help topic "nosuch"`) {
		t.Errorf("help nosuch: code %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{{"help"}, {"help", "scope"}, {"help", "robots", "add"}} {
		if code, out, _ := runCLI(t, "", args...); code != exitOK || out == "" {
			t.Errorf("%v: code %d, %d bytes out", args, code, len(out))
		}
	}
	code, _, stderr = runCLI(t, "", "vali", "x.xml")
	if want := "sitemap: unknown command \"vali\" for \"sitemap\"; did you mean validate?\nrun 'sitemap --help' for usage\n"; code != exitUsage || stderr != want {
		t.Errorf("misspelt command: code %d, stderr %q; want %q", code, stderr, want)
	}
	code, out, _ := runCLI(t, "", "version")
	if code != exitOK || !strings.HasPrefix(out, "sitemap ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}
