package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/state"
)

// A dry run opens a copy of the state file: what it writes is gone at
// Close, and the file named is never created.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "state-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "state.db")
	st, err := state.Open(ctx, path, state.Options{DryRun: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	st.Put(ctx, state.Record{Loc: "https://example.com/a", ContentHash: "v1"})
	st.Close()
	_, err = os.Stat(path)
	fmt.Println("created:", err == nil)
	// Output:
	// created: false
}
