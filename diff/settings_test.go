package diff

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSettingsRunOptions: every setting a person can get wrong is an
// error naming its flag or sides; good ones set the options Run reads.
func TestSettingsRunOptions(t *testing.T) {
	good := Settings{Format: "text"}
	for _, c := range []struct {
		name     string
		edit     func(*Settings)
		old, new string
		err      string
	}{
		{"format", func(s *Settings) { s.Format = "csv" }, "a.xml", "b.xml", `"csv"`},
		{"ignore", func(s *Settings) { s.Ignore = []string{"loc"} }, "a.xml", "b.xml", `--ignore "loc": not a field; want one of lastmod, changefreq`},
		{"stdin twice", func(s *Settings) {}, "-", "-", "OLD and NEW cannot both be standard input"},
		{"base", func(s *Settings) { s.Base = "https://a.example/" }, "https://a.example/1.xml", "https://a.example/2.xml", "--base is for local files"},
		{"tmp-dir", func(s *Settings) { s.TempDir = filepath.Join(t.TempDir(), "none") }, "a.xml", "b.xml", "--tmp-dir "},
		{"timeout", func(s *Settings) { s.Client.Timeout = -time.Second }, "a.xml", "b.xml", "--timeout -1s"},
	} {
		s := good
		c.edit(&s)
		if _, err := s.RunOptions(c.old, c.new, nil); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.err)
		}
	}
	s := Settings{Format: "jsonl", Ignore: []string{"lastmod"}, TempDir: t.TempDir(), Base: "https://a.example/", AllowOffSite: true}
	ro, err := s.RunOptions("-", "b.xml", strings.NewReader(""))
	switch {
	case err != nil:
		t.Fatal(err)
	case ro.Format != "jsonl", ro.TempDir != s.TempDir, len(ro.Ignore) != 1:
		t.Errorf("%+v: want the format, temporary directory and fields ignored", ro)
	case ro.Open.Client == nil, ro.Open.Stdin == nil, !ro.Open.AllowOffSite, ro.Open.Base != s.Base, ro.Open.Decoder.MaxErrors != -1:
		t.Errorf("Open %+v: want the client, stdin, base, off-site and no error limit", ro.Open)
	}
}
