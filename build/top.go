package build

import (
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemap/store"
)

// TopIn is where the run's top file (the index, or the one sitemap) is
// read back from once published at loc, a directory or an
// s3://bucket/prefix location: loc joined with its name. It is "" when
// the run wrote no index and not exactly one sitemap.
func (s Summary) TopIn(loc string) string {
	join := func(dir, name string) string { return filepath.Join(dir, name) }
	if store.IsS3(loc) {
		join = func(dir, name string) string { return strings.TrimSuffix(dir, "/") + "/" + name }
	}
	if s.Index != nil {
		return join(loc, s.Index.Name)
	}
	if len(s.Files) == 1 {
		return join(loc, s.Files[0].Name)
	}
	return ""
}
