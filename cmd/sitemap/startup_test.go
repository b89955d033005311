package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestInitLight: none of the module's packages does real work when the
// program starts (parsing templates, building tables or maps): every
// command pays for it, `sitemap version` included, and Go cannot defer a
// package's initialisation. The bound leaves room for a few small values;
// a parsed template costs hundreds of allocations.
func TestInitLight(t *testing.T) {
	const maxBytes, maxAllocs = 4096, 32
	cmd := exec.Command(os.Args[0], "version")
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sitemap version: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		// init PKG @0.5 ms, 0.01 ms clock, 984 bytes, 4 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		pkg := f[1]
		if !strings.HasPrefix(pkg, "github.com/sitemapkit/sitemap") || strings.Contains(pkg, "test") ||
			pkg == "github.com/sitemapkit/sitemap/cmd/sitemap" {
			// Another module's, a test harness, or this test binary's
			// own package (its tests' variables; the command's own
			// package has no initialisation to trace).
			continue
		}
		seen++
		bytes, err1 := strconv.Atoi(f[7])
		allocs, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read %q", line)
		}
		if bytes > maxBytes || allocs > maxAllocs {
			t.Errorf("package %s allocates %d bytes in %d allocations when the program starts (at most %d, %d): make the value when it is first needed, not in a package variable", pkg, bytes, allocs, maxBytes, maxAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of the module's packages in:\n%s", out)
	}
}

// TestInstant: main catches no signals (two threads fewer at start) only
// for the commands that print and end; every other subcommand, whose
// run an interrupt must stop cleanly, gets them.
func TestInstant(t *testing.T) {
	quick := map[string]bool{"version": true, "rules": true, "explain": true}
	for _, sc := range subcommands {
		if got := instant([]string{sc.name, "x"}); got != quick[sc.name] {
			t.Errorf("instant(%s) = %v, want %v", sc.name, got, quick[sc.name])
		}
	}
	for _, args := range [][]string{nil, {"help"}, {"help", "validate"}, {"--help"}, {"-h"}, {"--version"}, {"-v"}, {"completion", "bash"}} {
		if !instant(args) {
			t.Errorf("instant(%q) = false, want true", args)
		}
	}
	for _, args := range [][]string{{"--user-agent", "x", "crawl"}, {"valid"}} {
		if instant(args) {
			t.Errorf("instant(%q) = true, want false", args)
		}
	}
}
