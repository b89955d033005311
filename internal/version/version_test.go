package version

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
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
		if got := Of(tc.bi); got != tc.want {
			t.Errorf("Of(%+v) = %q; want %q", tc.bi, got, tc.want)
		}
	}
	if !strings.HasPrefix(Line(), "sitemap ") {
		t.Errorf("Line() = %q", Line())
	}
}

func ExampleOf() {
	fmt.Println(Of(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}))
	// Output:
	// sitemap v1.2.0
}

func ExampleLine() {
	fmt.Println(strings.HasPrefix(Line(), "sitemap "))
	// Output:
	// true
}

func ExampleUserAgent() {
	fmt.Println(strings.HasPrefix(UserAgent(), "sitemap/"), strings.HasSuffix(UserAgent(), "(+https://github.com/sitemapkit/sitemap)"))
	// Output:
	// true true
}

func ExampleModule() {
	fmt.Println(Module() != "")
	// Output:
	// true
}
