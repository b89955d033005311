package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditStateOnlyWhenAsked: an audit keeps its state in the user's
// state directory only with --resume; one that fails at once keeps none;
// --list-states lists the kept ones, each by what it audits, and --forget
// removes them. It used to
// keep a state per target for every run, failed ones too, for ever.
func TestAuditStateOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(stateDirEnv, dir)
	srv := exampleSite(t)
	states := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, "audit", "*.db"))
		return m
	}
	if code, _, stderr := runCLI(t, "", "audit", srv.URL+"/", "--rate", "0"); code == exitUsage {
		t.Fatalf("audit: exit %d\n%s", code, stderr)
	}
	if s := states(); len(s) != 0 {
		t.Fatalf("an audit without --resume kept %v", s)
	}
	if code, _, _ := runCLI(t, "", "audit", srv.URL+"/missing-sitemap.xml", "--rate", "0", "--resume"); code == exitOK {
		t.Fatal("an audit of a missing sitemap succeeded?")
	}
	if s := states(); len(s) != 0 {
		t.Fatalf("an audit that failed at once kept %v", s)
	}
	if code, _, stderr := runCLI(t, "", "audit", srv.URL+"/", "--rate", "0", "--resume"); code == exitUsage || !strings.Contains(stderr, "--forget removes it") {
		t.Fatalf("audit --resume: exit %d\n%s", code, stderr)
	}
	kept := states()
	if len(kept) != 1 {
		t.Fatalf("audit --resume kept %v", kept)
	}
	if code, out, _ := runCLI(t, "", "audit", "--list-states"); code != exitOK || !strings.HasPrefix(out, srv.URL+"/\t"+kept[0]+"\t") {
		t.Errorf("--list-states: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "", "audit", "--forget", srv.URL+"/"); code != exitOK || !strings.Contains(stderr, "removed") {
		t.Errorf("--forget: exit %d\n%s", code, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "audit", "*")); len(left) != 0 {
		t.Errorf("--forget left %v", left)
	}
	// Forgetting what was never kept says so; it used to say "removed".
	if code, _, stderr := runCLI(t, "", "audit", "--forget", srv.URL+"/"); code != exitOK || strings.Contains(stderr, "removed") || !strings.Contains(stderr, "no audit state kept for") {
		t.Errorf("--forget again: exit %d\n%s", code, stderr)
	}
}
