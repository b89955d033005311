package state_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/sitemapkit/sitemap/state"
)

// A state file that does not exist is an error, never a new empty state.
func ExampleOpenCrawlState() {
	_, err := state.OpenCrawlState(context.Background(), "no-such-crawl.db")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// true
}
