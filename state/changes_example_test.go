package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sitemapkit/sitemap/state"
)

// A run of the change log: sitemaps staged as they are read, then
// committed in one transaction; the next run sees them.
func ExampleDB_Changes() {
	dir, _ := os.MkdirTemp("", "changelog")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.Open(ctx, filepath.Join(dir, "state.db"), state.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	log := st.Changes()
	site := "https://www.example.com/sitemap_index.xml"
	run, _ := log.Begin(ctx, site, time.Now())
	_ = log.Stage(ctx, run, state.ChangeSitemap{URL: "https://www.example.com/s1.xml", ETag: `"v1"`, IndexLastMod: "2026-11-02"}, []byte("entries"))
	_ = log.Commit(ctx, run, nil, true)

	run, _ = log.Begin(ctx, site, time.Now())
	s := run.Sitemaps["https://www.example.com/s1.xml"]
	entries, _, _ := log.Entries(ctx, run, s.URL)
	fmt.Println(run.Runs, run.LastFull, s.ETag, s.IndexLastMod, string(entries))
	// Output:
	// 1 1 "v1" 2026-11-02 entries
}
