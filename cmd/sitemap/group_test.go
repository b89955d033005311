package main

import (
	"strings"
	"testing"
)

// A misspelt subcommand of robots or indexnow is a usage error, exit 2,
// with the closest name: it printed the group's help and exited 0.
// Without a subcommand the group's help is printed, exit 0.
func TestGroupUnknownSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"robots", "lst", "robots.txt"}, `unknown command "lst" for "sitemap robots"; did you mean list?`},
		{[]string{"indexnow", "kye"}, `unknown command "kye" for "sitemap indexnow"; did you mean key?`},
		{[]string{"robots", "zzz"}, `unknown command "zzz" for "sitemap robots"; its commands are add, list, remove`},
	} {
		code, out, errb := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errb, c.want) || !strings.Contains(errb, "--help' for usage") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errb, c.want)
		}
	}
	for _, g := range []string{"robots", "indexnow"} {
		code, out, errb := runCLI(t, "", g)
		if code != exitOK || !strings.Contains(out+errb, "Available Commands:") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", g, code, out, errb)
		}
	}
}
