// Package version says which build of sitemap is running: the line
// `sitemap version` prints and the User-Agent every HTTP request of the
// command sends. A leaf.
package version

import (
	"runtime/debug"
	"strings"
)

// Module is the module version of the binary, "(devel)" for a build
// from a checkout (Line adds the commit).
func Module() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// UserAgent is what every HTTP request of the command sends unless
// --user-agent says otherwise: sitemap/VERSION and where the project
// is, so a site owner can find out who is calling. Its product token,
// "sitemap", is the robots.txt group crawl obeys.
func UserAgent() string {
	return "sitemap/" + strings.Trim(Module(), "()") + " (+https://github.com/sitemapkit/sitemap)"
}

// Line is what `sitemap version` prints for the running binary (Of).
func Line() string {
	bi, _ := debug.ReadBuildInfo()
	return Of(bi)
}

// Of renders build information as one line: "sitemap v1.2.0", or for a
// build from a checkout "sitemap (devel) commit 0123456789ab
// 2026-11-24T06:00:00Z, modified". A nil bi (a binary built without
// module support) is "sitemap (devel)".
func Of(bi *debug.BuildInfo) string {
	v := "(devel)"
	var rev, at string
	modified := false
	if bi != nil {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	line := "sitemap " + v
	if rev == "" {
		return line
	}
	rev = rev[:min(len(rev), 12)]
	// A tagged release's version already names its commit (v1.2.0, or a
	// pseudo-version ending in the revision).
	if !strings.HasSuffix(v, rev) {
		line += " commit " + rev
		if at != "" {
			line += " " + at
		}
	}
	if modified {
		line += ", modified"
	}
	return line
}
