package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeFlagErrorsNameTheFlag: a bad flag value is refused (exit 2)
// with a message naming the flag a user typed, not the library's option
// (PerPage, CacheDir, BaseURL, Name, Hosts); --per-page 0 is outside the
// 1 to 50,000 the help gives.
func TestServeFlagErrorsNameTheFlag(t *testing.T) {
	db := pagesDB(t, 1)
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--per-page", "0"}, "--per-page 0"},
		{[]string{"--per-page", "50001"}, "--per-page 50001"},
		{[]string{"--name", "a/b"}, "--name"},
		{[]string{"--base-url", "ftp://x/"}, "--base-url"},
		{[]string{"--host", "www.example.com/x"}, "--host"},
		{[]string{"--base-url", "https://www.example.com/", "--cache-dir", filepath.Join(file, "sub")}, "--cache-dir"},
		// A negative --recheck was taken as "check at every request".
		{[]string{"--recheck", "-1s"}, "--recheck -1s: give how often the source is checked for changes, such as 2s (0: the default, 2s)"},
		{[]string{"--read-timeout", "-1s"}, "--read-timeout -1s: give a time limit such as 10s, or 0 for none"},
		{[]string{"--write-timeout", "-1s"}, "--write-timeout -1s"},
		{[]string{"--shutdown-timeout", "-1s"}, "--shutdown-timeout -1s"},
	} {
		code, stderr, u := serveRefusal(t, append([]string{"--db", db, "--table", "pages", "--columns", "loc=url"}, c.args...)...)
		if u != "" {
			t.Errorf("%v: serve started at %s; want a refusal", c.args, u)
			continue
		}
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and a message naming %s", c.args, code, stderr, c.want)
		}
		for _, opt := range []string{"PerPage", "CacheDir", "BaseURL", "Name "} {
			if strings.Contains(stderr, opt) {
				t.Errorf("%v: the message names the library's %s: %q", c.args, opt, stderr)
			}
		}
	}
}
