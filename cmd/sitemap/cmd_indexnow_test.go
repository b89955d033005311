package main

import (
	"os"
	"strings"
	"testing"
)

// --out - means standard output, as for generate: the key file's content
// (the key alone) goes there and no file is written; it made a directory
// named "-" with the key file in it.
func TestIndexNowKeyOutStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errb := runCLI(t, "", "indexnow", "key", "--key", submitKey, "--out", "-")
	if code != exitOK || out != submitKey+"\n" || !strings.Contains(errb, "save it as "+submitKey+".txt") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("wrote %v", ents)
	}
	code, _, errb = runCLI(t, "", "indexnow", "key", "--key", "bad!", "--out", "-")
	if code != exitUsage || !strings.Contains(errb, "IN-03") {
		t.Errorf("bad key: exit %d, stderr %q", code, errb)
	}
}

// ping's advice runs as printed: the host of SITEMAP_URL fills in
// submit's --host, and a SITEMAP_URL that is no absolute http(s) URL is
// refused (exit 2) rather than put into a 'robots add' that would fail.
func TestPingAdviceRuns(t *testing.T) {
	code, _, errb := runCLI(t, "", "ping", "https://foo.example.org/s.xml")
	if code != exitProblems || !strings.Contains(errb, "sitemap robots add robots.txt https://foo.example.org/s.xml") ||
		!strings.Contains(errb, "--host foo.example.org ") {
		t.Errorf("exit %d\n%s", code, errb)
	}
	code, _, errb = runCLI(t, "", "ping", "notaurl")
	if code != exitUsage || !strings.Contains(errb, `"notaurl" is not an absolute http(s) URL`) || strings.Contains(errb, "robots add robots.txt notaurl") {
		t.Errorf("exit %d\n%s", code, errb)
	}
}

// An empty --out is named as such: "mkdir : no such file or directory"
// (indexnow key) and "--out : no such directory" (index) said nothing.
func TestEmptyOut(t *testing.T) {
	for _, args := range [][]string{
		{"indexnow", "key", "--out", ""},
		{"index", "--shards", "1", "--base-url", "https://www.example.com/", "--out", ""},
		{"generate", "--base-url", "https://www.example.com/", "--out", "", "-"},
	} {
		code, _, errb := runCLI(t, "https://www.example.com/a\n", args...)
		if code != exitUsage || !strings.Contains(errb, "--out is empty; give a directory (. for the current one)") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb)
		}
	}
}
