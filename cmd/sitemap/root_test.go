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
	code, out, _ := runCLI(t, "", "version")
	if code != exitOK || !strings.HasPrefix(out, "sitemap ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}
