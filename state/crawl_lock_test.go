//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package state

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCrawlBeginOneProcess: a second crawl of a state file while the
// first runs "resumed" the first one's frontier and crawled it at the
// same time. Begin on a second handle of the file (a second process: flock
// is per open file) is refused while the first is open, and allowed once
// it is closed; readers of the file (graph, serve) are not held back.
func TestCrawlBeginOneProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	a := openTemp(t, path, SQLiteOptions{})
	if _, err := a.Crawl().Begin(ctx, ex+"/", time.Now()); err != nil {
		t.Fatal(err)
	}
	b := openTemp(t, path, SQLiteOptions{})
	if _, err := b.Crawl().Reasons(ctx); err != nil {
		t.Errorf("reading a file being crawled: %v", err)
	}
	if _, err := b.Crawl().Begin(ctx, ex+"/", time.Now()); err == nil || !strings.Contains(err.Error(), "another process is crawling") {
		t.Errorf("second Begin while the first crawl runs: %v; want a refusal", err)
	}
	if _, err := a.Crawl().Begin(ctx, ex+"/", time.Now()); err != nil {
		t.Errorf("Begin again on the handle that holds the file: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if run, err := b.Crawl().Begin(ctx, ex+"/", time.Now()); err != nil || !run.Resumed {
		t.Errorf("Begin after the first closed: %+v, %v; want the unfinished run resumed", run, err)
	}
	b.Close()
}
