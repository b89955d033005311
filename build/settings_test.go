package build

import (
	"bytes"
	"strings"
	"testing"
)

// StdoutOptions refuses what one sitemap on standard output cannot hold,
// naming the flag, and otherwise writes no index.
func TestSettingsStdoutOptions(t *testing.T) {
	for _, c := range []struct {
		index      string
		json, xsl  bool
		wantPrefix string
	}{
		{"auto", false, false, ""},
		{"never", false, false, ""},
		{"always", false, false, "--out - writes one sitemap to standard output, which cannot hold an index"},
		{"auto", true, false, "--out - writes the sitemap to standard output, where --json"},
		{"auto", false, true, "--out - writes one sitemap to standard output; --xsl"},
	} {
		o := Options{Index: IndexAuto}
		err := Settings{Index: c.index}.StdoutOptions(&o, c.json, c.xsl)
		switch {
		case c.wantPrefix == "" && (err != nil || o.Index != IndexNever):
			t.Errorf("%+v: %v, index %v; want no error and IndexNever", c, err, o.Index)
		case c.wantPrefix != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantPrefix)):
			t.Errorf("%+v: %v; want %q…", c, err, c.wantPrefix)
		}
	}
}

// WarnNoIndex warns only when --gzip-index found no index to compress.
func TestSettingsWarnNoIndex(t *testing.T) {
	one := Summary{Files: []FileSummary{{}}}
	withIndex := Summary{Files: []FileSummary{{}, {}}, Index: &FileSummary{}}
	for _, c := range []struct {
		gzipIndex bool
		sum       Summary
		warned    bool
	}{{true, one, true}, {false, one, false}, {true, withIndex, false}, {true, Summary{}, false}} {
		var w bytes.Buffer
		Settings{GzipIndex: c.gzipIndex}.WarnNoIndex(&w, c.sum)
		if got := strings.HasPrefix(w.String(), "sitemap: warning: --gzip-index: no index was written"); got != c.warned || !got && w.Len() > 0 {
			t.Errorf("%+v: %q", c, w.String())
		}
	}
}
