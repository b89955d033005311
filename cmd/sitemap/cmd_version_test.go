package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitOK || out != versionLine()+"\n" || stderr != "" {
			t.Errorf("%v: exit %d, out %q, stderr %q; want exit 0 and %q", args, code, out, stderr, versionLine()+"\n")
		}
	}
}

func TestFormatVersion(t *testing.T) {
	vcs := func(v string, kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/sitemapkit/sitemap", Version: v}}
		for i := 0; i+1 < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, "sitemap (devel)"},
		{vcs("(devel)"), "sitemap (devel)"},
		{vcs("v1.2.0"), "sitemap v1.2.0"},
		{vcs("(devel)", "vcs", "git", "vcs.revision", "62318d6a1b2c3d4e5f60718293a4b5c6d7e8f901", "vcs.time", "2026-11-24T06:00:00Z", "vcs.modified", "false"),
			"sitemap (devel) commit 62318d6a1b2c 2026-11-24T06:00:00Z"},
		{vcs("(devel)", "vcs.revision", "62318d6a1b2c3d4e5f60718293a4b5c6d7e8f901", "vcs.modified", "true"),
			"sitemap (devel) commit 62318d6a1b2c, modified"},
		{vcs("v0.0.0-20261124060000-62318d6a1b2c", "vcs.revision", "62318d6a1b2c3d4e5f60718293a4b5c6d7e8f901", "vcs.time", "2026-11-24T06:00:00Z"),
			"sitemap v0.0.0-20261124060000-62318d6a1b2c"},
	} {
		if got := formatVersion(tc.bi); got != tc.want {
			t.Errorf("formatVersion(%+v) = %q; want %q", tc.bi, got, tc.want)
		}
	}
	if !strings.HasPrefix(versionLine(), "sitemap ") {
		t.Errorf("versionLine() = %q", versionLine())
	}
}
