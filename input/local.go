package input

import (
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// CheckLocal returns an error for the first of names that is a local
// file or directory and cannot be found ("NAME: no such file", errors.Is
// fs.ErrNotExist), so a command stops before it reads the others; "-",
// http(s) URLs and s3:// locations are not checked.
func CheckLocal(names []string) error {
	for _, name := range names {
		if name == "-" || urlnorm.IsHTTP(name) || store.IsS3(name) {
			continue
		}
		if _, err := os.Stat(name); err != nil {
			return fmt.Errorf("%s: %w", name, pathErr(err))
		}
	}
	return nil
}
