package build

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
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

// A byte limit below the smallest sitemap (the header, the closing tag
// and one short URL) is refused, naming the flag and the range: with it
// every entry would be refused, one error each. The smallest limit
// accepted holds such a sitemap.
func TestSettingsMaxBytesFloor(t *testing.T) {
	min := minMaxBytes()
	for _, c := range []struct {
		n  int
		ok bool
	}{{10, false}, {min - 1, false}, {min, true}, {sitemap.MaxBytes, true}, {sitemap.MaxBytes + 1, false}} {
		s := DefaultSettings()
		s.MaxBytes = c.n
		_, err := s.Options()
		if (err == nil) != c.ok || (err != nil && !strings.HasPrefix(err.Error(), fmt.Sprintf("--max-bytes %d: use %d to %d (S-02)", c.n, min, sitemap.MaxBytes))) {
			t.Errorf("--max-bytes %d: %v; want accepted %v", c.n, err, c.ok)
		}
	}
	sum, err := tryRun(store.Memory(), Options{BaseURL: "http://ab.cd/", MaxBytes: 1000}, []*sitemap.URL{{Loc: "http://ab.cd/"}})
	if err != nil || sum.URLs != 1 {
		t.Errorf("MaxBytes %d, one URL http://a.bc/: %v, %d URLs; want it published", min, err, sum.URLs)
	}
}
