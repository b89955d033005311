package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

// WritePages writes the site map pages of entries ([Pages]) into the
// directory dir, which must exist, as `sitemap html -o DIR` does. Every
// page is written aside and renamed into place only when all of them are
// written, index.html last, so a run that fails half way publishes
// nothing and leaves no temporary file; then the page-N.html files an
// earlier run wrote past the last of these (they list what the site map
// no longer does) are removed.
func WritePages(ctx context.Context, dir string, entries sitemap.Entries, o PageOptions) (PagesSummary, error) {
	var held []*store.AsideFile
	defer func() {
		for _, f := range held {
			f.Abort() // what was not renamed
		}
	}()
	create := func(name string) (io.WriteCloser, error) {
		f, err := store.CreateAside(filepath.Join(dir, name))
		if err == nil {
			held = append(held, f)
		}
		return f, err
	}
	sum, err := Pages(ctx, entries, create, o)
	if err != nil {
		return sum, err
	}
	index := filepath.Join(dir, PageName(1))
	sort.SliceStable(held, func(i, j int) bool { return held[i].Name() != index && held[j].Name() == index })
	for _, f := range held {
		if err := f.Commit(0o644); err != nil {
			return sum, fmt.Errorf("writing %s: %v", f.Name(), errors.Unwrap(err))
		}
	}
	return sum, removeStalePages(dir, len(held))
}

// removeStalePages removes the page-N.html files of dir past page n.
func removeStalePages(dir string, n int) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		var k int
		if _, err := fmt.Sscanf(e.Name(), "page-%d.html", &k); err != nil || k <= n || PageName(k) != e.Name() || !e.Type().IsRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("removing %s of an earlier run: %v", e.Name(), err)
		}
	}
	return nil
}
