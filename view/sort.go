package view

import (
	"bytes"
	"context"
	"io"

	"github.com/sitemapkit/sitemap/internal/extsort"
)

// sorter sorts records (strings) in bounded memory through the module's
// one external sort (internal/extsort): up to max in memory, then runs
// on disk in dir, merged.
type sorter struct {
	es *extsort.Sorter
}

func newSorter(max int, dir string) *sorter {
	return &sorter{es: extsort.New(extsort.Options{Dir: dir, Records: max}, bytes.Compare)}
}

func (s *sorter) add(rec string) error { return s.es.Add([]byte(rec)) }

// each calls f with every record in order, then removes the runs.
func (s *sorter) each(ctx context.Context, f func(string) error) error {
	defer s.close()
	r, err := s.es.Sort(ctx)
	if err != nil {
		return err
	}
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		b, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(string(b)); err != nil {
			return err
		}
	}
}

func (s *sorter) close() { s.es.Close() }
