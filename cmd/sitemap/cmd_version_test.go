package main

import (
	"testing"

	"github.com/sitemapkit/sitemap/internal/version"
)

func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitOK || out != version.Line()+"\n" || stderr != "" {
			t.Errorf("%v: exit %d, out %q, stderr %q; want exit 0 and %q", args, code, out, stderr, version.Line()+"\n")
		}
	}
}
