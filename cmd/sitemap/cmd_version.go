package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersionCmd(s *streams) *cobra.Command {
	return withHelp("version", &cobra.Command{
		Use:  "version",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(s.Out, versionLine())
			return outputError(err)
		},
	})
}

// versionLine is what `sitemap version` and `sitemap --version` print.
func versionLine() string {
	bi, _ := debug.ReadBuildInfo()
	return formatVersion(bi)
}

// formatVersion renders build information as one line:
// "sitemap v1.2.0", or for a build from a checkout
// "sitemap (devel) commit 0123456789ab 2026-11-24T06:00:00Z, modified".
// A nil bi (a binary built without module support) is "sitemap (devel)".
func formatVersion(bi *debug.BuildInfo) string {
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
	var b strings.Builder
	b.WriteString("sitemap ")
	b.WriteString(v)
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		// A tagged release's version already names its commit
		// (v1.2.0, or a pseudo-version ending in the revision).
		if !strings.HasSuffix(v, rev) {
			b.WriteString(" commit ")
			b.WriteString(rev)
			if at != "" {
				b.WriteString(" ")
				b.WriteString(at)
			}
		}
		if modified {
			b.WriteString(", modified")
		}
	}
	return b.String()
}
