package serve

import (
	"context"
	"errors"
	"fmt"
	"iter"

	sitemap "github.com/sitemapkit/sitemap"
)

// Seq is the Source of a Go iterator of entries. The iterator must yield
// the entries sorted by loc (byte order; an entry out of order is an error
// naming it) and must start again from the first entry each time it is
// ranged over: the handler walks it to count the pages and again, up to the
// page asked for, for every page (so a page costs the entries before it;
// a SQL source costs only its own). The entries' loc is the key.
//
// version is the change check (see [Source]); nil means the entries never
// change, and the pages are counted once.
func Seq(seq iter.Seq2[*sitemap.URL, error], version func(context.Context) (string, error)) Source {
	return Entries(func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for u, err := range seq {
			if err != nil {
				return err
			}
			if err := yield(u); err != nil {
				return err
			}
		}
		return nil
	}, version)
}

// Entries is [Seq] for the module's own stream of entries
// (sitemap.Entries, what package source, input and crawl give).
func Entries(e sitemap.Entries, version func(context.Context) (string, error)) Source {
	return entriesSource{e, version}
}

type entriesSource struct {
	e       sitemap.Entries
	version func(context.Context) (string, error)
}

func (s entriesSource) Version(ctx context.Context) (string, error) {
	if s.version == nil {
		return "", nil
	}
	return s.version(ctx)
}

func (s entriesSource) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	a, _ := after.(string)
	b, _ := upto.(string)
	prev, first := "", true
	err := s.e(ctx, func(u *sitemap.URL) error {
		if !first && u.Loc <= prev {
			return fmt.Errorf("entry %q comes after %q: the iterator must yield entries sorted by loc, each once", u.Loc, prev)
		}
		prev, first = u.Loc, false
		if after != nil && u.Loc <= a {
			return nil
		}
		if upto != nil && u.Loc > b {
			return errStop
		}
		return fn(u.Loc, u)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}
