package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// The INPUT handling parse and validate share (input.go): the same
// messages and exit status from both commands.
func TestInputArgs(t *testing.T) {
	sample := "../../testdata/samples/basic.xml"
	xml, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"parse", "validate"} {
		for _, tc := range []struct {
			name  string
			stdin string
			args  []string
			code  int
			want  string
		}{
			{"stdin twice", "", []string{"-", "-"}, exitUsage, "sitemap: standard input (-) given more than once"},
			{"base not http", "", []string{"--base", "ftp://example.com/", sample}, exitUsage, `sitemap: --base "ftp://example.com/" is not an http(s) URL`},
			{"missing file", "", []string{"no-such.xml"}, exitUsage, "sitemap: no-such.xml: no such file"},
			{"directory without sitemaps", "", []string{"."}, exitUsage, "sitemap: .: a directory with no sitemap file"},
			{"file and stdin once", string(xml), []string{sample, "-"}, exitOK, ""},
		} {
			t.Run(verb+"/"+tc.name, func(t *testing.T) {
				args := append([]string{verb}, tc.args...)
				code, _, stderr := runCLI(t, tc.stdin, args...)
				if code != tc.code || !strings.Contains(stderr, tc.want) {
					t.Errorf("exit %d (want %d), stderr:\n%s", code, tc.code, stderr)
				}
			})
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// Output that cannot be written is exit 2, named by what was being
// written; buffered output fails only when flushed after the last INPUT.
func TestInputOutputFails(t *testing.T) {
	sample := "../../testdata/samples/basic.xml"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"parse", sample}, "sitemap: writing entries: disk full"},
		// a clean document writes nothing until the closing "[]".
		{[]string{"validate", "--format", "json", sample}, "sitemap: writing results: disk full"},
	} {
		var errb strings.Builder
		s := &streams{In: strings.NewReader(""), Out: failWriter{}, Err: &errb}
		if code := execute(context.Background(), s, tc.args); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr:\n%s", tc.args, code, errb.String())
		}
	}
}
