package view

import (
	"context"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
)

// Items writes the HTML view of one document read item by item, whatever
// it turns out to be: [Index] when its first item is an index entry, else
// [URLSet]. next returns the next item (the *Item is only read until the
// following call) and io.EOF after the last; items of the other kind (a
// document that mixes them) are left out. An empty document is an empty
// urlset.
func Items(ctx context.Context, w io.Writer, next func() (*sitemap.Item, error), o Options) error {
	first, err := next()
	if err == io.EOF {
		first = nil
	} else if err != nil {
		return err
	}
	each := func(kind sitemap.ItemKind, yield func(*sitemap.Item) error) error {
		for it := first; it != nil; {
			if it.Kind == kind {
				if err := yield(it); err != nil {
					return err
				}
			}
			if it, err = next(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	if first != nil && first.Kind == sitemap.ItemIndex {
		return Index(ctx, w, func(ctx context.Context, yield func(*sitemap.IndexEntry) error) error {
			return each(sitemap.ItemIndex, func(it *sitemap.Item) error { return yield(&it.Index) })
		}, o)
	}
	return URLSet(ctx, w, func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return each(sitemap.ItemURL, func(it *sitemap.Item) error { return yield(&it.URL) })
	}, o)
}
