package main

import (
	"strings"
	"testing"
)

// TestStdinOneName: standard input is <stdin> in the messages of every
// command; validate, parse and fetch called it "-" while generate and
// robots said <stdin>.
func TestStdinOneName(t *testing.T) {
	bad := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>/relative</loc></url>\n</urlset>\n"
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{bad, []string{"validate", "-"}},
		{bad, []string{"parse", "-"}},
		{bad, []string{"fetch", "-"}},
		{"/relative\n", []string{"generate", "--base-url", genBase, "--dry-run", "-"}},
		{bad, []string{"generate", "--base-url", genBase, "--dry-run", "-"}},
		{"Sitemap: /relative.xml\n", []string{"robots", "list", "-"}},
	} {
		_, out, errOut := runCLI(t, tc.stdin, tc.args...)
		all := out + errOut
		if !strings.Contains(all, "<stdin>:") || strings.Contains(all, "\n-:") || strings.HasPrefix(all, "-:") {
			t.Errorf("%v: standard input not named <stdin>:\n%s", tc.args, all)
		}
	}
}
