package tmpdir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemap/internal/tmpdir"
)

// A run's scratch database lives in a directory the next run removes if
// this one is killed.
func ExampleMake() {
	parent, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(parent)
	dir, release, err := tmpdir.Make(parent, "sitemap-audit-*")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(filepath.Base(dir), "sitemap-audit-"))
	release()
	_, err = os.Stat(dir)
	fmt.Println(os.IsNotExist(err))
	// Output:
	// true
	// true
}
