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
